/**
 * Follow Up Boss end to end over HTTP, on both backends, against the local fake
 * (tests/fakes/fub.ts): connecting an agent's account: the integration card (saving, checking and
 * refusing a key, turning it off and on, disconnecting, whose it is).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { isEncrypted } from '../../src/platform/encryption.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { SECRET, integrationAnswer, savedAnswer, useFubSyncSuite } from '../support/fub-sync-suite.ts';

const fake = await startFakeFub();
const crm = { client: fubClient(fake.url), secret: SECRET };
afterAll(() => fake.close());

describe.each(BACKENDS)('Follow Up Boss on %s', (backend) => {
  const { suite, agentWithClient, connect, visitorLead } = useFubSyncSuite(backend, fake, crm);

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
});
