/**
 * Follow Up Boss end to end over HTTP, on both backends, against the local fake
 * (tests/fakes/fub.ts): connecting an agent's account, each new lead sent as a Seller Inquiry,
 * every failure retried or stopped as the fact sheet says, never a lead sent twice once synced,
 * and the dashboard's sync controls.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { syncDue } from '../../src/features/crm/crm-sync.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { FUB_API_KEY_CONTEXT } from '../../src/features/crm/crm-sync.server.ts';
import { fubIntegrationSchema } from '../../src/features/crm/fub-integration.ts';
import { leadSyncAnswerSchema, leadSyncSchema } from '../../src/features/crm/lead-sync.ts';
import { encrypt, isEncrypted } from '../../src/platform/encryption.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createEstimate } from '../support/estimates.ts';
import { createAgent, type AgentRow } from '../support/fixtures.ts';

const SECRET = 'fub-sync-test-encryption-secret-0123456789';
const fake = await startFakeFub();
const crm = { client: fubClient(fake.url), secret: SECRET };
afterAll(() => fake.close());

const integrationAnswer = z.object({ success: z.literal(true), integration: fubIntegrationSchema });
const savedAnswer = integrationAnswer.extend({ message: z.string() });
const leadAnswer = z.object({
  success: z.literal(true),
  lead: z.object({ id: z.number(), created_at: z.string() }),
  fub_sync_status: z.enum(['synced', 'no_api_key', 'no_integration', 'failed']),
});
const syncAnswer = z.object({ success: z.literal(true), sync: z.nullable(leadSyncSchema) });

describe.each(BACKENDS)('Follow Up Boss on %s', (backend) => {
  const suite = useAuthSuite(backend, 'fubsync', { crm, crmWaitMs: 1_500 });
  afterEach(() => fake.reset());

  async function agentWithClient(): Promise<{ agent: AgentRow; client: Client }> {
    const agent = await createAgent(suite.db);
    return { agent, client: await clientAs(suite, agent.id) };
  }

  const connect = (client: Client, body: Record<string, unknown> = {}) =>
    client.request('/api/agents/me/integrations/fub', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: suite.api.origin },
      body: JSON.stringify({ api_key: fake.apiKey, active: true, ...body }),
    });

  /** A visitor's lead on the agent's calculator page, with the estimate they made there. */
  async function visitorLead(agent: AgentRow, overrides: Record<string, unknown> = {}) {
    const estimate = await createEstimate(suite.api, agent.slug);
    const response = await suite.client().post('/api/leads', {
      agent_id: agent.id,
      first_name: 'Dana',
      last_name: 'Lopez',
      email: `dana.${estimate.uuid.slice(0, 8)}@example.com`,
      phone: '(631) 555-0142',
      address: '12 Oak Lane, Garden City, NY 11530',
      consent_marketing: true,
      estimate_uuid: estimate.uuid,
      ...overrides,
    });
    return { estimate, answer: await expectJson(response, 201, leadAnswer) };
  }

  const syncOf = async (client: Client, leadId: number) =>
    (await expectJson(await client.get(`/api/leads/${leadId}/crm`), 200, syncAnswer)).sync;

  /** Makes the agent's queued jobs due now, as if their wait were over. */
  const makeDue = (agent: AgentRow) =>
    suite.db.query(`UPDATE crm_syncs SET next_attempt_at = now() WHERE status = 'queued' AND agent_id = $1`, [
      agent.id,
    ]);

  describe('the integration card', () => {
    it('starts empty, and saving a key checks it with Follow Up Boss and names the account', async () => {
      const { client } = await agentWithClient();
      const empty = await expectJson(await client.get('/api/agents/me/integrations/fub'), 200, integrationAnswer);
      expect(empty.integration).toMatchObject({ connected: false, active: false, api_key_masked: '', account: null });

      const saved = await expectJson(
        await connect(client, { system: 'NetSheet', system_key: 'sys-key-0123456789abcdef' }),
        200,
        savedAnswer,
      );
      expect(saved.message).toBe('Follow Up Boss integration settings saved successfully!');
      expect(saved.integration).toMatchObject({ connected: true, active: true, system: 'NetSheet', attention: null });
      expect(saved.integration.api_key_masked).toMatch(new RegExp(`${fake.apiKey.slice(-4)}$`));
      expect(saved.integration.account?.name).toMatch(/\S/);
      const identityCall = fake.requests.find((request) => request.path === '/v1/identity');
      expect(identityCall?.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.apiKey}:`).toString('base64')}`);

      // Stored encrypted; never in an answer.
      const [row] = await suite.db.query<{ api_key_encrypted: string; system_key_encrypted: string }>(
        'SELECT api_key_encrypted, system_key_encrypted FROM fub_integrations WHERE api_key_masked IS NOT NULL ORDER BY updated_at DESC LIMIT 1',
      );
      expect(isEncrypted(row?.api_key_encrypted ?? '')).toBe(true);
      expect(row?.api_key_encrypted).not.toContain(fake.apiKey);
      const again = await client.get('/api/agents/me/integrations/fub');
      const text = await again.text();
      expect(text).not.toContain(fake.apiKey);
      expect(text).not.toContain('sys-key-0123456789abcdef');
    });

    it('does not store a key Follow Up Boss refuses, and says why', async () => {
      const { client } = await agentWithClient();
      const refused = await expectError(await connect(client, { api_key: 'not-a-real-key-000000' }), 400);
      // In words an agent understands; the provider's developer text stays in the log (issue 23, minor 13).
      expect(refused.error).toBe(
        'Follow Up Boss did not accept this API key. Copy it again from Admin → API in Follow Up Boss.',
      );
      expect(refused.error).not.toMatch(/Authentication is required|Basic HTTP/);
      expect(refused.fields.api_key).toBe(refused.error);
      const after = await expectJson(await client.get('/api/agents/me/integrations/fub'), 200, integrationAnswer);
      expect(after.integration.connected).toBe(false);
    });

    it('does not store a key it could not check while Follow Up Boss is down', async () => {
      const { client } = await agentWithClient();
      fake.down(503);
      await expectError(
        await connect(client),
        502,
        'Could not reach Follow Up Boss to check the API key. Please try again in a minute.',
      );
      fake.up();
      const after = await expectJson(await client.get('/api/agents/me/integrations/fub'), 200, integrationAnswer);
      expect(after.integration.connected).toBe(false);
    });

    it('keeps the stored key when a save leaves it out, and turns the integration off and on', async () => {
      const { client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      const identityCalls = fake.requests.filter((request) => request.path === '/v1/identity').length;
      const off = await expectJson(await connect(client, { api_key: undefined, active: false }), 200, savedAnswer);
      expect(off.integration).toMatchObject({ connected: true, active: false });
      expect(fake.requests.filter((request) => request.path === '/v1/identity')).toHaveLength(identityCalls);
    });

    it('refuses malformed, mistyped and oversized saves', async () => {
      const { client } = await agentWithClient();
      const patch = (body: string) =>
        client.request('/api/agents/me/integrations/fub', {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', origin: suite.api.origin },
          body,
        });
      await expectError(await patch('{"api_key":'), 400);
      await expectError(await patch(JSON.stringify({ api_key: 'k' })), 400);
      await expectError(await patch(JSON.stringify({ active: 'yes' })), 400);
      await expectError(await patch(JSON.stringify({ active: true, api_key: 42 })), 400);
      await expectError(await patch(JSON.stringify({ active: true, api_key: 'k'.repeat(201) })), 400);
      expect(fake.requests).toHaveLength(0);
    });

    it('disconnects: the key goes and leads stop being sent', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      const gone = await expectJson(
        await client.request('/api/agents/me/integrations/fub', {
          method: 'DELETE',
          headers: { origin: suite.api.origin },
        }),
        200,
        savedAnswer,
      );
      expect(gone.integration).toMatchObject({ connected: false, active: false, api_key_masked: '' });
      const { answer } = await visitorLead(agent);
      expect(answer.fub_sync_status).toBe('no_integration');
      expect(fake.events).toHaveLength(0);
    });

    it('is the signed-in agent’s own: signed out is 401, and another agent sees their own', async () => {
      const { client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      await expectError(await suite.client().get('/api/agents/me/integrations/fub'), 401);
      const other = await agentWithClient();
      const theirs = await expectJson(
        await other.client.get('/api/agents/me/integrations/fub'),
        200,
        integrationAnswer,
      );
      expect(theirs.integration.connected).toBe(false);
    });
  });

  describe('each new lead', () => {
    it('is sent as a Seller Inquiry with the person, the property and the estimate, and marked synced', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(
        await connect(client, { system: 'NetSheet', system_key: 'sys-key-0123456789abcdef' }),
        200,
        savedAnswer,
      );
      const { estimate, answer } = await visitorLead(agent);
      expect(answer.fub_sync_status).toBe('synced');

      expect(fake.events).toHaveLength(1);
      const [event] = fake.events;
      expect(event?.status).toBe(201);
      expect(event?.headers).toMatchObject({ system: 'NetSheet', systemKey: 'sys-key-0123456789abcdef' });
      const body = z
        .object({
          type: z.string(),
          source: z.string(),
          message: z.string(),
          person: z.object({
            firstName: z.string(),
            lastName: z.string(),
            emails: z.array(z.object({ value: z.string() })),
            phones: z.array(z.object({ value: z.string() })),
            tags: z.array(z.string()),
            sourceUrl: z.string(),
          }),
          property: z.object({ street: z.string(), city: z.string(), state: z.string(), code: z.string() }),
        })
        .parse(event?.body);
      expect(body).toMatchObject({
        type: 'Seller Inquiry',
        source: 'Long Island Net Proceeds',
        person: { firstName: 'Dana', lastName: 'Lopez', phones: [{ value: '(631) 555-0142' }] },
        property: { street: '12 Oak Lane', city: 'Garden City', state: 'NY', code: '11530' },
      });
      expect(body.person.sourceUrl).toBe(`https://homes.example.com/estimate/${estimate.uuid}`);
      expect(body.message).toContain('Estimated net to seller: $');
      expect(body.message).toContain(`https://homes.example.com/estimate/${estimate.uuid}`);

      const [lead] = await suite.db.query<{ synced_to_fub: boolean; fub_person_id: number }>(
        'SELECT synced_to_fub, fub_person_id FROM leads WHERE id = $1',
        [answer.lead.id],
      );
      expect(lead).toEqual({ synced_to_fub: true, fub_person_id: event?.personId });
      const sync = await syncOf(client, answer.lead.id);
      expect(sync).toMatchObject({ status: 'synced', attempts: 1, person_id: event?.personId });
      expect(sync?.history).toEqual([expect.objectContaining({ outcome: 'created', http_status: 201, error: null })]);
    });

    it('says no_integration or no_api_key, and sends nothing, when there is nothing to send to', async () => {
      const none = await agentWithClient();
      expect((await visitorLead(none.agent)).answer.fub_sync_status).toBe('no_integration');

      const noKey = await agentWithClient();
      await expectJson(await connect(noKey.client, { api_key: undefined }), 200, savedAnswer);
      expect((await visitorLead(noKey.agent)).answer.fub_sync_status).toBe('no_api_key');

      const off = await agentWithClient();
      await expectJson(await connect(off.client, { active: false }), 200, savedAnswer);
      expect((await visitorLead(off.agent)).answer.fub_sync_status).toBe('no_integration');
      expect(fake.events).toHaveLength(0);
    });

    it('while Follow Up Boss answers 503 is saved, answered failed, and synced exactly once after it recovers', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      fake.down(503);
      const { answer } = await visitorLead(agent);
      expect(answer.fub_sync_status).toBe('failed');
      const waiting = await syncOf(client, answer.lead.id);
      expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
      expect(waiting?.history[0]).toMatchObject({ outcome: 'unavailable', http_status: 503 });
      // 1 s after the first failure, then 2 s, 4 s …
      const [row] = await suite.db.query<{ wait: number }>(
        'SELECT extract(epoch FROM next_attempt_at - now())::float8 AS wait FROM crm_syncs WHERE lead_id = $1',
        [answer.lead.id],
      );
      expect(row?.wait).toBeGreaterThan(0);
      expect(row?.wait).toBeLessThanOrEqual(1);

      fake.up();
      await makeDue(agent);
      await syncDue(suite.db, crm);
      await makeDue(agent);
      await syncDue(suite.db, crm);
      expect(fake.events.filter((event) => event.status === 201)).toHaveLength(1);
      expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'synced', attempts: 2 });
    });

    it('waits for Retry-After when rate-limited', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      fake.trouble({ kind: 'rate-limit', retryAfter: 30 }, 1);
      const { answer } = await visitorLead(agent);
      expect(answer.fub_sync_status).toBe('failed');
      const [row] = await suite.db.query<{ wait: number; last_error: string }>(
        'SELECT extract(epoch FROM next_attempt_at - now())::float8 AS wait, last_error FROM crm_syncs WHERE lead_id = $1',
        [answer.lead.id],
      );
      expect(row?.wait).toBeGreaterThan(28);
      expect(row?.last_error).toMatch(/30 s/);
      await syncDue(suite.db, crm);
      expect(fake.events).toHaveLength(0);
    });

    it('stops when the key is refused, flags the integration, and resumes when a working key is saved', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      // The key is revoked in Follow Up Boss: it now answers 401 to it.
      await suite.db.query('UPDATE fub_integrations SET api_key_encrypted = $2 WHERE agent_id = $1', [
        agent.id,
        encrypt('revoked-key-0000000000', SECRET, FUB_API_KEY_CONTEXT),
      ]);
      const first = await visitorLead(agent);
      const second = await visitorLead(agent);
      expect([first.answer.fub_sync_status, second.answer.fub_sync_status]).toEqual(['failed', 'failed']);
      const flagged = await expectJson(await client.get('/api/agents/me/integrations/fub'), 200, integrationAnswer);
      expect(flagged.integration.attention).toMatch(/Authentication is required/);
      expect(flagged.integration.leads.stopped).toBe(2);
      await makeDue(agent);
      await syncDue(suite.db, crm);
      expect(fake.events).toHaveLength(0);

      const fixed = await expectJson(await connect(client), 200, savedAnswer);
      expect(fixed.integration).toMatchObject({ attention: null, leads: { stopped: 0, waiting: 2 } });
      await syncDue(suite.db, crm);
      // Both accepted; the second is the same person to FUB (same phone and names): 200.
      expect(fake.events.map((event) => event.status)).toEqual([201, 200]);
    });

    it('is accepted but ignored when the source’s lead flow is archived (204), and shown as such', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      fake.archiveSource('Long Island Net Proceeds');
      const { answer } = await visitorLead(agent);
      expect(answer.fub_sync_status).toBe('failed');
      const sync = await syncOf(client, answer.lead.id);
      expect(sync?.status).toBe('ignored');
      expect(sync?.last_error).toMatch(/archived/);
      expect(fake.people()).toHaveLength(0);
    });

    it('goes on after the answer when Follow Up Boss is slow, and is recorded once it ends', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      fake.trouble({ kind: 'slow', ms: 2_500 }, 1);
      const { answer } = await visitorLead(agent);
      expect(answer.fub_sync_status).toBe('failed');
      await suite.settle();
      expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'synced', attempts: 1 });
      expect(fake.events).toHaveLength(1);
    });

    it('is retried after a dropped connection', async () => {
      const { agent, client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      fake.trouble({ kind: 'drop' }, 1);
      const { answer } = await visitorLead(agent);
      expect(answer.fub_sync_status).toBe('failed');
      expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'queued' });
      await makeDue(agent);
      await syncDue(suite.db, crm);
      expect(await syncOf(client, answer.lead.id)).toMatchObject({ status: 'synced', attempts: 2 });
    });
  });

  describe('the sync controls', () => {
    const syncLeads = (client: Client, body: unknown) => client.post('/api/leads/sync-fub', body);

    it('send the agent’s older leads once; a synced lead is never sent again', async () => {
      const { agent, client } = await agentWithClient();
      const older = await visitorLead(agent);
      const oldest = await visitorLead(agent, { address: null });
      await expectJson(await connect(client), 200, savedAnswer);
      const ids = [older.answer.lead.id, oldest.answer.lead.id];
      const first = await expectJson(await syncLeads(client, { lead_ids: ids }), 200, leadSyncAnswerSchema);
      expect(first.synced).toBe(2);
      expect(fake.events).toHaveLength(2);
      const again = await expectJson(await syncLeads(client, { lead_ids: ids }), 200, leadSyncAnswerSchema);
      expect(again.results.map((result) => result.status)).toEqual(['synced', 'synced']);
      expect(fake.events).toHaveLength(2);
    });

    it("tell a detailed estimate's own figures", async () => {
      const { agent, client } = await agentWithClient();
      const made = await suite.api.postJson('/api/estimates', {
        agent_slug: agent.slug,
        sale_price: '780,200',
        mortgage_payoff: 450000,
        details: { seller_concessions: 10000, title_closer_pickup: false },
      });
      const { uuid } = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await made.json()).estimate;
      const lead = await expectJson(
        await suite.client().post('/api/leads', {
          agent_id: agent.id,
          first_name: 'Dana',
          last_name: 'Lopez',
          email: `dana.${uuid.slice(0, 8)}@example.com`,
          phone: '(631) 555-0142',
          consent_marketing: true,
          estimate_uuid: uuid,
        }),
        201,
        leadAnswer,
      );
      await expectJson(await connect(client), 200, savedAnswer);
      await expectJson(await syncLeads(client, { lead_ids: [lead.lead.id] }), 200, leadSyncAnswerSchema);
      const message = z.object({ message: z.string() }).parse(fake.events[0]?.body).message;
      // The quick net $279,341 less the $10,000 credited to the buyer.
      expect(message).toContain('Seller concessions: -$10,000.00');
      expect(message).toContain('Estimated net to seller: $269,341.00');
    });

    it('answer 404 for another agent’s lead and send nothing', async () => {
      const { client } = await agentWithClient();
      await expectJson(await connect(client), 200, savedAnswer);
      const other = await agentWithClient();
      const theirs = await visitorLead(other.agent);
      await expectError(await syncLeads(client, { lead_ids: [theirs.answer.lead.id] }), 404, 'Lead not found');
      await expectError(await client.get(`/api/leads/${theirs.answer.lead.id}/crm`), 404, 'Lead not found');
      expect(fake.events).toHaveLength(0);
    });

    it('need an active integration with a key, a session, and a proper list', async () => {
      const { agent, client } = await agentWithClient();
      const lead = await visitorLead(agent);
      await expectError(await syncLeads(client, { lead_ids: [lead.answer.lead.id] }), 409);
      await expectError(await suite.client().post('/api/leads/sync-fub', { lead_ids: [lead.answer.lead.id] }), 401);
      await expectError(await syncLeads(client, { lead_ids: [] }), 400, 'Choose the leads to sync');
      await expectError(await syncLeads(client, { lead_ids: ['1'] }), 400);
      await expectError(
        await syncLeads(client, { lead_ids: Array.from({ length: 101 }, (_, index) => index + 1) }),
        400,
      );
      await expectError(await syncLeads(client, {}), 400);
      await expectError(
        await client.request('/api/leads/sync-fub', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: suite.api.origin },
          body: '{"lead_ids":[',
        }),
        400,
      );
      await expectError(await client.get('/api/leads/abc/crm'), 400);
      expect(fake.events).toHaveLength(0);
    });
  });

  it('a burst of 200 leads while Follow Up Boss answers 503: every visitor thanked, every lead synced exactly once', async () => {
    const { agent, client } = await agentWithClient();
    await expectJson(await connect(client), 200, savedAnswer);
    const estimate = await createEstimate(suite.api, agent.slug);
    fake.down(503);
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const response = await suite.client().post('/api/leads', {
          agent_id: agent.id,
          first_name: 'Burst',
          last_name: `Visitor`,
          email: `burst.${index}.${estimate.uuid.slice(0, 6)}@example.com`,
          phone: `631555${String(index).padStart(4, '0')}`,
          consent_marketing: true,
          estimate_uuid: estimate.uuid,
        });
        return expectJson(response, 201, leadAnswer);
      }),
    );
    expect(answers.every((answer) => answer.fub_sync_status === 'failed')).toBe(true);
    await suite.settle();
    fake.up();
    for (let run = 0; run < 5; run += 1) {
      await makeDue(agent);
      await syncDue(suite.db, crm);
    }
    const [stored] = await suite.db.query<{ leads: number; synced: number }>(
      `SELECT count(*)::int AS leads, count(*) FILTER (WHERE synced_to_fub)::int AS synced FROM leads WHERE agent_id = $1`,
      [agent.id],
    );
    expect(stored).toEqual({ leads: 200, synced: 200 });
    // This agent's visitors only (another test's lead may come due meanwhile).
    const emailOf = (body: unknown) =>
      z.object({ person: z.object({ emails: z.array(z.object({ value: z.string() })) }) }).parse(body).person.emails[0]
        ?.value ?? '';
    const accepted = fake.events.filter(
      (event) => (event.status === 201 || event.status === 200) && emailOf(event.body).startsWith('burst.'),
    );
    expect(accepted).toHaveLength(200);
    expect(new Set(accepted.map((event) => emailOf(event.body))).size).toBe(200);
  });
});
