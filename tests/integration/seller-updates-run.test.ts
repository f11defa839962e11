/**
 * The seller-updates run on both backends, under a simulated clock (the `asOf` each run is given):
 * 1,000 subscribed sellers over 90 days get exactly one update per period each, those never
 * confirmed none, those who unsubscribe none after; two runs at once send nothing twice; a run that
 * dies loses nothing; a failing provider delays the e-mails but every one is delivered once.
 */
import { describe, expect, it } from 'vitest';
import { deliverQueued } from '../../src/features/email/email-delivery.server.ts';
import { runSellerUpdates } from '../../src/features/seller-updates/public/digest-run.server.ts';
import { BACKENDS } from '../support/backends.ts';
import { failingProvider, recordingProvider, TEST_DELIVERY } from '../support/email-suite.ts';
import { withRefusedAddress } from '../support/refused-delivery.ts';
import {
  addDays,
  addSellers,
  onLongIsland,
  runOn,
  sendsOf,
  setSeries,
  townsOf,
  UPDATE_DEPS,
  useSellerUpdatesDatabase,
} from '../support/seller-updates-suite.ts';

const START = '2026-11-27';
const DAY_MS = 86_400_000;

describe.each(BACKENDS)('seller updates run on %s', (backend) => {
  const suite = useSellerUpdatesDatabase(backend, 'seller-updates-run');
  const db = () => suite.test.db;
  const agentId = () => suite.test.featuredAgent.id;
  /** Leaves only the groups a test makes due. */
  const pauseEveryone = () => db().query(`UPDATE seller_updates SET state = 'paused' WHERE state = 'subscribed'`);

  it('sends 1,000 sellers exactly one update per period over 90 days, none unconfirmed, none after unsubscribing', async () => {
    const [town, other] = await townsOf(db(), 'Nassau', 2);
    if (!town || !other) throw new Error('no Nassau towns seeded');
    const series = [
      { slug: town.slug, base: 650_000, monthlyPercent: 0.6 },
      { slug: other.slug, base: 720_000, monthlyPercent: -0.4 },
    ];
    const common = { agentId: agentId(), estimateAt: onLongIsland('2026-11-01', 10), spreadDays: 30 };
    const firstDue = onLongIsland(START, 9);
    const sellers = [
      ...(await addSellers(db(), { ...common, count: 700, tag: 'town', townSlug: town.slug, firstDue })),
      // No series of their own: their county's (the median of its towns' moves).
      ...(await addSellers(db(), { ...common, count: 300, tag: 'county', townSlug: null, county: 'Nassau', firstDue })),
    ];
    const pending = await addSellers(db(), {
      ...common,
      count: 20,
      tag: 'pending',
      townSlug: town.slug,
      state: 'pending',
      firstDue,
    });
    const leaving = await addSellers(db(), { ...common, count: 20, tag: 'leaving', townSlug: town.slug, firstDue });
    const leaveOn = addDays(START, 40);

    let totalSent = 0;
    for (let day = 0; day < 90; day += 1) {
      const today = addDays(START, day);
      // A month's point appears at its end (before the run), so each month's prices move.
      await setSeries(db(), series, today);
      if (today === leaveOn) {
        await db().query(
          `INSERT INTO email_suppressions (email, method) SELECT email, 'page' FROM seller_updates WHERE id = ANY($1::int[])`,
          [leaving],
        );
      }
      const report = await runOn(db(), today);
      expect(report.due).toBe(report.sent + report.skipped);
      totalSent += report.sent;
    }

    const sends = await sendsOf(db(), sellers);
    expect(sends.length).toBe(totalSent - (await sendsOf(db(), leaving)).length);
    const bySeller = Map.groupBy(sends, (send) => send.subscription_id);
    expect(bySeller.size).toBe(1000);
    for (const [, own] of bySeller) {
      // Periods 1..n, once each, at least 30 days apart (monthly: no click needed for the first three).
      expect(own.map((send) => send.period)).toEqual(own.map((_, index) => index + 1));
      for (let index = 1; index < own.length; index += 1) {
        const gap = (own[index]?.sent_at.getTime() ?? 0) - (own[index - 1]?.sent_at.getTime() ?? 0);
        expect(gap).toBeGreaterThanOrEqual(30 * DAY_MS);
      }
      expect(own.length).toBeGreaterThanOrEqual(2);
      expect(own.length).toBeLessThanOrEqual(3);
    }
    // Every update's e-mail queued once, to the seller, about their lead.
    const [mail] = await db().query<{ deliveries: number; distinct_sends: number }>(
      `SELECT count(*)::int AS deliveries, count(DISTINCT s.id)::int AS distinct_sends
         FROM seller_update_sends s JOIN email_deliveries d ON d.id = s.delivery_id
         JOIN seller_updates u ON u.id = s.subscription_id
        WHERE d.kind = 'seller_update' AND d.to_email = u.email AND d.lead_id = u.lead_id AND d.estimate_uuid = s.estimate_uuid`,
    );
    expect(mail?.deliveries).toBe(totalSent);
    expect(mail?.distinct_sends).toBe(totalSent);
    const [counters] = await db().query<{ mismatched: number }>(
      `SELECT count(*)::int AS mismatched FROM seller_updates u
        WHERE u.id = ANY($1::int[])
          AND u.updates_sent <> (SELECT count(*) FROM seller_update_sends s WHERE s.subscription_id = u.id)`,
      [sellers],
    );
    expect(counters?.mismatched).toBe(0);

    expect(await sendsOf(db(), pending)).toEqual([]);
    const after = (await sendsOf(db(), leaving)).filter((send) => send.sent_at >= onLongIsland(leaveOn, 0));
    expect(after).toEqual([]);
    const left = await db().query<{ state: string; ended_reason: string; next_due_at: Date | null }>(
      'SELECT state, ended_reason, next_due_at FROM seller_updates WHERE id = ANY($1::int[])',
      [leaving],
    );
    expect(new Set(left.map((row) => `${row.state} ${row.ended_reason} ${String(row.next_due_at)}`))).toEqual(
      new Set(['unsubscribed suppressed null']),
    );
  });

  it('sends nothing twice when two runs overlap', async () => {
    await pauseEveryone();
    const [town] = await townsOf(db(), 'Nassau', 1);
    const day = '2027-03-10';
    const ids = await addSellers(db(), {
      agentId: agentId(),
      count: 300,
      tag: 'overlap',
      townSlug: town?.slug ?? null,
      estimateAt: onLongIsland('2026-12-01', 10),
      firstDue: onLongIsland(day, 8),
    });
    // Small batches, so the two runs interleave batch by batch.
    const [first, second] = await Promise.all([runOn(db(), day, { limit: 50 }), runOn(db(), day, { limit: 70 })]);
    expect((first?.sent ?? 0) + (second?.sent ?? 0)).toBe(300);
    const sends = await sendsOf(db(), ids);
    expect(sends.map((send) => send.subscription_id)).toEqual(ids);
    expect(new Set(sends.map((send) => send.period))).toEqual(new Set([1]));
    const [mail] = await db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM email_deliveries WHERE kind = 'seller_update' AND to_email LIKE 'seller-overlap-%'`,
    );
    expect(mail?.n).toBe(300);
  });

  it('loses nothing when a run dies between its read and its write, and sends each once after', async () => {
    await pauseEveryone();
    const [town] = await townsOf(db(), 'Nassau', 1);
    const day = '2027-03-20';
    const ids = await addSellers(db(), {
      agentId: agentId(),
      count: 40,
      tag: 'dies',
      townSlug: town?.slug ?? null,
      estimateAt: onLongIsland('2026-12-01', 10),
      firstDue: onLongIsland(day, 8),
    });
    await withRefusedAddress(db(), 'seller-dies-7@example.com', async () => {
      await expect(runOn(db(), day)).rejects.toThrow();
    });
    expect(await sendsOf(db(), ids)).toEqual([]);
    const [due] = await db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM seller_updates WHERE id = ANY($1::int[]) AND updates_sent = 0 AND next_due_at <= $2`,
      [ids, onLongIsland(day)],
    );
    expect(due?.n).toBe(40);
    const report = await runOn(db(), day);
    expect(report.sent).toBe(40);
    expect((await sendsOf(db(), ids)).length).toBe(40);
  });

  it('delays but loses nothing when the provider fails: every update is delivered exactly once after it recovers', async () => {
    await pauseEveryone();
    const [town] = await townsOf(db(), 'Nassau', 1);
    const day = '2027-04-05';
    await addSellers(db(), {
      agentId: agentId(),
      count: 25,
      tag: 'provider',
      townSlug: town?.slug ?? null,
      estimateAt: onLongIsland('2026-12-01', 10),
      firstDue: onLongIsland(day, 8),
    });
    const report = await runSellerUpdates(db(), UPDATE_DEPS, { asOf: onLongIsland(day) });
    expect(report.sent).toBe(25);
    const failing = failingProvider();
    let now = new Date(onLongIsland(day).getTime() + 60_000);
    const failed = await deliverQueued(db(), failing, { ...TEST_DELIVERY, ids: report.deliveryIds, now, limit: 100 });
    expect(failed.retrying.length).toBe(25);
    // Later, retried by the e-mail job until the provider recovers.
    const recording = recordingProvider();
    now = new Date(now.getTime() + 30 * 60_000);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await deliverQueued(db(), recording, { ...TEST_DELIVERY, ids: report.deliveryIds, now, limit: 100 });
    }
    const delivered = recording.sent.map((message) => message.to.email).sort();
    expect(delivered.length).toBe(25);
    expect(new Set(delivered).size).toBe(25);
    expect(recording.sent.every((message) => message.headers['List-Unsubscribe'] !== undefined)).toBe(true);
  });
});
