/**
 * Follow Up Boss end to end over HTTP, on both backends, against the local fake
 * (tests/fakes/fub.ts): each new lead sent as a Seller Inquiry, every failure retried or stopped
 * as the fact sheet says (503, Retry-After, a refused key, an archived source, slow, dropped).
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { syncDue } from '../../src/features/crm/public/crm-sync.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { FUB_API_KEY_CONTEXT } from '../../src/features/crm/public/crm-sync.server.ts';
import { encrypt } from '../../src/platform/encryption.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { SECRET, integrationAnswer, savedAnswer, useFubSyncSuite } from '../support/fub-sync-suite.ts';

const fake = await startFakeFub();
const crm = { client: fubClient(fake.url), secret: SECRET };
afterAll(() => fake.close());

describe.each(BACKENDS)('Follow Up Boss on %s', (backend) => {
  const { suite, agentWithClient, connect, visitorLead, syncOf, makeDue } = useFubSyncSuite(backend, fake, crm);

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
});
