/**
 * The cadence on both backends, under the simulated clock (a run each day at 14:00 Long Island
 * time): a small group over about two years gets three monthly updates, then three quarterly, then
 * none; a click on the real click route (GET /api/updates/go/{token}) brings one seller back to
 * monthly. And NEXT_DUE_SQL, the statement's twin of daysUntilNext, held to it for 0..7.
 */
import { describe, expect, it } from 'vitest';
import { daysUntilNext, NEXT_DUE_SQL } from '../../src/features/seller-updates/public/cadence.ts';
import { updateLinkSigner } from '../../src/features/seller-updates/public/update-links.server.ts';
import { TEST_AUTH, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import {
  addDays,
  addSellers,
  onLongIsland,
  runOn,
  sendsOf,
  setSeries,
  townsOf,
} from '../support/seller-updates-suite.ts';

const DAY_MS = 86_400_000;
// Sends fall mid-month, so each gap crosses a month end (a new ZHVI point: the price moved).
const START = '2026-12-10';
/** About two years: the group's six updates take 330 days, the click comes after. */
const DAYS = 700;
const CLICK_DAY = 400;

/** Whole days between sends (a daylight-saving change moves 14:00 by an hour: a day more, at most). */
const gapsOf = (sends: readonly { sent_at: Date }[]) =>
  sends
    .slice(1)
    .map((send, index) => Math.floor((send.sent_at.getTime() - (sends[index]?.sent_at.getTime() ?? 0)) / DAY_MS));

describe.each(BACKENDS)('the seller-updates cadence on %s', (backend) => {
  const suite = useAuthSuite(backend, 'seller-updates-cadence');
  const signer = updateLinkSigner(TEST_AUTH.sessionKey);

  it('holds NEXT_DUE_SQL to daysUntilNext for 0..7 updates since the last click', async () => {
    const at = '2027-01-15T19:00:00.000Z';
    const rows = await suite.db.query<{ n: number; days: number | null }>(
      `SELECT n, extract(epoch FROM (${NEXT_DUE_SQL('$1::timestamptz', 'n')}) - $1::timestamptz)::int / 86400 AS days
         FROM generate_series(0, 7) AS n ORDER BY n`,
      [at],
    );
    expect(rows.map((row) => [row.n, row.days])).toEqual(Array.from({ length: 8 }, (_, n) => [n, daysUntilNext(n)]));
    // Both kinds of answer are in the range: a next update, and none.
    expect(rows.some((row) => row.days === null)).toBe(true);
    expect(new Set(rows.map((row) => row.days)).size).toBe(3);
  });

  it('sends monthly ×3, then quarterly ×3, then none over two years; a click brings a seller back to monthly', async () => {
    const [town] = await townsOf(suite.db, 'Suffolk', 1);
    if (!town) throw new Error('no Suffolk town seeded');
    // Everyone else's sellers out of the way: only this group is due.
    await suite.db.query(`UPDATE seller_updates SET state = 'paused' WHERE state = 'subscribed'`);
    const ids = await addSellers(suite.db, {
      agentId: suite.test.featuredAgent.id,
      count: 4,
      tag: 'cadence',
      townSlug: town.slug,
      estimateAt: onLongIsland('2026-08-14', 10),
      firstDue: onLongIsland(START, 9),
    });
    const [clicker] = ids;
    if (clicker === undefined) throw new Error('no sellers');
    const series = [{ slug: town.slug, base: 610_000, monthlyPercent: 0.5 }];

    for (let day = 0; day < DAYS; day += 1) {
      const today = addDays(START, day);
      // A month's point appears at its end: so a month later, every price has moved.
      if (day === 0 || addDays(today, 1).endsWith('-01')) await setSeries(suite.db, series, today);
      if (day === CLICK_DAY) {
        const sixth = (await sendsOf(suite.db, [clicker])).at(-1);
        expect(sixth?.period).toBe(6);
        const token = signer.token({ subscriptionId: clicker, period: 6, link: 'sheet' });
        const answer = await suite.api.fetch(`/api/updates/go/${token}`, { redirect: 'manual' });
        expect(answer.status).toBe(303);
        await suite.settle();
      }
      const report = await runOn(suite.db, today);
      expect(report.skippedBy, today).toEqual({});
    }

    const sends = await sendsOf(suite.db, ids);
    const bySeller = Map.groupBy(sends, (send) => send.subscription_id);
    for (const id of ids.slice(1)) {
      const own = bySeller.get(id) ?? [];
      expect(own.map((send) => send.period)).toEqual([1, 2, 3, 4, 5, 6]);
      const gaps = gapsOf(own);
      expect(gaps.slice(0, 2).every((gap) => gap === 30 || gap === 31)).toBe(true);
      expect(gaps.slice(2).every((gap) => gap === 90 || gap === 91)).toBe(true);
      // None after the sixth: still subscribed, nothing due.
      expect((own.at(-1)?.sent_at.getTime() ?? 0) < onLongIsland(addDays(START, 340)).getTime()).toBe(true);
    }
    const [cold] = await suite.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM seller_updates
        WHERE id = ANY($1::int[]) AND state = 'subscribed' AND next_due_at IS NULL AND updates_since_click = 6`,
      [ids.slice(1)],
    );
    expect(cold?.n).toBe(ids.length - 1);

    // The clicker: the six, then from the click day monthly again (the cadence counts from the click).
    const own = bySeller.get(clicker) ?? [];
    expect(own.slice(0, 6).map((send) => send.period)).toEqual([1, 2, 3, 4, 5, 6]);
    const after = own.slice(6);
    // Days 400, 430, 460, then 550 and 640 (quarterly after three without a click); 730 is past the end.
    expect(after.map((send) => send.period)).toEqual([7, 8, 9, 10, 11]);
    expect(after[0]?.sent_at.getTime()).toBe(onLongIsland(addDays(START, CLICK_DAY)).getTime());
    const gapsAfter = gapsOf(after);
    expect(gapsAfter.slice(0, 2).every((gap) => gap === 30 || gap === 31)).toBe(true);
    expect(gapsAfter.slice(2).every((gap) => gap === 90 || gap === 91)).toBe(true);
  });
});
