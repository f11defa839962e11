/**
 * Follow Up Boss end to end over HTTP, on both backends, against the local fake
 * (tests/fakes/fub.ts): the dashboard's sync controls (older leads sent once, never twice once
 * synced), and a burst of leads while Follow Up Boss answers 503.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { syncDue } from '../../src/features/crm/public/crm-sync.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { leadSyncAnswerSchema } from '../../src/features/crm/public/lead-sync.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { type Client } from '../support/auth-suite.ts';
import { createEstimate } from '../support/estimates.ts';
import { BACKENDS } from '../support/backends.ts';
import { SECRET, savedAnswer, leadAnswer, useFubSyncSuite } from '../support/fub-sync-suite.ts';

const fake = await startFakeFub();
const crm = { client: fubClient(fake.url), secret: SECRET };
afterAll(() => fake.close());

describe.each(BACKENDS)('Follow Up Boss on %s', (backend) => {
  const { suite, agentWithClient, connect, visitorLead, makeDue } = useFubSyncSuite(backend, fake, crm);

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
