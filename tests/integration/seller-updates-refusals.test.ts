/**
 * What the run refuses or skips, on both backends, each with its reason recorded and nothing sent:
 * no estimate, no market data, a price not moved since last told, a suppressed address (which ends
 * the subscription); and what it does not even look at: a subscription never confirmed, a paused
 * one, an agent's switch off, the site's switch off. Then the net of a DETAILED estimate at the new
 * price is what computeDetailedSheet gives for the same inputs on the agent's current terms.
 */
import { describe, expect, it } from 'vitest';
import { computeDetailedSheet } from '../../src/features/net-sheet/detailed-sheet.ts';
import { storedDetailsSchema } from '../../src/features/net-sheet/details.ts';
import { computeEstimate } from '../../src/features/net-sheet/public/estimate.ts';
import { agentTermsFor } from '../../src/features/net-sheet/public/sheet-estimates.server.ts';
import { createAgent, setAgentSettings } from '../support/fixtures.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  addSellers,
  onLongIsland,
  runOn,
  sendsOf,
  setSeries,
  townsOf,
  useSellerUpdatesDatabase,
  type NewSellers,
} from '../support/seller-updates-suite.ts';

const DAY = '2027-02-10';
const DAY_MS = 86_400_000;

describe.each(BACKENDS)('seller-update refusals and skips on %s', (backend) => {
  const suite = useSellerUpdatesDatabase(backend, 'seller-updates-refusals');
  const db = () => suite.test.db;
  let tag = 0;

  /** A fresh group, the only one due: everyone else's sellers paused first. */
  const group = async (options: Partial<NewSellers> = {}) => {
    await db().query(`UPDATE seller_updates SET state = 'paused' WHERE state = 'subscribed'`);
    const [town] = await townsOf(db(), 'Nassau', 1);
    if (!town) throw new Error('no Nassau town seeded');
    await setSeries(db(), [{ slug: town.slug, base: 640_000, monthlyPercent: 0.7 }], DAY);
    tag += 1;
    return addSellers(db(), {
      agentId: suite.test.featuredAgent.id,
      count: 3,
      tag: `refusal${tag}`,
      townSlug: town.slug,
      estimateAt: onLongIsland('2026-10-01', 10),
      firstDue: onLongIsland(DAY, 8),
      ...options,
    });
  };
  const rowsOf = (ids: readonly number[]) =>
    db().query<{
      state: string;
      last_skip_reason: string | null;
      last_skipped_at: Date | null;
      next_due_at: Date | null;
      ended_reason: string | null;
      updates_sent: number;
    }>(
      `SELECT state, last_skip_reason, last_skipped_at, next_due_at, ended_reason, updates_sent
         FROM seller_updates WHERE id = ANY($1::int[]) ORDER BY id`,
      [[...ids]],
    );
  const mailTo = async (ids: readonly number[]) =>
    (
      await db().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM email_deliveries d JOIN seller_updates u ON u.email = d.to_email
          WHERE u.id = ANY($1::int[]) AND d.kind = 'seller_update'`,
        [[...ids]],
      )
    )[0]?.n;

  /** Skipped for `reason`: recorded, due again a day later, nothing sent. */
  const expectSkipped = async (ids: number[], reason: string) => {
    const report = await runOn(db(), DAY);
    expect(report).toMatchObject({
      due: ids.length,
      sent: 0,
      skipped: ids.length,
      skippedBy: { [reason]: ids.length },
    });
    const asOf = onLongIsland(DAY);
    for (const row of await rowsOf(ids)) {
      expect(row).toMatchObject({ state: 'subscribed', last_skip_reason: reason, updates_sent: 0 });
      expect(row.last_skipped_at?.getTime()).toBe(asOf.getTime());
      expect(row.next_due_at?.getTime()).toBe(asOf.getTime() + DAY_MS);
    }
    expect(await sendsOf(db(), ids)).toEqual([]);
    expect(await mailTo(ids)).toBe(0);
  };

  it('skips a subscription without an estimate', async () => {
    const ids = await group();
    await db().query('UPDATE seller_updates SET estimate_uuid = NULL WHERE id = ANY($1::int[])', [ids]);
    await expectSkipped(ids, 'no_estimate');
  });

  it('skips a seller whose town and county have no market data', async () => {
    await expectSkipped(await group({ townSlug: null, county: null }), 'no_market_data');
  });

  it('skips a price not moved since the seller was last told it', async () => {
    const ids = await group();
    // Told today's price already: the same figure again is no news.
    const [town] = await townsOf(db(), 'Nassau', 1);
    await setSeries(db(), [{ slug: town?.slug ?? '', base: 640_000, monthlyPercent: 0 }], DAY);
    await expectSkipped(ids, 'not_moved');
  });

  it('ends the subscription of a suppressed address, recording why, and sends nothing', async () => {
    const ids = await group();
    await db().query(
      `INSERT INTO email_suppressions (email, method) SELECT email, 'page' FROM seller_updates WHERE id = ANY($1::int[])`,
      [ids],
    );
    const report = await runOn(db(), DAY);
    expect(report).toMatchObject({ sent: 0, skippedBy: { suppressed: 3 } });
    for (const row of await rowsOf(ids)) {
      expect(row).toMatchObject({
        state: 'unsubscribed',
        ended_reason: 'suppressed',
        last_skip_reason: 'suppressed',
        next_due_at: null,
      });
    }
    expect(await mailTo(ids)).toBe(0);
    // Never again.
    expect((await runOn(db(), '2027-03-20')).due).toBe(0);
  });

  it.each(['pending', 'paused'] as const)('does not look at a %s subscription', async (state) => {
    const ids = await group({ state });
    const before = await rowsOf(ids);
    expect(await runOn(db(), DAY)).toMatchObject({ due: 0, sent: 0, skipped: 0 });
    expect(await rowsOf(ids)).toEqual(before);
    expect(before.every((row) => row.last_skip_reason === null)).toBe(true);
    expect(await sendsOf(db(), ids)).toEqual([]);
  });

  it("leaves an agent's sellers due, untouched, while the agent's switch is off; sends once it is on", async () => {
    const agent = await createAgent(db());
    await setAgentSettings(db(), agent.id, {
      attorneyFeeCents: 1_500_00,
      recordingFeeCents: 250_00,
      transferTaxRatePer1000: 4,
      commissionPercent: 5,
    });
    await db().query('UPDATE agent_settings SET seller_updates_enabled = false WHERE agent_id = $1', [agent.id]);
    const ids = await group({ agentId: agent.id });
    const before = await rowsOf(ids);
    expect(await runOn(db(), DAY)).toMatchObject({ due: 0, sent: 0 });
    expect(await rowsOf(ids)).toEqual(before);
    await db().query('UPDATE agent_settings SET seller_updates_enabled = true WHERE agent_id = $1', [agent.id]);
    expect(await runOn(db(), DAY)).toMatchObject({ due: 3, sent: 3 });
  });

  it("sends nothing while the site's switch is off, and touches nothing", async () => {
    const ids = await group();
    const before = await rowsOf(ids);
    await db().query('UPDATE site_settings SET seller_updates_enabled = false');
    try {
      expect(await runOn(db(), DAY)).toMatchObject({ due: 0, sent: 0, idle: 'disabled' });
    } finally {
      await db().query('UPDATE site_settings SET seller_updates_enabled = true');
    }
    expect(await rowsOf(ids)).toEqual(before);
    expect((await runOn(db(), DAY)).sent).toBe(3);
  });

  it("prices a detailed estimate (liens, concessions) as computeDetailedSheet does on the agent's current terms", async () => {
    const agent = await createAgent(db());
    const details = {
      liens: [
        { label: 'First mortgage', payoff: 281_500 },
        { label: 'Home equity line', payoff: 42_250.5 },
      ],
      seller_concessions: 9_000,
      property_type: 'house',
      county: 'Nassau',
      closing_date: '2026-11-30',
    };
    const [id] = await group({ agentId: agent.id, count: 1, details });
    if (id === undefined) throw new Error('no seller');
    // The agent's terms change after the estimate: the update uses the current ones.
    await setAgentSettings(db(), agent.id, {
      attorneyFeeCents: 1_950_00,
      recordingFeeCents: 310_00,
      transferTaxRatePer1000: 4,
      commissionPercent: 4.5,
    });
    expect((await runOn(db(), DAY)).sent).toBe(1);
    const [send] = await sendsOf(db(), [id]);
    if (!send) throw new Error('no update');

    const asOf = onLongIsland(DAY);
    const terms = await agentTermsFor(db(), agent.slug, asOf);
    const quick = {
      ...terms.rates,
      mortgagePayoffCents: (281_500 + 42_250.5) * 100,
      salePriceCents: Number(send.price_cents),
    };
    // The stored closing date is dropped: today's days to closing apply.
    const kept = Object.fromEntries(Object.entries(details).filter(([key]) => key !== 'closing_date'));
    const sheet = computeDetailedSheet(quick, storedDetailsSchema.parse(kept), terms.basis.fees, {
      today: terms.basis.today,
      defaults: terms.basis.defaults,
    });
    expect(Number(send.net_cents)).toBe(sheet.net_cents);
    // The details count: the quick estimate's net at that price is another figure.
    expect(Number(send.net_cents)).not.toBe(computeEstimate(quick).netToSellerCents);
    expect(terms.rates.commissionPercent).toBe(4.5);
  });
});
