/**
 * A lead's Follow Up Boss event is sent exactly once even when an answer is lost (issue 13, part 4;
 * decision 0023). FUB takes no idempotency key: after a call that may have reached FUB without its
 * answer (our time limit passed, the connection dropped), the next attempt first looks the person
 * up and their events for the one we sent, and posts only when it is not there. Over HTTP, on both
 * backends, against the local fake (tests/fakes/fub.ts), whose slow answer records the event before
 * it answers and whose dropped connection records nothing.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { leadAnswerSchema } from '../../src/features/leads/public/lead.ts';
import { syncDue } from '../../src/features/crm/public/crm-sync.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { fubIntegrationSchema } from '../../src/features/crm/public/fub-integration.ts';
import { leadSyncSchema } from '../../src/features/crm/public/lead-sync.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent, type AgentRow } from '../support/fixtures.ts';

const SECRET = 'fub-sync-once-test-encryption-secret-0123';
/** Our time limit on a Follow Up Boss call here, and an answer slower than it. */
const LIMIT_MS = 300;
const SLOW_MS = 1_500;
const fake = await startFakeFub();
const crm = { client: fubClient(fake.url), secret: SECRET, timeoutMs: LIMIT_MS };
afterAll(() => fake.close());

const savedAnswer = z.object({ success: z.literal(true), integration: fubIntegrationSchema, message: z.string() });
const leadAnswer = leadAnswerSchema;
const syncAnswer = z.object({ success: z.literal(true), sync: z.nullable(leadSyncSchema) });

