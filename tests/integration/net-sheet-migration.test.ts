/**
 * Migration 0019 on a database that already has agents, on both backends: each stored commission
 * is split in half (the buyer's agent side rounded down to hundredths, the remainder to the listing
 * side), an agent on the system default keeps no split, and the fee table starts with no corrections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitCommission } from '../../src/features/net-sheet/public/agent-settings.ts';
import { migrate } from '../../src/platform/migrate.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

const MIGRATION = '0019_net_sheet_settings.sql';

describe.each(BACKENDS)('migration 0019 on %s', (backend) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase(backend, 'netsheetmigration');
  });
  afterAll(async () => {
    await test.close();
  });

  it('splits every existing commission in half, the odd hundredth to the listing side', async () => {
    const { db } = test;
    // Back to the database as 0018 left it: 0019's table, columns and record undone.
    await db.exec(`DROP TABLE net_sheet_fees;
      ALTER TABLE agent_settings
        DROP CONSTRAINT agent_settings_split_sums_to_commission, DROP CONSTRAINT agent_settings_split_whole,
        DROP COLUMN default_listing_percent, DROP COLUMN default_buyer_agent_percent,
        DROP COLUMN default_days_to_closing, DROP COLUMN default_title_closer_pickup,
        DROP COLUMN default_payoff_bank_attorney, DROP COLUMN default_rp5217_on_seller`);
    await db.query('DELETE FROM schema_migrations WHERE version = $1', [MIGRATION]);
    const commissions = [6, 5.25, 0.01, 19.99, null];
    const ids: number[] = [];
    for (const commission of commissions) {
      const agent = await createAgent(db);
      ids.push(agent.id);
      await db.query('INSERT INTO agent_settings (agent_id, default_commission_percent) VALUES ($1, $2)', [
        agent.id,
        commission,
      ]);
    }

    expect((await migrate(db)).applied).toEqual([MIGRATION]);

    const rows = await db.query<{
      agent_id: number;
      default_listing_percent: number | null;
      default_buyer_agent_percent: number | null;
    }>(
      `SELECT agent_id, default_listing_percent, default_buyer_agent_percent
         FROM agent_settings WHERE agent_id = ANY($1::int[]) ORDER BY agent_id`,
      [ids],
    );
    expect(rows.map((row) => [row.default_listing_percent, row.default_buyer_agent_percent])).toEqual(
      commissions.map((commission) => {
        if (commission === null) return [null, null];
        const split = splitCommission(commission);
        return [split.listing, split.buyerAgent];
      }),
    );
    expect(rows.slice(0, 2).map((row) => [row.default_listing_percent, row.default_buyer_agent_percent])).toEqual([
      [3, 3],
      [2.63, 2.62],
    ]);
    const [fees] = await db.query<{ overrides: unknown }>('SELECT overrides FROM net_sheet_fees WHERE id = 1');
    expect(fees?.overrides).toEqual({});
  });
});
