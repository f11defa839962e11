/**
 * Every operation of the OpenAPI document, fuzzed over real HTTP against the real app on both
 * backends (tests/support/fuzz/requests.ts makes the cases from the document's schemas; the
 * authorization matrix's suite gives the fixtures and the outside fakes). Every answer, whatever
 * was sent: below 500; an error is JSON in the API's one shape; no stack trace, path, SQL or
 * internal name anywhere; a success is the documented status and shape, and its JSON request was
 * one the document accepts; a refused write changed no table. Nothing logged as unexpected.
 *
 * Budget: FUZZ_RUNS cases per backend (npm test: 2,400 on PGlite, 800 on PostgreSQL, seed 13),
 * spread over the operations; FUZZ_SEED makes a run again (`npm run fuzz` runs 50,000 from a new
 * seed and prints it).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import { openApiDocument } from '../../src/app/openapi.server.ts';
import { apiOperations } from '../../src/app/api-groups.server.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { apiErrorSchema } from '../support/api-suite.ts';
import { IP_HEADER, SESSION_COOKIE, TEST_AUTH } from '../support/auth-suite.ts';
import { BACKENDS, type Backend } from '../support/backends.ts';
import { casesOf, describeCase, operationsOf, type Fixtures, type FuzzCase } from '../support/fuzz/requests.ts';
import { leaks } from '../support/fuzz/schema-arbitrary.ts';
import { png } from '../support/images.ts';
import { PASSWORD, useMatrixSuite } from './authorization-matrix.ts';

// npm test runs the same cases every time (a CI run goes red only for a change); npm run fuzz draws a new seed.
const SEED = Number(process.env.FUZZ_SEED ?? 13);
const BUDGET: Record<Backend, number> = {
  pglite: Number(process.env.FUZZ_RUNS ?? 2400),
  postgres: Number(process.env.FUZZ_RUNS ?? 800),
};
const ONLY = process.env.FUZZ_BACKENDS?.split(',') ?? [...BACKENDS];
/** A refused write is checked against the digest of every table on one write in this many (npm test: all). */
const DIGEST_EVERY = Number(process.env.FUZZ_DIGEST_EVERY ?? 1);

/**
 * Deleting an agent removes a party the cases after it may sign in as (it once removed agent A, and every
 * agent's operation after it failed to sign in): it runs last, whatever the document's order.
 */
const REMOVES_A_PARTY = 'DELETE /api/admin/agents/:id';
const documented = operationsOf(openApiDocument(await apiOperations()));
const operations = [
  ...documented.filter((operation) => operation.key !== REMOVES_A_PARTY),
  ...documented.filter((operation) => operation.key === REMOVES_A_PARTY),
];
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const successOf = new Map(
  operations.map((operation) => [operation.key, operation.success.schema && ajv.compile(operation.success.schema)]),
);
const jsonBodyOf = new Map(
  operations.map((operation) => {
    const body = operation.body['application/json'];
    return [operation.key, body && body.format !== 'binary' ? ajv.compile(body) : undefined];
  }),
);

/** Media types answered as files: not text to search for leaks. */
const BINARY = /^(application\/pdf|image\/)/;
/** A few client addresses: per-IP limits apply to them (loopback has none), so their 429s get checked too. */
const ADDRESSES = ['10.201.0.1', '10.201.0.2'];

const fub = await startFakeFub();
afterAll(() => fub.close());

