/**
 * The admin's seller-updates card's API on both backends: the site-wide switch and sending window
 * (saved, refused with friendly words, admins only, no rebuild asked for), and the volumes of the
 * last 12 months counted on seeded sends, clicks, unsubscriptions and failed e-mails; and the lead
 * lists' Updates state and "Ready to sell" filter, the agent's and the admin's alike.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  digestsResponseSchema,
  digestsSettingsResponseSchema,
  type DigestMonth,
} from '../../src/features/seller-updates/public/updates-screen.ts';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { addLeads, listedLead, listedPage } from '../support/lead-list-suite.ts';
import { leadListRequests } from '../support/lead-list-requests.ts';
import { addSend, addSubscription, daysAgo } from '../support/seller-updates-seed.ts';

const monthKey = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit' });
/** The 15th, noon, `back` months before this one: well inside its Long Island month. */
const inMonth = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 15, 17));
};
const keyOf = (back: number) => monthKey.format(inMonth(back)).slice(0, 7);
const adminList = listedPage(listedLead.extend({ agent_id: z.number(), agent_name: z.string() }));

describe.each(BACKENDS)('seller updates for the admin on %s', (backend) => {
  const suite = useAuthSuite(backend, 'updates-admin');
  const { signedIn, list, csv } = leadListRequests(suite);

  it('answers the switch, the window and 12 months, oldest first, to admins only', async () => {
    const admin = await signedIn(true);
    const agent = await signedIn();
    const body = await expectJson(await admin.client.get('/api/admin/digests'), 200, digestsResponseSchema);
    expect(body).toMatchObject({ success: true, enabled: true, window: { start: 9, end: 18 } });
    expect(body.months.map((month) => month.month)).toEqual(Array.from({ length: 12 }, (_, i) => keyOf(11 - i)));
    await expectError(await agent.client.get('/api/admin/digests'), 403);
    await expectError(await suite.client().get('/api/admin/digests'), 401);
  });

  it('counts sent, clicked, unsubscribed and bounced by month', async () => {
    const admin = await signedIn(true);
    const agent = await signedIn();
    const read = async () =>
      new Map(
        (await expectJson(await admin.client.get('/api/admin/digests'), 200, digestsResponseSchema)).months.map(
          (month): [string, DigestMonth] => [month.month, month],
        ),
      );
    const before = await read();
    const leads = await addLeads(suite.db, agent.id, [{}, {}, {}]);
    const [one, two, three] = await Promise.all(
      leads.map((leadId, index) =>
        addSubscription(suite.db, { leadId, agentId: agent.id, email: `v${index}@example.com` }),
      ),
    );
    if (one === undefined || two === undefined || three === undefined) throw new Error('no subscriptions');
    // Two months ago: 2 sent, 1 clicked, 1 failed. Last month: 1 sent, clicked. This month: 1 sent.
    await addSend(suite.db, one, inMonth(2), { clicked: true });
    await addSend(suite.db, two, inMonth(2), { failedEmail: true });
    await addSend(suite.db, one, inMonth(1), { clicked: true });
    await addSend(suite.db, two, inMonth(0));
    // 13 months ago: outside the 12.
    await addSend(suite.db, three, inMonth(13), { clicked: true });
    await suite.db.query(`UPDATE seller_updates SET state = 'unsubscribed', ended_at = $2 WHERE id = $1`, [
      three,
      inMonth(1),
    ]);
    const after = await read();
    const delta = (back: number) => {
      const now = after.get(keyOf(back));
      const was = before.get(keyOf(back));
      if (!now || !was) throw new Error(`no month ${keyOf(back)}`);
      return [
        now.sent - was.sent,
        now.clicked - was.clicked,
        now.unsubscribed - was.unsubscribed,
        now.bounced - was.bounced,
      ];
    };
    expect([delta(2), delta(1), delta(0)]).toEqual([
      [2, 1, 0, 1],
      [1, 1, 1, 0],
      [1, 0, 0, 0],
    ]);
    expect(after.size).toBe(12);
  });

  it('saves the switch and the window, refuses a bad window in words, and asks for no rebuild', async () => {
    const admin = await signedIn(true);
    const agent = await signedIn();
    const changedAt = async () =>
      z.object({ changed_at: z.date() }).parse((await suite.db.query('SELECT changed_at FROM site_changes'))[0])
        .changed_at;
    const was = await changedAt();
    const put = (body: unknown, client = admin.client) => client.send('PUT', '/api/admin/digests/settings', body);
    const saved = await expectJson(
      await put({ enabled: false, window_start: 8, window_end: 20 }),
      200,
      digestsSettingsResponseSchema,
    );
    expect(saved).toMatchObject({ enabled: false, window: { start: 8, end: 20 } });
    expect(await expectJson(await admin.client.get('/api/admin/digests'), 200, digestsResponseSchema)).toMatchObject({
      enabled: false,
      window: { start: 8, end: 20 },
    });
    expect(await changedAt()).toEqual(was);
    await expectFieldError(
      await put({ enabled: true, window_start: 18, window_end: 9 }),
      'window_end',
      'The sending window must start before it ends',
    );
    await expectFieldError(
      await put({ enabled: true, window_start: 9, window_end: 9 }),
      'window_end',
      'The sending window must start before it ends',
    );
    await expectFieldError(
      await put({ enabled: true, window_start: -1, window_end: 9 }),
      'window_start',
      'The start hour must be an hour from 0 to 23',
    );
    await expectFieldError(
      await put({ enabled: true, window_start: 9, window_end: 25 }),
      'window_end',
      'The end hour must be an hour from 1 to 24',
    );
    await expectFieldError(
      await put({ enabled: true, window_start: 9.5, window_end: 18 }),
      'window_start',
      'The start hour must be a whole hour',
    );
    // An agent is told 403, whatever their body.
    await expectError(await put({ enabled: true, window_start: 18, window_end: 9 }, agent.client), 403);
    await expectError(await put({ enabled: true, window_start: 9, window_end: 18 }, agent.client), 403);
    await expectJson(await put({ enabled: true, window_start: 9, window_end: 18 }), 200, digestsSettingsResponseSchema);
  });

  it('shows each lead’s updates on the agent’s and the admin’s lists, and filters the sellers ready to sell', async () => {
    const admin = await signedIn(true);
    const agent = await signedIn();
    const [active, stale, plain, none] = await addLeads(suite.db, agent.id, [
      { first_name: 'Ava' },
      { first_name: 'Old' },
      { first_name: 'Mo' },
      { first_name: 'Nev' },
    ]);
    if (active === undefined || stale === undefined || plain === undefined || none === undefined)
      throw new Error('no leads');
    const activeAt = daysAgo(2);
    await addSubscription(suite.db, { leadId: active, agentId: agent.id, email: 'ava@example.com', activeAt });
    await addSubscription(suite.db, {
      leadId: stale,
      agentId: agent.id,
      email: 'old@example.com',
      activeAt: daysAgo(31),
      state: 'paused',
    });
    await addSubscription(suite.db, {
      leadId: plain,
      agentId: agent.id,
      email: 'mo@example.com',
      updatesSinceClick: 4,
    });
    const before = suite.db.roundTrips;
    const own = await list(agent.client);
    expect(suite.db.roundTrips - before).toBe(1);
    const byName = new Map(own.leads.map((lead) => [lead.first_name, lead.updates]));
    expect(Object.fromEntries(byName)).toEqual({
      Ava: { state: 'monthly', active_at: activeAt.toISOString() },
      Old: { state: 'paused', active_at: null },
      Mo: { state: 'quarterly', active_at: null },
      Nev: null,
    });
    const ready = await list(agent.client, '?updates=active');
    expect([ready.total, ready.leads.map((lead) => lead.first_name)]).toEqual([1, ['Ava']]);
    const all = await expectJson(
      await admin.client.get(`/api/admin/leads?agent=${agent.id}&updates=active`),
      200,
      adminList,
    );
    expect([all.total, all.leads.map((lead) => [lead.first_name, lead.updates?.active_at])]).toEqual([
      1,
      [['Ava', activeAt.toISOString()]],
    ]);
    await expectFieldError(
      await agent.client.get('/api/leads?updates=yes'),
      'updates',
      'Updates must be "active" (the sellers ready to sell)',
    );
    const { records } = await csv(agent.client, '?updates=active');
    expect(records.map((record) => record[13])).toEqual([
      'Updates',
      `Active since ${new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(activeAt)}`,
    ]);
  });
});
