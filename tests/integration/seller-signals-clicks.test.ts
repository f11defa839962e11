/**
 * A followed link of a seller's update, over HTTP on both backends: the click recorded on its send,
 * the cadence restarted (a cold seller due again), the redirect to the sheet or the agent; forged
 * tokens refused with a page (browsers) or the JSON error; an unsubscribed seller sent on with
 * nothing recorded. Time moves by moving the recorded past back (no sleeps).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { nextDueAfterClick } from '../../src/features/seller-updates/public/cadence.ts';
import { updateLinkSigner, type UpdateLink } from '../../src/features/seller-updates/public/update-links.server.ts';
import { INVALID_UPDATE_LINK } from '../../src/features/seller-updates/link-routes.server.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectError } from '../support/api-suite.ts';
import { TEST_AUTH } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { SECRET, useFubSyncSuite } from '../support/fub-sync-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { sendEstimate, signalsOf, subscribe } from '../support/seller-signals.ts';

const fake = await startFakeFub();
const crm = { client: fubClient(fake.url), secret: SECRET };
afterAll(() => fake.close());

const signer = updateLinkSigner(TEST_AUTH.sessionKey);
const tokenOf = (link: UpdateLink) => signer.token(link);

describe.each(BACKENDS)('following an update link on %s', (backend) => {
  const { suite } = useFubSyncSuite(backend, fake, crm);

  const go = (token: string, accept = '*/*') =>
    suite.api.fetch(`/api/updates/go/${encodeURIComponent(token)}`, { redirect: 'manual', headers: { accept } });

  const subscriptionRow = async (id: number) => {
    const [row] = await suite.db.query<{
      updates_since_click: number;
      last_click_at: Date | null;
      last_sent_at: Date | null;
      next_due_at: Date | null;
    }>('SELECT updates_since_click, last_click_at, last_sent_at, next_due_at FROM seller_updates WHERE id = $1', [id]);
    if (!row) throw new Error('no subscription');
    return row;
  };

  it('records the click on its send, restarts the cadence and sends the seller to the sheet or the agent', async () => {
    const agent = await createAgent(suite.db);
    const sub = await subscribe(suite.db, agent.id, { sends: 2, sinceClick: 2, nextDueInDays: 20 });
    const before = await subscriptionRow(sub.id);

    const sheet = await go(tokenOf({ subscriptionId: sub.id, period: 2, link: 'sheet' }));
    expect(sheet.status).toBe(303);
    expect(sheet.headers.get('location')).toBe(`/estimate/${await sendEstimate(suite.db, sub.id, 2)}`);
    const [send] = await suite.db.query<{ id: number }>(
      'SELECT id FROM seller_update_sends WHERE subscription_id = $1 AND period = 2',
      [sub.id],
    );
    expect(await signalsOf(suite.db, sub.id)).toEqual([{ kind: 'click_sheet', send_id: send?.id }]);
    const after = await subscriptionRow(sub.id);
    expect(after.updates_since_click).toBe(0);
    expect(after.last_click_at).not.toBeNull();
    // Not cold: the next update stays when it was due.
    expect(after.next_due_at?.getTime()).toBe(before.next_due_at?.getTime());

    const talk = await go(tokenOf({ subscriptionId: sub.id, period: 1, link: 'agent' }));
    expect(talk.status).toBe(303);
    expect(talk.headers.get('location')).toBe(`/r/${agent.slug}`);
    expect((await signalsOf(suite.db, sub.id)).map((signal) => signal.kind)).toEqual(['click_sheet', 'click_agent']);
  });

  it('makes a cold seller due again: monthly from their last update, never before the click', async () => {
    const agent = await createAgent(suite.db);
    const recent = await subscribe(suite.db, agent.id, {
      sends: 6,
      sinceClick: 6,
      nextDueInDays: null,
      lastSentDaysAgo: 10,
    });
    const longAgo = await subscribe(suite.db, agent.id, {
      sends: 6,
      sinceClick: 6,
      nextDueInDays: null,
      lastSentDaysAgo: 50,
    });
    for (const sub of [recent, longAgo]) {
      expect((await go(tokenOf({ subscriptionId: sub.id, period: 6, link: 'agent' }))).status).toBe(303);
      const row = await subscriptionRow(sub.id);
      if (!row.last_sent_at || !row.last_click_at) throw new Error('not clicked');
      expect(row.next_due_at?.getTime()).toBe(nextDueAfterClick(row.last_sent_at, row.last_click_at).getTime());
      expect(row.updates_since_click).toBe(0);
    }
    const revived = await subscriptionRow(recent.id);
    expect(revived.next_due_at?.getTime()).toBeGreaterThan(Date.now() + 19 * 24 * 3600 * 1000);
    const now = await subscriptionRow(longAgo.id);
    expect(now.next_due_at?.getTime()).toBe(now.last_click_at?.getTime());
  });

  it('refuses a forged token, one made with another key, a confirmation token and a tampered one', async () => {
    const agent = await createAgent(suite.db);
    const sub = await subscribe(suite.db, agent.id);
    const good = tokenOf({ subscriptionId: sub.id, period: 1, link: 'sheet' });
    const otherKey = updateLinkSigner(new TextEncoder().encode('another-session-key-0123456789abcdef')).token({
      subscriptionId: sub.id,
      period: 1,
      link: 'sheet',
    });
    const tampered = `${Buffer.from(`${sub.id + 1}.1.sheet`).toString('base64url')}.${good.split('.')[1] ?? ''}`;
    const confirm = tokenOf({ subscriptionId: sub.id, period: 0, link: 'confirm' });
    for (const token of ['not-a-token', otherKey, tampered, confirm]) {
      const answer = await go(token);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      await expectError(answer, 400, INVALID_UPDATE_LINK);
      const page = await go(token, 'text/html,application/xhtml+xml');
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('This link is not valid');
      expect(html).toContain('href="/"');
    }
    expect(await signalsOf(suite.db, sub.id)).toEqual([]);
    expect((await subscriptionRow(sub.id)).last_click_at).toBeNull();
  });

  it('sends an unsubscribed seller on and records nothing', async () => {
    const agent = await createAgent(suite.db);
    const sub = await subscribe(suite.db, agent.id, { state: 'unsubscribed', sinceClick: 2 });
    const answer = await go(tokenOf({ subscriptionId: sub.id, period: 1, link: 'agent' }));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/r/${agent.slug}`);
    expect(await signalsOf(suite.db, sub.id)).toEqual([]);
    expect(await subscriptionRow(sub.id)).toMatchObject({ updates_since_click: 2, last_click_at: null });
  });

  it('answers 404 for a signed link whose subscription is gone', async () => {
    const answer = await go(tokenOf({ subscriptionId: 2_000_000_000, period: 1, link: 'sheet' }));
    expect(answer.status).toBe(404);
  });
});
