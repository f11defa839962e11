/**
 * The lead statement's piece that records a re-run and a higher net (leadSignalsStatement), called
 * standalone on both backends inside a statement laid out like the lead statement: its $1 the
 * agent, $4 the e-mail, $10 the estimate, and the lead inserted by another CTE of the same statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadSignalsStatement } from '../../src/features/seller-updates/public/lead-signals.server.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { insertEstimate, sendEstimate, signalsOf, subscribe } from '../support/seller-signals.ts';

describe.each(BACKENDS)('the lead statement signals on %s', (backend) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase(backend, 'lead_signals');
  });
  afterAll(() => test.close());

  /** A lead written as the lead statement writes it, with the piece as one of its CTEs. */
  const lead = async (agentId: number, email: string, estimateUuid: string | null, netCents: number | null) => {
    const piece = leadSignalsStatement(netCents, { firstParam: 11 });
    const [row] = await test.db.query<{ id: number; signals: string[] }>(
      `WITH lead AS (
         INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, message, source,
                            consent_marketing, estimate_uuid)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id
       ),
       signals AS (${piece.sql})
       SELECT lead.id, ARRAY(SELECT kind FROM signals ORDER BY kind) AS signals FROM lead`,
      [agentId, 'Dana', 'Lopez', email, null, null, null, 'calculator', true, estimateUuid, ...piece.params],
    );
    if (!row) throw new Error('no lead');
    return row.signals;
  };

  it('records a re-run for a new estimate, and a higher net only above the net last told', async () => {
    const agent = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id, { lastNetCents: 300_000_00 });
    const upper = sub.email.toUpperCase();

    expect(await lead(agent.id, upper, await insertEstimate(test.db, agent.id), 290_000_00)).toEqual(['rerun']);
    expect(await lead(agent.id, upper, await insertEstimate(test.db, agent.id), 300_000_00)).toEqual(['rerun']);
    expect(await lead(agent.id, sub.email, await insertEstimate(test.db, agent.id), 300_000_01)).toEqual([
      'higher_net',
      'rerun',
    ]);
    const kinds = (await signalsOf(test.db, sub.id)).map((signal) => signal.kind);
    expect(kinds.sort()).toEqual(['higher_net', 'rerun', 'rerun', 'rerun']);
    expect((await signalsOf(test.db, sub.id)).every((signal) => signal.send_id === null)).toBe(true);
  });

  it('records nothing when the estimate is not new, or there is none', async () => {
    const agent = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id, { sends: 2 });
    // The subscription's own estimate, an update's sheet, no estimate at all.
    expect(await lead(agent.id, sub.email, sub.estimateUuid, 999_999_00)).toEqual([]);
    expect(await lead(agent.id, sub.email, await sendEstimate(test.db, sub.id, 2), 999_999_00)).toEqual([]);
    expect(await lead(agent.id, sub.email, null, null)).toEqual([]);
    // The same new estimate twice (a form sent again): one re-run.
    const again = await insertEstimate(test.db, agent.id);
    expect(await lead(agent.id, sub.email, again, null)).toEqual(['rerun']);
    expect(await lead(agent.id, sub.email, again, null)).toEqual([]);
    expect(await signalsOf(test.db, sub.id)).toHaveLength(1);
  });

  it('records nothing for another agent, another address, or a subscription not subscribed', async () => {
    const agent = await createAgent(test.db);
    const other = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id);
    expect(await lead(other.id, sub.email, await insertEstimate(test.db, other.id), 999_999_00)).toEqual([]);
    expect(await lead(agent.id, `x${sub.email}`, await insertEstimate(test.db, agent.id), 999_999_00)).toEqual([]);
    for (const state of ['pending', 'paused', 'unsubscribed'] as const) {
      const quiet = await subscribe(test.db, agent.id, { state });
      expect(await lead(agent.id, quiet.email, await insertEstimate(test.db, agent.id), 999_999_00)).toEqual([]);
      expect(await signalsOf(test.db, quiet.id)).toEqual([]);
    }
    expect(await signalsOf(test.db, sub.id)).toEqual([]);
  });

  it('records no higher net before any net was told', async () => {
    const agent = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id, { lastNetCents: null, sends: 0 });
    expect(await lead(agent.id, sub.email, await insertEstimate(test.db, agent.id), 999_999_00)).toEqual(['rerun']);
  });

  it('takes other parameter numbers when called alone', async () => {
    const agent = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id, { lastNetCents: 100_00 });
    const piece = leadSignalsStatement(200_00, { firstParam: 4, agentId: '$1', email: '$2', estimateUuid: '$3' });
    const rows = await test.db.query<{ subscription_id: number; kind: string }>(piece.sql, [
      agent.id,
      sub.email,
      await insertEstimate(test.db, agent.id),
      ...piece.params,
    ]);
    expect(rows.map((row) => [row.subscription_id, row.kind]).sort()).toEqual([
      [sub.id, 'higher_net'],
      [sub.id, 'rerun'],
    ]);
  });
});
