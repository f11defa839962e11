/**
 * What the fuzz (fuzz.test.ts) found, each kept as the request that found it, on both backends:
 * - a NUL character (U+0000) in any text answered 500 (PostgreSQL cannot store it in text): now
 *   400 naming the field, and nothing saved (found again, as a stack overflow on a body nested
 *   5,000 deep, when the first fix walked the body recursively);
 * - a Follow Up Boss system name or key with a line break or non-ASCII characters answered 502
 *   "Could not reach Follow Up Boss" (not a valid HTTP header value): now 400 naming the field;
 * - three answers carried fields their documented schema did not allow (the document was wrong).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { openApiDocument } from '../../src/app/openapi.server.ts';
import { apiOperations } from '../../src/app/api-groups.server.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { operationsOf } from '../support/fuzz/requests.ts';

const fub = await startFakeFub();
afterAll(() => fub.close());

const NUL_MESSAGE = 'Remove the invisible NUL character (U+0000) from this text';
const json = z.record(z.string(), z.unknown());
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const operations = operationsOf(openApiDocument(await apiOperations()));

describe.each(BACKENDS)('what the fuzz found, on %s', (backend) => {
  const suite = useAuthSuite(backend, 'fuzz-findings', {
    crm: { client: fubClient(fub.url), secret: 'fuzz-findings-encryption-secret-0123456789' },
  });
  const admin = async (): Promise<Client> => clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);

  it('PUT /api/seo/settings with a NUL character in a field answers 400 naming it, and saves nothing', async () => {
    const client = await admin();
    const before = await (await client.get('/api/seo/settings')).text();
    const body = {
      seo_title: 'Long Island net proceeds',
      seo_description: 'What a seller \u0000 walks away with',
      og_title: null,
      og_description: null,
      og_url: null,
      twitter_card: 'summary',
      seo_keywords: null,
    };
    const answer = await expectError(await client.send('PUT', '/api/seo/settings', body), 400, NUL_MESSAGE);
    expect(answer.fields).toEqual({ seo_description: NUL_MESSAGE });
    expect(await (await client.get('/api/seo/settings')).text()).toBe(before);
  });

  it('PUT /api/admin/site-content with a NUL character in a claim answers 400 naming it, and saves nothing', async () => {
    const client = await admin();
    const { content } = await expectJson(
      await client.get('/api/admin/site-content'),
      200,
      z.object({ content: z.object({ claims: z.array(json) }).loose() }),
    );
    const [first, ...rest] = content.claims;
    const broken = { ...content, claims: [{ ...first, label: 'Sellers\u0000 helped' }, ...rest] };
    const answer = await expectError(await client.send('PUT', '/api/admin/site-content', broken), 400, NUL_MESSAGE);
    expect(answer.fields).toEqual({ 'claims.0.label': NUL_MESSAGE });
    const after = await expectJson(await client.get('/api/admin/site-content'), 200, z.object({ content: json }));
    expect(after.content).toEqual(content);
  });

  it('a JSON body nested 5,000 deep answers 400, with a NUL at the bottom too (not 500: the stack held)', async () => {
    const nested = (inner: string) => `${'{"a":'.repeat(5000)}${inner}${'}'.repeat(5000)}`;
    const deep = await suite.client().send('POST', '/api/auth/reset-password', nested('1'));
    expect((await expectError(deep, 400)).fields).toHaveProperty('token');
    const nul = await suite.client().send('POST', '/api/auth/reset-password', nested('"\\u0000"'));
    expect(Object.keys((await expectError(nul, 400, NUL_MESSAGE)).fields)).toEqual([Array(5000).fill('a').join('.')]);
  });

  it('PATCH /api/agents/me/integrations/fub with a line break in the system key answers 400 naming it', async () => {
    const client = await clientAs(suite, (await createAgent(suite.db)).id);
    const message = 'System key may use only letters, digits, spaces and punctuation';
    const answer = await expectError(
      await client.send('PATCH', '/api/agents/me/integrations/fub', {
        api_key: fub.apiKey,
        system: 'OurSite',
        system_key: 'key\r\nX-Injected: 1',
        active: true,
      }),
      400,
      message,
    );
    expect(answer.fields).toEqual({ system_key: message });
    const system = 'System name may use only letters, digits, spaces and punctuation';
    await expectError(
      await client.send('PATCH', '/api/agents/me/integrations/fub', {
        api_key: fub.apiKey,
        system: 'Café',
        system_key: 'k',
        active: true,
      }),
      400,
      system,
    );
  });

  it('an id beyond PostgreSQL’s integer answers 400 naming it, in a body and in every integer path parameter (audit finding 13: it was a 500)', async () => {
    const tooLarge = [2_147_483_648, 8_589_934_592, 99_999_999_999];
    for (const agentId of tooLarge) {
      const lead = await suite.client().send('POST', '/api/leads', {
        agent_id: agentId,
        first_name: 'Eve',
        last_name: 'Two',
        email: 'eve2@example.com',
        phone: '5165550198',
        consent_marketing: true,
      });
      expect((await expectError(lead, 400)).fields).toEqual({ agent_id: 'Agent id is not valid' });
    }
    const client = await admin();
    const sync = await client.send('POST', '/api/leads/sync-fub', { lead_ids: [8_589_934_592] });
    expect(Object.keys((await expectError(sync, 400)).fields)).toEqual(['lead_ids.0']);
    // Every operation with an integer in its path, the id too large (other parameters made valid).
    const withIds = operations.filter((operation) =>
      operation.pathParams.some((parameter) => parameter.schema.type === 'integer'),
    );
    expect(withIds.map((operation) => operation.key)).toEqual(
      expect.arrayContaining([
        'GET /api/leads/:id/crm',
        'GET /api/admin/leads/:id/timeline',
        'PATCH /api/admin/agents/:id',
        'DELETE /api/admin/agents/:id',
      ]),
    );
    for (const operation of withIds) {
      for (const id of tooLarge) {
        const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
          operation.pathParams.find((parameter) => parameter.name === name)?.schema.type === 'integer'
            ? String(id)
            : '3f1c2b9e-8d4a-4c1b-9e2f-0a1b2c3d4e5f',
        );
        const response = await client.send(operation.method, path, operation.method === 'GET' ? undefined : {});
        expect([400, 404], `${operation.method} ${path}`).toContain(response.status);
        await response.arrayBuffer();
      }
    }
  });

  /** The answer of `key` against its documented success schema. */
  function expectDocumented(key: string, answer: unknown): void {
    const schema = operations.find((operation) => operation.key === key)?.success.schema;
    if (!schema) throw new Error(`${key} documents no JSON answer`);
    const validate = ajv.compile(schema);
    expect(validate(answer), `${key}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }

  it('DELETE and PATCH /api/agents/me/integrations/fub, GET /api/seo/settings and PUT /api/admin/net-sheet-fees answer as documented', async () => {
    const client = await admin();
    const saved = await client.send('PATCH', '/api/agents/me/integrations/fub', { api_key: fub.apiKey, active: true });
    expectDocumented('PATCH /api/agents/me/integrations/fub', await expectJson(saved, 200, json));
    const removed = await client.send('DELETE', '/api/agents/me/integrations/fub');
    expectDocumented('DELETE /api/agents/me/integrations/fub', await expectJson(removed, 200, json));
    expectDocumented('GET /api/seo/settings', await expectJson(await client.get('/api/seo/settings'), 200, json));
    const { fees, version } = await expectJson(
      await client.get('/api/admin/net-sheet-fees'),
      200,
      z.object({ fees: json, version: z.number() }),
    );
    const put = await client.send('PUT', '/api/admin/net-sheet-fees', { ...fees, version });
    expectDocumented('PUT /api/admin/net-sheet-fees', await expectJson(put, 200, json));
  });
});