describe.each(BACKENDS)('a Follow Up Boss event whose answer was lost, on %s', (backend) => {
  const suite = useAuthSuite(backend, 'fubonce', { crm, crmWaitMs: 3_000 });
  afterEach(() => fake.reset());

  async function connectedAgent(): Promise<{ agent: AgentRow; client: Client }> {
    const agent = await createAgent(suite.db);
    const client = await clientAs(suite, agent.id);
    const response = await client.request('/api/agents/me/integrations/fub', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: suite.api.origin },
      body: JSON.stringify({ api_key: fake.apiKey, active: true }),
    });
    await expectJson(response, 200, savedAnswer);
    return { agent, client };
  }

  /** A visitor's message from the agent's contact form; answers the lead's id and sync status. */
  async function contactLead(agent: AgentRow, email: string) {
    const response = await suite.client().post('/api/leads', {
      agent_slug: agent.slug,
      firstName: 'Robin',
      lastName: 'Quinn',
      phone: '5165550123',
      email,
      consent_marketing: true,
    });
    const answer = await expectJson(response, 201, leadAnswer);
    await suite.settle();
    return answer;
  }

  const syncOf = async (client: Client, leadId: number) =>
    (await expectJson(await client.get(`/api/leads/${leadId}/crm`), 200, syncAnswer)).sync;

  /** The scheduled run, once the agent's waiting jobs are due (as if their wait were over). */
  async function runDue(agent: AgentRow): Promise<void> {
    await suite.db.query(`UPDATE crm_syncs SET next_attempt_at = now() WHERE status = 'queued' AND agent_id = $1`, [
      agent.id,
    ]);
    await syncDue(suite.db, crm);
  }

  /** The events Follow Up Boss took for a visitor's e-mail. */
  const acceptedFor = (email: string) =>
    fake.events.filter(
      (event) => (event.status === 200 || event.status === 201) && JSON.stringify(event.body).includes(`"${email}"`),
    );

  it('finds the event Follow Up Boss took before our time limit passed, and does not post it again', async () => {
    const { agent, client } = await connectedAgent();
    const email = `robin.slow.${agent.id}@example.com`;
    fake.trouble({ kind: 'slow', ms: SLOW_MS }, 1);
    const answer = await contactLead(agent, email);
    expect(answer.fub_sync_status).toBe('failed');
    expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'queued', attempts: 1 });

    await runDue(agent);
    const events = acceptedFor(email);
    expect(events).toHaveLength(1);
    const [person] = fake.people().filter((known) => known.emails.some((known) => known.value === email));
    expect(person?.id).toBe(events[0]?.personId);
    const sync = await syncOf(client, answer.lead.id);
    expect(sync).toMatchObject({ status: 'synced', attempts: 2, person_id: person?.id });
    expect(sync?.history[0]).toMatchObject({ outcome: 'found', http_status: 200 });
    const [lead] = await suite.db.query<{ synced_to_fub: boolean; fub_person_id: number }>(
      'SELECT synced_to_fub, fub_person_id FROM leads WHERE id = $1',
      [answer.lead.id],
    );
    expect(lead).toEqual({ synced_to_fub: true, fub_person_id: person?.id });
    // Later runs leave it alone.
    await runDue(agent);
    expect(acceptedFor(email)).toHaveLength(1);
  });

  it('posts the event when the connection dropped before Follow Up Boss took it, and tells it from the visitor’s earlier one', async () => {
    const { agent, client } = await connectedAgent();
    const email = `robin.drop.${agent.id}@example.com`;
    // The visitor wrote before, to another agent of the same Follow Up Boss account: FUB knows them
    // and has that earlier inquiry.
    const colleague = await connectedAgent();
    const earlier = await contactLead(colleague.agent, email);
    expect(earlier.fub_sync_status).toBe('synced');
    fake.trouble({ kind: 'drop' }, 1);
    const answer = await contactLead(agent, email);
    expect(answer.fub_sync_status).toBe('failed');
    expect(acceptedFor(email)).toHaveLength(1);

    await runDue(agent);
    // The person and their events were looked at first; the inquiry was not among them, so it was sent.
    const retry = fake.requests.slice(-3).map((request) => `${request.method} ${request.path}`);
    expect(retry).toEqual(['GET /v1/people', 'GET /v1/events', 'POST /v1/events']);
    expect(acceptedFor(email)).toHaveLength(2);
    expect(fake.people().filter((known) => known.emails.some((known) => known.value === email))).toHaveLength(1);
    expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'synced', attempts: 2 });
  });

  it('looks before the agent’s own sync sends it again', async () => {
    const { agent, client } = await connectedAgent();
    const email = `robin.manual.${agent.id}@example.com`;
    fake.trouble({ kind: 'slow', ms: SLOW_MS }, 1);
    const answer = await contactLead(agent, email);
    expect(answer.fub_sync_status).toBe('failed');

    const synced = await expectJson(
      await client.post('/api/leads/sync-fub', { lead_ids: [answer.lead.id] }),
      200,
      z.object({ success: z.literal(true), synced: z.number() }),
    );
    expect(synced.synced).toBe(1);
    expect(acceptedFor(email)).toHaveLength(1);
    expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'synced', attempts: 2 });
  });

  it('looks before sending a job whose sender died before recording Follow Up Boss’s answer', async () => {
    const { agent, client } = await connectedAgent();
    const email = `robin.died.${agent.id}@example.com`;
    const answer = await contactLead(agent, email);
    expect(answer.fub_sync_status).toBe('synced');
    // As if the sender had posted and died before recording: the job still claimed, its claim over.
    await suite.db.query(
      `UPDATE crm_syncs SET status = 'sending', claimed_until = now() - interval '1 second' WHERE lead_id = $1`,
      [answer.lead.id],
    );
    await suite.db.query('UPDATE leads SET synced_to_fub = false, fub_person_id = NULL WHERE id = $1', [
      answer.lead.id,
    ]);

    await syncDue(suite.db, crm);
    expect(acceptedFor(email)).toHaveLength(1);
    const sync = await syncOf(client, answer.lead.id);
    expect(sync).toMatchObject({ status: 'synced', person_id: acceptedFor(email)[0]?.personId });
    expect(sync?.history[0]).toMatchObject({ outcome: 'found' });
  });

  it('still posts for an expired account, which refuses the lookup but takes events', async () => {
    const { agent, client } = await connectedAgent();
    const email = `robin.expired.${agent.id}@example.com`;
    fake.trouble({ kind: 'drop' }, 1);
    const answer = await contactLead(agent, email);
    expect(answer.fub_sync_status).toBe('failed');
    fake.expireAccount(fake.apiKey);

    await runDue(agent);
    expect(acceptedFor(email)).toHaveLength(1);
    expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'synced', attempts: 2 });
  });

  it('waits for Retry-After when the lookup is rate-limited, then finds the event: still one', async () => {
    const { agent, client } = await connectedAgent();
    const email = `robin.limited.${agent.id}@example.com`;
    fake.trouble({ kind: 'slow', ms: SLOW_MS }, 1);
    const answer = await contactLead(agent, email);
    expect(answer.fub_sync_status).toBe('failed');

    fake.trouble({ kind: 'rate-limit', retryAfter: 30 }, 1);
    await runDue(agent);
    const waiting = await syncOf(client, answer.lead.id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 2 });
    expect(waiting?.history[0]).toMatchObject({ outcome: 'rate-limited', http_status: 429 });
    const [row] = await suite.db.query<{ wait: number }>(
      'SELECT extract(epoch FROM next_attempt_at - now())::float8 AS wait FROM crm_syncs WHERE lead_id = $1',
      [answer.lead.id],
    );
    expect(row?.wait).toBeGreaterThan(28);
    expect(acceptedFor(email)).toHaveLength(1);

    await runDue(agent);
    expect(acceptedFor(email)).toHaveLength(1);
    expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'synced', attempts: 3 });
  });
});
