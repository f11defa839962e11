/**
 * /dashboard/updates' API on both backends: the agent's switch and subscribers (states, last update,
 * last click, active, paging), pause and resume (404 for an unknown or another agent's lead, 404 for
 * a seller who never asked, 409 for a state that cannot change), each in one round trip.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  STATE_REFUSALS,
  UPDATES_MESSAGES,
  subscriberChangeSchema,
  updatesResponseSchema,
  updatesSettingsResponseSchema,
} from '../../src/features/seller-updates/public/updates-screen.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { addLeads } from '../support/lead-list-suite.ts';
import { leadListRequests } from '../support/lead-list-requests.ts';
import { addSubscription, DAY_MS, daysAgo, type SeedSubscription } from '../support/seller-updates-seed.ts';

const dueOf = z.object({ state: z.string(), next_due_at: z.date().nullable(), paused_at: z.date().nullable() });

describe.each(BACKENDS)('the seller updates screen on %s', (backend) => {
  const suite = useAuthSuite(backend, 'updates-screen');
  const { signedIn } = leadListRequests(suite);

  /** A lead of `agentId` whose seller asked for updates (`row` says how it stands); the lead's id. */
  async function seller(agentId: number, name: string, row: Partial<SeedSubscription> = {}): Promise<number> {
    const [leadId] = await addLeads(suite.db, agentId, [
      { first_name: name, last_name: 'Seller', email: `${name}@example.com` },
    ]);
    if (leadId === undefined) throw new Error('no lead');
    await addSubscription(suite.db, { leadId, agentId, email: `${name}@example.com`, ...row });
    return leadId;
  }
  const list = async (client: Client, query = '') =>
    expectJson(await client.get(`/api/dashboard/updates${query}`), 200, updatesResponseSchema);
  const change = (client: Client, leadId: number | string, kind: 'pause' | 'resume') =>
    client.post(`/api/dashboard/updates/${leadId}/${kind}`);
  const stored = async (leadId: number) =>
    dueOf.parse(
      (
        await suite.db.query('SELECT state, next_due_at, paused_at FROM seller_updates WHERE lead_id = $1', [leadId])
      )[0],
    );

  it('lists the agent’s own sellers who asked, each state named, active ones first, in one round trip', async () => {
    const agent = await signedIn();
    const other = await signedIn();
    const sent = daysAgo(10);
    await seller(agent.id, 'pat', { state: 'pending', createdAt: daysAgo(1) });
    await seller(agent.id, 'mo', {
      updatesSent: 2,
      updatesSinceClick: 1,
      lastSentAt: sent,
      lastNetCents: 61234500,
      lastClickAt: daysAgo(12),
    });
    await seller(agent.id, 'quinn', { updatesSent: 4, updatesSinceClick: 3, lastSentAt: sent, lastNetCents: 100 });
    await seller(agent.id, 'cole', { updatesSent: 6, updatesSinceClick: 6, lastSentAt: sent, lastNetCents: 100 });
    await seller(agent.id, 'paula', { state: 'paused' });
    await seller(agent.id, 'una', { state: 'unsubscribed' });
    // Active 3 days ago: listed first; active 40 days ago: no longer shown as active.
    await seller(agent.id, 'ava', { activeAt: daysAgo(3), createdAt: daysAgo(90), lastNetCents: 5 });
    await seller(agent.id, 'old', { activeAt: daysAgo(40), createdAt: daysAgo(91) });
    await seller(other.id, 'notmine');
    const before = suite.db.roundTrips;
    const body = await list(agent.client);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(body).toMatchObject({ success: true, enabled: true, site_enabled: true, total: 8, page: 1, per_page: 50 });
    expect(body.subscribers.map((s) => [s.name, s.state, s.active_at !== null])).toEqual([
      ['ava Seller', 'monthly', true],
      // Then the newest first (these five were written one after another, 60 days ago).
      ['pat Seller', 'pending', false],
      ['una Seller', 'unsubscribed', false],
      ['paula Seller', 'paused', false],
      ['cole Seller', 'stopped', false],
      ['quinn Seller', 'quarterly', false],
      ['mo Seller', 'monthly', false],
      ['old Seller', 'monthly', false],
    ]);
    const mo = body.subscribers.find((s) => s.name === 'mo Seller');
    expect(mo).toMatchObject({ email: 'mo@example.com', last_sent_at: sent.toISOString(), last_net_cents: 61234500 });
    expect(mo?.last_click_at).not.toBeNull();
    // Before a first update, the net stored is the estimate's: no "last update" is shown.
    expect(body.subscribers[0]).toMatchObject({ last_sent_at: null, last_net_cents: null });
    expect((await list(other.client)).subscribers.map((s) => s.name)).toEqual(['notmine Seller']);
  });

  it('pages by 50, and refuses a bad page', async () => {
    const agent = await signedIn();
    for (let index = 0; index < 53; index += 1)
      await seller(agent.id, `s${index}`, { createdAt: new Date(Date.UTC(2026, 0, 1) + index * DAY_MS) });
    const first = await list(agent.client);
    const second = await list(agent.client, '?page=2');
    expect([first.total, first.subscribers.length, second.subscribers.length]).toEqual([53, 50, 3]);
    expect(second.subscribers.map((s) => s.name)).toEqual(['s2 Seller', 's1 Seller', 's0 Seller']);
    await expectError(await agent.client.get('/api/dashboard/updates?page=0'), 400, 'Page must be at least 1');
  });

  it('turns the agent’s updates off and on', async () => {
    const agent = await signedIn();
    const put = (enabled: unknown) => agent.client.send('PUT', '/api/dashboard/updates/settings', { enabled });
    expect(await expectJson(await put(false), 200, updatesSettingsResponseSchema)).toEqual({
      success: true,
      message: UPDATES_MESSAGES.disabled,
      enabled: false,
    });
    expect((await list(agent.client)).enabled).toBe(false);
    expect((await expectJson(await put(true), 200, updatesSettingsResponseSchema)).message).toBe(
      UPDATES_MESSAGES.enabled,
    );
    expect((await list(agent.client)).enabled).toBe(true);
    await expectError(await put('yes'), 400);
  });

  it('pauses a subscribed seller and resumes them on their cadence', async () => {
    const agent = await signedIn();
    const lastSent = daysAgo(20);
    const mo = await seller(agent.id, 'mo', { updatesSent: 1, lastSentAt: lastSent, nextDueAt: daysAgo(-10) });
    const before = suite.db.roundTrips;
    const paused = await expectJson(await change(agent.client, mo, 'pause'), 200, subscriberChangeSchema);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(paused).toMatchObject({ message: UPDATES_MESSAGES.paused, subscriber: { lead_id: mo, state: 'paused' } });
    const whilePaused = await stored(mo);
    expect(whilePaused).toMatchObject({ state: 'paused', next_due_at: null });
    expect(whilePaused.paused_at).toBeInstanceOf(Date);
    await expectError(await change(agent.client, mo, 'pause'), 409, STATE_REFUSALS.pause.paused);
    const resumed = await expectJson(await change(agent.client, mo, 'resume'), 200, subscriberChangeSchema);
    expect(resumed.subscriber.state).toBe('monthly');
    const after = await stored(mo);
    expect(after).toMatchObject({ state: 'subscribed', paused_at: null });
    expect(after.next_due_at?.getTime()).toBe(lastSent.getTime() + 30 * DAY_MS);
    await expectError(await change(agent.client, mo, 'resume'), 409, STATE_REFUSALS.resume.subscribed);

    // Long past due: due now, not in the past. Quarterly: 90 days on. Cold: still none.
    const late = await seller(agent.id, 'late', { state: 'paused', updatesSent: 1, lastSentAt: daysAgo(100) });
    const slow = await seller(agent.id, 'slow', {
      state: 'paused',
      updatesSent: 4,
      updatesSinceClick: 3,
      lastSentAt: daysAgo(20),
    });
    const cold = await seller(agent.id, 'cold', {
      state: 'paused',
      updatesSent: 6,
      updatesSinceClick: 6,
      lastSentAt: daysAgo(20),
    });
    for (const id of [late, slow, cold])
      await expectJson(await change(agent.client, id, 'resume'), 200, subscriberChangeSchema);
    expect(Math.abs((await stored(late)).next_due_at!.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await stored(slow)).next_due_at!.getTime()).toBeGreaterThan(Date.now() + 60 * DAY_MS);
    expect((await stored(cold)).next_due_at).toBeNull();
  });

  it('refuses a pending or unsubscribed seller (409), one who never asked, and another agent’s or an unknown lead (404)', async () => {
    const agent = await signedIn();
    const other = await signedIn();
    const pending = await seller(agent.id, 'pat', { state: 'pending' });
    const gone = await seller(agent.id, 'una', { state: 'unsubscribed' });
    const [never] = await addLeads(suite.db, agent.id, [{ first_name: 'Nev' }]);
    const foreign = await seller(other.id, 'theirs');
    await expectError(await change(agent.client, pending, 'pause'), 409, STATE_REFUSALS.pause.pending);
    await expectError(await change(agent.client, pending, 'resume'), 409, STATE_REFUSALS.resume.pending);
    await expectError(await change(agent.client, gone, 'pause'), 409, STATE_REFUSALS.pause.unsubscribed);
    await expectError(await change(agent.client, gone, 'resume'), 409, STATE_REFUSALS.resume.unsubscribed);
    await expectError(await change(agent.client, never ?? 0, 'pause'), 404, UPDATES_MESSAGES.notAsked);
    for (const id of [foreign, 2_000_000_000, 'abc', 99_999_999_999]) {
      await expectError(await change(agent.client, id, 'pause'), 404, UPDATES_MESSAGES.notFound);
    }
    expect((await stored(foreign)).state).toBe('subscribed');
    expect((await stored(pending)).state).toBe('pending');
  });
});
