/**
 * Active sellers over HTTP on both backends: two followed links within 14 days make a seller
 * active and alert the agent once (at most once a week), clicks 20 days apart do not; an agent with
 * Follow Up Boss gets a Seller Inquiry on the seller's person (the fake), retried on 429 and 5xx,
 * and nothing without an integration; the scheduled sweep evaluates signals a crash left behind.
 * Time moves by moving the recorded past back (no sleeps).
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { syncDue } from '../../src/features/crm/public/crm-sync.server.ts';
import { markActiveSince } from '../../src/features/seller-updates/public/active.server.ts';
import { updateLinkSigner } from '../../src/features/seller-updates/public/update-links.server.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectJson } from '../support/api-suite.ts';
import { TEST_AUTH } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';
import { SECRET, savedAnswer, useFubSyncSuite } from '../support/fub-sync-suite.ts';
import type { AgentRow } from '../support/fixtures.ts';
import { subscribe, type Subscription } from '../support/seller-signals.ts';

const fake = await startFakeFub();
const crm = { client: fubClient(fake.url), secret: SECRET };
afterAll(() => fake.close());

const signer = updateLinkSigner(TEST_AUTH.sessionKey);
const eventBody = z.object({
  type: z.string(),
  message: z.string(),
  person: z.object({ id: z.number().optional(), emails: z.array(z.object({ value: z.string() })) }),
});

describe.each(BACKENDS)('active sellers on %s', (backend) => {
  const { suite, agentWithClient, connect, visitorLead, makeDue } = useFubSyncSuite(backend, fake, crm);

  const click = async (sub: Subscription, link: 'sheet' | 'agent' = 'sheet') => {
    const token = signer.token({ subscriptionId: sub.id, period: 1, link });
    const answer = await suite.api.fetch(`/api/updates/go/${token}`, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    await suite.settle();
  };
  const alerts = (agent: AgentRow) =>
    suite.db.query<{ subject: string; text: string }>(
      `SELECT subject, text FROM email_deliveries WHERE kind = 'seller_active' AND to_email = $1 ORDER BY id`,
      [agent.email],
    );
  const activeAt = async (sub: Subscription) =>
    (
      await suite.db.query<{ active_at: Date | null }>('SELECT active_at FROM seller_updates WHERE id = $1', [sub.id])
    )[0]?.active_at ?? null;
  /** Everything recorded about the subscription happened `days` earlier. */
  const passDays = (sub: Subscription, days: number) =>
    suite.db.query(
      `WITH moved AS (UPDATE seller_signals SET at = at - $2 * interval '1 day' WHERE subscription_id = $1 RETURNING id)
       UPDATE seller_updates SET active_at = active_at - $2 * interval '1 day', alerted_at = alerted_at - $2 * interval '1 day',
              last_click_at = last_click_at - $2 * interval '1 day'
        WHERE id = $1 AND (SELECT count(*) FROM moved) >= 0`,
      [sub.id, days],
    );
  const eventJobs = (agentId: number) =>
    suite.db.query<{ status: string; about_lead_id: number }>(
      `SELECT status, about_lead_id FROM crm_syncs WHERE kind = 'seller_active' AND agent_id = $1 ORDER BY id`,
      [agentId],
    );

  it('alerts the agent once for two clicks within 14 days, not again within 7 days, again after', async () => {
    const { agent } = await agentWithClient();
    const sub = await subscribe(suite.db, agent.id, { lastNetCents: 312_345_00 });
    await click(sub);
    expect(await activeAt(sub)).toBeNull();
    expect(await alerts(agent)).toEqual([]);

    await click(sub, 'agent');
    expect(await activeAt(sub)).not.toBeNull();
    const [first, ...none] = await alerts(agent);
    expect(none).toEqual([]);
    expect(first?.subject).toBe('Active seller: Dana Lopez');
    expect(first?.text).toContain('Followed two links in their monthly updates within 14 days');
    expect(first?.text).toContain('$312,345');

    // A second burst 3 days later: active again, no second alert.
    await passDays(sub, 3);
    await click(sub);
    await click(sub);
    expect(await alerts(agent)).toHaveLength(1);

    // A week and a day after the alert: another.
    await passDays(sub, 5);
    await click(sub);
    expect(await alerts(agent)).toHaveLength(2);
    // No integration: no event job, nothing sent to Follow Up Boss.
    expect(await eventJobs(agent.id)).toEqual([]);
    expect(fake.events).toEqual([]);
  });

  it('does not make a seller active for clicks 20 days apart', async () => {
    const { agent } = await agentWithClient();
    const sub = await subscribe(suite.db, agent.id);
    await click(sub);
    await passDays(sub, 20);
    await click(sub);
    expect(await activeAt(sub)).toBeNull();
    expect(await alerts(agent)).toEqual([]);
  });

  it('sends Follow Up Boss a Seller Inquiry on the synced person, by their id and e-mail', async () => {
    const { agent, client } = await agentWithClient();
    await expectJson(await connect(client), 200, savedAnswer);
    const { estimate, answer } = await visitorLead(agent);
    expect(answer.fub_sync_status).toBe('synced');
    const [lead] = await suite.db.query<{ email: string; fub_person_id: number }>(
      'SELECT email, fub_person_id FROM leads WHERE id = $1',
      [answer.lead.id],
    );
    if (!lead) throw new Error('no lead');
    const sub = await subscribe(suite.db, agent.id, {
      lead: { id: answer.lead.id, email: lead.email, estimateUuid: estimate.uuid },
      lastNetCents: 250_000_00,
    });
    await click(sub);
    await click(sub, 'agent');

    expect(fake.events).toHaveLength(2);
    const event = fake.events[1];
    expect(event?.status).toBe(200);
    expect(event?.personId).toBe(lead.fub_person_id);
    const body = eventBody.parse(event?.body);
    expect(body.type).toBe('Seller Inquiry');
    expect(body.person).toMatchObject({ id: lead.fub_person_id, emails: [{ value: lead.email }] });
    expect(body.message).toContain('Latest net: $250,000');
    expect(body.message).toContain(TEST_SITE_URL);
    expect(await eventJobs(agent.id)).toEqual([{ status: 'synced', about_lead_id: answer.lead.id }]);
    expect(fake.people()).toHaveLength(1);
  });

  it.each([
    ['a 429', { kind: 'rate-limit', retryAfter: 1 } as const],
    ['a 503', { kind: 'server-error', status: 503 } as const],
    ['a 500', { kind: 'server-error' } as const],
  ])('retries the event after %s', async (_name, trouble) => {
    const { agent, client } = await agentWithClient();
    await expectJson(await connect(client), 200, savedAnswer);
    const sub = await subscribe(suite.db, agent.id);
    await click(sub);
    fake.trouble(trouble, 1);
    await click(sub);
    expect(await eventJobs(agent.id)).toEqual([{ status: 'queued', about_lead_id: sub.leadId }]);

    await makeDue(agent);
    const report = await syncDue(suite.db, crm);
    expect(report.synced).toBe(1);
    expect(await eventJobs(agent.id)).toEqual([{ status: 'synced', about_lead_id: sub.leadId }]);
    const sent = fake.events.filter((event) => event.status === 200 || event.status === 201);
    expect(sent).toHaveLength(1);
    expect(eventBody.parse(sent[0]?.body).person.emails).toEqual([{ value: sub.email }]);
    // The agent's lead counts are about leads: the event job is not one.
    const [counts] = await suite.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM crm_syncs WHERE agent_id = $1 AND kind = 'lead'`,
      [agent.id],
    );
    expect(counts?.n).toBe(0);
  });

  it('evaluates in the sweep the signals whose evaluation was lost, once', async () => {
    const { agent } = await agentWithClient();
    const sub = await subscribe(suite.db, agent.id);
    const since = new Date(Date.now() - 60_000);
    await suite.db.query(
      `INSERT INTO seller_signals (subscription_id, kind, at) VALUES ($1, 'click_sheet', now() - interval '2 days'),
                                                                      ($1, 'click_agent', now())`,
      [sub.id],
    );
    expect(await activeAt(sub)).toBeNull();
    const first = await markActiveSince(suite.db, since, { siteUrl: TEST_SITE_URL });
    expect(first.activated).toEqual([sub.id]);
    expect(first.alerted).toEqual([sub.id]);
    expect(await alerts(agent)).toHaveLength(1);
    const again = await markActiveSince(suite.db, since, { siteUrl: TEST_SITE_URL });
    expect(again).toEqual({ activated: [], alerted: [], deliveryIds: [], webhookIds: [], crmJobs: [] });
    expect(await alerts(agent)).toHaveLength(1);
  });
});
