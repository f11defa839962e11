/**
 * The scheduled seller-updates job on both backends: besides the run, each job sweeps the active
 * rule over the last two hours' signals, so a signal written without its evaluation (a crash right
 * after it) makes its seller active and alerts the agent at the next job; evaluating it again at the
 * job after changes nothing; a signal older than the window is left alone.
 */
import { describe, expect, it } from 'vitest';
import { sendSellerUpdates } from '../../src/app/jobs/seller-updates.ts';
import { TEST_AUTH } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { subscribe } from '../support/seller-signals.ts';
import { onLongIsland, useSellerUpdatesDatabase } from '../support/seller-updates-suite.ts';

const JOB_DEPS = { siteUrl: TEST_SITE_URL, auth: TEST_AUTH };

describe.each(BACKENDS)('the seller-updates job on %s', (backend) => {
  const suite = useSellerUpdatesDatabase(backend, 'seller-updates-job');
  const db = () => suite.test.db;

  const stateOf = async (id: number) =>
    (
      await db().query<{ active: boolean; alerted: boolean }>(
        'SELECT active_at IS NOT NULL AS active, alerted_at IS NOT NULL AS alerted FROM seller_updates WHERE id = $1',
        [id],
      )
    )[0];
  const alertsTo = async (email: string) =>
    (
      await db().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM email_deliveries WHERE kind = 'seller_active' AND to_email = $1`,
        [email],
      )
    )[0]?.n;

  it('makes a seller active and alerts the agent for a signal left unevaluated, once, within its two hours', async () => {
    const agent = await createAgent(db());
    const lost = await subscribe(db(), agent.id);
    const old = await subscribe(db(), agent.id);
    // Written by SQL as a crash would leave them: the signal, no evaluation.
    await db().query(
      `INSERT INTO seller_signals (subscription_id, kind, at)
       VALUES ($1, 'rerun', now() - interval '30 minutes'), ($2, 'rerun', now() - interval '3 hours')`,
      [lost.id, old.id],
    );
    expect(await stateOf(lost.id)).toEqual({ active: false, alerted: false });

    const first = await sendSellerUpdates(db(), JOB_DEPS, new Date());
    expect(first.activated).toBe(1);
    expect(first.alerted).toBe(1);
    expect(await stateOf(lost.id)).toEqual({ active: true, alerted: true });
    expect(await alertsTo(agent.email)).toBe(1);
    // Outside the window: a job two hours ago would have swept it.
    expect(await stateOf(old.id)).toEqual({ active: false, alerted: false });

    // The next job's window overlaps this one's: the same signal is looked at again, nothing changes.
    const second = await sendSellerUpdates(db(), JOB_DEPS, new Date());
    expect(second.activated).toBe(0);
    expect(await alertsTo(agent.email)).toBe(1);
  });

  it('sweeps outside the sending window too (it alerts agents, not sellers)', async () => {
    const agent = await createAgent(db());
    const sub = await subscribe(db(), agent.id);
    // 3:00 on Long Island, outside the default window (9:00–18:00); the signal ten minutes before.
    const night = onLongIsland('2026-11-26', 3);
    await db().query(
      `INSERT INTO seller_signals (subscription_id, kind, at) VALUES ($1, 'higher_net', $2::timestamptz - interval '10 minutes')`,
      [sub.id, night],
    );
    const report = await sendSellerUpdates(db(), JOB_DEPS, night);
    expect(report.idle).toBe('outside_window');
    // (The sweep also takes any later signal of the file's other tests: count this one by its state.)
    expect(report.activated).toBeGreaterThanOrEqual(1);
    expect(await stateOf(sub.id)).toEqual({ active: true, alerted: true });
    expect(await alertsTo(agent.email)).toBe(1);
  });
});