describe.each(BACKENDS.filter((backend) => ONLY.includes(backend)))('the fuzz on %s', (backend) => {
  const { suite, world, digest, signedInAs, settle } = useMatrixSuite(backend, 'fuzz', fub);
  const runs = Math.max(1, Math.ceil(BUDGET[backend] / operations.length));
  let cases = 0;
  /** How many answers of each status, for the closing line. */
  const statuses = new Map<number, number>();
  let agentSlug = '';
  let leadId = 0;
  let endpointId = 0;
  let siteEndpointId = 0;
  let pngBytes = new Uint8Array();

  const fixtures: Fixtures = {
    agentSlug: () => agentSlug,
    agentId: () => world().a.id,
    agentEmail: () => world().a.email,
    password: () => PASSWORD,
    estimateUuid: () => world().a.estimateUuid,
    offersUuid: () => world().a.offersUuid,
    leadId: () => leadId,
    spareAgentId: () => world().b.id,
    imageFile: () => world().imageFile,
    unsubscribeToken: () => unsubscribeSigner(TEST_AUTH.sessionKey).token('robin@example.com'),
    endpointId: () => endpointId,
    siteEndpointId: () => siteEndpointId,
    images: {
      get png() {
        return pngBytes;
      },
    },
  };

  beforeAll(async () => {
    pngBytes = new Uint8Array(await png(40, 40));
    agentSlug = world().a.slug;
    leadId = world().a.leadId;
    // A webhook endpoint of A's and one of the site's, for the cases that name one (at a closed port
    // of this machine's loopback: a test event is refused there at once).
    const endpoint = { url: 'http://127.0.0.1:9/hook', events: ['lead.created'] };
    await (await signedInAs(world().a.id)).post('/api/webhooks', endpoint);
    await (await signedInAs(world().admin.id)).post('/api/admin/webhooks', endpoint);
    await refreshFixtures();
    console.log(`fuzz on ${backend}: seed ${SEED}, ${runs} cases per operation (FUZZ_SEED=${SEED} runs it again)`);
  });
  afterAll(() => {
    const answered = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
    console.log(`fuzz on ${backend}: ${cases} cases, seed ${SEED}; answers ${answered.join(', ')}`);
  });

  /** What the cases name of A's may have changed (a profile saved with a new slug, leads cleared). */
  async function refreshFixtures(): Promise<void> {
    sessions.clear();
    const [row] = await suite.db.query<{
      slug: string;
      lead: number | null;
      endpoint: number | null;
      site_endpoint: number | null;
    }>(
      `SELECT slug, (SELECT max(id) FROM leads WHERE agent_id = $1) AS lead,
              (SELECT max(id) FROM webhook_endpoints WHERE agent_id = $1) AS endpoint,
              (SELECT max(id) FROM webhook_endpoints WHERE agent_id IS NULL) AS site_endpoint
         FROM agents WHERE id = $1`,
      [world().a.id],
    );
    if (row) agentSlug = row.slug;
    if (row?.lead) leadId = row.lead;
    if (row?.endpoint) endpointId = row.endpoint;
    if (row?.site_endpoint) siteEndpointId = row.site_endpoint;
  }

  /** Session tokens by agent id, signed again after every accepted write (one may end the sessions). */
  const sessions = new Map<number, string>();
  async function sessionOf(agentId: number): Promise<string> {
    const known = sessions.get(agentId);
    if (known !== undefined) return known;
    const session = (await signedInAs(agentId)).session ?? '';
    sessions.set(agentId, session);
    return session;
  }

  async function send(fuzzCase: FuzzCase, address: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { origin: suite.api.origin, ...fuzzCase.headers };
    if (address) headers[IP_HEADER] = address;
    if (fuzzCase.caller !== 'signed out') {
      const party = fuzzCase.caller === 'admin' ? world().admin : world().a;
      headers.cookie = `${SESSION_COOKIE}=${await sessionOf(party.id)}`;
    }
    const body = fuzzCase.body instanceof Uint8Array ? new Uint8Array(fuzzCase.body) : fuzzCase.body;
    return suite.api.fetch(fuzzCase.path, { method: fuzzCase.method, headers, body, redirect: 'manual' });
  }

  it.each(operations.map((operation) => [operation.key, operation] as const))(
    '%s',
    async (key, operation) => {
      const index = operations.indexOf(operation);
      const validateSuccess = successOf.get(key);
      const validateBody = jsonBodyOf.get(key);
      const property = fc.asyncProperty(
        casesOf(operation, fixtures),
        fc.nat(ADDRESSES.length * 10 - 1),
        fc.nat(DIGEST_EVERY - 1),
        async (fuzzCase, pick, digestPick) => {
          const address = ADDRESSES[pick];
          await settle();
          const write = fuzzCase.method !== 'GET';
          const before = write && digestPick === 0 ? await digest() : undefined;
          const response = await send(fuzzCase, address);
          const bytes = Buffer.from(await response.arrayBuffer());
          await settle();
          cases += 1;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const type = response.headers.get('content-type') ?? '';
          const text = BINARY.test(type) ? '' : bytes.toString('utf8');
          const report = `${describeCase(fuzzCase)}${address ? `\nfrom ${address}` : ''}\nanswered ${response.status} ${type}: ${text.slice(0, 600)}`;
          expect(suite.logged.splice(0), `logged an unexpected error\n${report}`).toEqual([]);
          expect(response.status, report).toBeLessThan(500);
          expect(leaks(text), `a leak\n${report}`).toBe(false);
          if (response.status >= 400) {
            expect(type, report).toMatch(/^application\/json\b/);
            expect(apiErrorSchema.safeParse(JSON.parse(text)).success, report).toBe(true);
            if (before !== undefined)
              expect(await digest(), `a refused write changed a table\n${report}`).toEqual(before);
            return;
          }
          expect(response.status, report).toBe(operation.success.status);
          const media = operation.success.media ?? '';
          if (media === 'application/json') {
            expect(type, report).toMatch(/^application\/json\b/);
            if (validateSuccess)
              expect(validateSuccess(JSON.parse(text)), `${report}\n${JSON.stringify(validateSuccess.errors)}`).toBe(
                true,
              );
          } else if (media) expect(type, report).toMatch(new RegExp(`^${media.replace('*', '')}`));
          if (validateBody && fuzzCase.json !== undefined)
            expect(validateBody(fuzzCase.json), `accepted a body the document refuses\n${report}`).toBe(true);
          if (write) await refreshFixtures();
        },
      );
      await fc.assert(property, { numRuns: runs, seed: SEED + index, endOnFailure: true });
    },
    Math.max(60_000, runs * 2_000),
  );
});
