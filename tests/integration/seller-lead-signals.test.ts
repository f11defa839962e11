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
       ${piece.ctes.join(',\n')}
       SELECT lead.id, ARRAY(SELECT kind FROM seller_signals_made ORDER BY kind) AS signals FROM lead`,
      [agentId, 'Dana', 'Lopez', email, null, null, null, 'calculator', true, estimateUuid, ...piece.params],
    );
    if (!row) throw new Error('no lead');
    return row.signals;
  };

  /** What the subscription points at and was last told. */
  const pointed = async (id: number) =>
    (
      await test.db.query<{ estimate_uuid: string; last_price_cents: string; last_net_cents: string | null }>(
        `SELECT estimate_uuid::text, last_price_cents::text, last_net_cents::text FROM seller_updates WHERE id = $1`,
        [id],
      )
    )[0];

  it('records a re-run for a new estimate, and a higher net only above the net last told', async () => {
    const agent = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id, { lastNetCents: 300_000_00 });
    const upper = sub.email.toUpperCase();

    expect(await lead(agent.id, upper, await insertEstimate(test.db, agent.id), 290_000_00)).toEqual(['rerun']);
    // Re-pointed: the net last told is now this estimate's.
    expect(await lead(agent.id, upper, await insertEstimate(test.db, agent.id), 290_000_00)).toEqual(['rerun']);
    expect(await lead(agent.id, sub.email, await insertEstimate(test.db, agent.id), 290_000_01)).toEqual([
      'higher_net',
      'rerun',
    ]);
    const kinds = (await signalsOf(test.db, sub.id)).map((signal) => signal.kind);
    expect(kinds.sort()).toEqual(['higher_net', 'rerun', 'rerun', 'rerun']);
    expect((await signalsOf(test.db, sub.id)).every((signal) => signal.send_id === null)).toBe(true);
  });

  it('re-points the subscription at the re-run estimate and its figures, comparing with the net told before', async () => {
    const agent = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id, { lastNetCents: 300_000_00 });
    const rerun = await insertEstimate(test.db, agent.id, 812_500_00);
    // Above the old net by a cent: were the comparison to read the re-pointed net (the same), no higher net.
    expect(await lead(agent.id, sub.email, rerun, 300_000_01)).toEqual(['higher_net', 'rerun']);
    expect(await pointed(sub.id)).toEqual({
      estimate_uuid: rerun,
      last_price_cents: '81250000',
      last_net_cents: '30000001',
    });
    // Not a re-run (the estimate it now points at): nothing moves.
    expect(await lead(agent.id, sub.email, rerun, 999_999_00)).toEqual([]);
    expect((await pointed(sub.id))?.last_net_cents).toBe('30000001');
  });

  it('re-points nothing for a lead that signals nothing', async () => {
    const agent = await createAgent(test.db);
    const sub = await subscribe(test.db, agent.id, { lastNetCents: 300_000_00 });
    const before = await pointed(sub.id);
    const other = await createAgent(test.db);
    expect(await lead(other.id, sub.email, await insertEstimate(test.db, other.id), 999_999_00)).toEqual([]);
    expect(await lead(agent.id, sub.email, await sendEstimate(test.db, sub.id, 1), 999_999_00)).toEqual([]);
    expect(await lead(agent.id, sub.email, null, null)).toEqual([]);
    expect(await pointed(sub.id)).toEqual(before);
    const paused = await subscribe(test.db, agent.id, { state: 'paused', lastNetCents: 300_000_00 });
    const pausedBefore = await pointed(paused.id);
    expect(await lead(agent.id, paused.email, await insertEstimate(test.db, agent.id), 999_999_00)).toEqual([]);
    expect(await pointed(paused.id)).toEqual(pausedBefore);
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
    const piece = leadSignalsStatement(200_00, {
      firstParam: 4,
      name: 'made',
      agentId: '$1',
      email: '$2',
      estimateUuid: '$3',
    });
    const sql = `WITH ${piece.ctes.join(', ')} SELECT subscription_id, kind FROM made`;
    const rows = await test.db.query<{ subscription_id: number; kind: string }>(sql, [
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
