/**
 * The authorization matrix (authorization-matrix.ts) on both backends: one test per cell, named
 * "METHOD path as who → status", against one set of fixtures per backend. Also: the matrix and the
 * access table (src/app/route-access.ts) name exactly the routes the app serves, each row
 * answers as its access says (public: alike for all; agent: 401 signed out; admin: 401 and 403
 * to agents), and a forged or expired session is refused like no session. A refused write leaves
 * every table as it was (rate-limit counters aside); no answer but A's own and an admin's reading
 * every agent's leads carries A's private data. A refused caller has no image decoded (finding 3).
 */
import { registeredRoutes } from '../support/registered-routes.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTE_ACCESS } from '../../src/app/route-access.ts';
import { workerPoolStats } from '../../src/platform/worker-pool.server.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { apiErrorSchema, expectError } from '../support/api-suite.ts';
import { forgeSession, type AuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { CALLERS, MATRIX, partyOf, useMatrixSuite, type Caller, type World } from './authorization-matrix.ts';

const fub = await startFakeFub();
afterAll(() => fub.close());

const splitKey = (key: string): [string, string] => {
  const [method = 'GET', path = ''] = key.split(' ');
  return [method, path];
};

const cells = Object.entries(MATRIX).flatMap(([key, row]) =>
  CALLERS.map((caller) => ({
    name: `${key} as ${caller} → ${row.expect[caller].status}`,
    key,
    caller,
  })),
);

const guarded = Object.keys(ROUTE_ACCESS).filter((key) => ROUTE_ACCESS[key] !== 'public');

describe.each(BACKENDS)('the authorization matrix on %s', (backend) => {
  const { suite, world: shared, makeWorld, digest, send, signedInAs, settle } = useMatrixSuite(backend, 'matrix', fub);

  /** Everything of an agent's that an agent route reads or changes, as text to compare. */
  const rowsOf = async (agentId: number) =>
    JSON.stringify(
      await suite.db.query(
        `SELECT (SELECT row_to_json(a) FROM agents a WHERE a.id = $1) AS agent,
                (SELECT row_to_json(s) FROM agent_settings s WHERE s.agent_id = $1) AS settings,
                (SELECT json_agg(l ORDER BY l.id) FROM leads l WHERE l.agent_id = $1) AS leads,
                (SELECT row_to_json(i) FROM fub_integrations i WHERE i.agent_id = $1) AS fub,
                (SELECT json_agg(s ORDER BY s.id) FROM crm_syncs s WHERE s.agent_id = $1) AS syncs`,
        [agentId],
      ),
    );

  const clientOf = (w: World, caller: Caller, s: AuthSuite): Promise<Client> | Client =>
    caller === 'signed out' ? s.client() : signedInAs(partyOf(w, caller).id);

  it('has one row for every route the app serves and the access table lists, and no other', async () => {
    const served = await registeredRoutes(suite.db);
    expect(Object.keys(ROUTE_ACCESS).sort()).toEqual(served);
    expect(Object.keys(MATRIX).sort()).toEqual(served);
  });

  it('expects of each route what its access says', () => {
    for (const [key, row] of Object.entries(MATRIX)) {
      const statuses = CALLERS.map((caller) => row.expect[caller].status);
      const access = ROUTE_ACCESS[key];
      if (access === 'public') expect(new Set(statuses).size, key).toBe(1);
      else expect(statuses[0], key).toBe(401);
      if (access === 'admin') expect(statuses.slice(1, 3), key).toEqual([403, 403]);
      if (access === 'agent') expect(statuses[1], key).toBeLessThan(300);
    }
  });

  it.each(cells)('$name', async ({ key, caller }) => {
    const row = MATRIX[key];
    if (!row) throw new Error(`no row ${key}`);
    const [method] = splitKey(key);
    const w = row.fresh ? await makeWorld() : shared();
    const expected = row.expect[caller];
    const request = await row.request(w, caller, suite);
    const client = await clientOf(w, caller, suite);
    const before = method === 'GET' ? undefined : await digest();
    const imagesDecoded = workerPoolStats().completed('image');
    // On an agent route, whatever anyone but A does leaves A's rows alone.
    const rowsOfA = ROUTE_ACCESS[key] === 'agent' && caller !== 'agent A' ? await rowsOf(w.a.id) : undefined;
    const response = await send(client, method, request);
    const text = await response.text();
    await settle();
    expect(response.status, text).toBe(expected.status);
    if (expected.status >= 400) apiErrorSchema.parse(JSON.parse(text));
    const shown = expected.shows?.(w) ?? [];
    for (const part of shown) expect(text, 'what the answer must show').toContain(part);
    if (caller !== 'agent A' && !shown.includes(w.a.secret)) {
      expect(text, 'agent A’s private data in the answer').not.toContain(w.a.secret);
    }
    if (before && expected.status >= 400) expect(await digest(), 'a refused write changed a table').toEqual(before);
    // Finding 3 (2026-11-26): a caller refused 401 or 403 has the server decode nothing it sent.
    if (expected.status === 401 || expected.status === 403) {
      expect(workerPoolStats().completed('image'), 'an image decoded for a refused caller').toBe(imagesDecoded);
    }
    if (rowsOfA !== undefined) expect(await rowsOf(w.a.id), 'agent A’s rows changed').toBe(rowsOfA);
    // A public read answers a signed-in caller exactly what it answers anyone.
    if (ROUTE_ACCESS[key] === 'public' && method === 'GET' && caller !== 'signed out') {
      const anyone = await send(suite.client(), method, request);
      expect(await anyone.text(), 'the answer signed out').toBe(text);
    }
  });

  it.each(guarded)('%s answers 401 with a forged session and with an expired one', async (key) => {
    const [method, pattern] = splitKey(key);
    const path = pattern.replace(/:\w+/g, '1');
    const forged = await forgeSession({ key: new TextEncoder().encode('x'.repeat(40)), sub: '1', ver: 1 });
    const expired = await forgeSession({ sub: '1', ver: 1, issuedAt: 1_000_000, expiresAt: 1_000_060 });
    for (const session of [forged, expired]) {
      const client = suite.client();
      client.session = session;
      await expectError(
        await send(client, method, method === 'GET' ? { path } : { path, json: {} }),
        401,
        'Please log in',
      );
    }
  });
});
