/**
 * The authorization matrix (authorization-matrix.ts) on both backends: one test per cell, named
 * "METHOD path as who → status", against one set of fixtures per backend. Also: the matrix and the
 * access table (src/server/route-access.ts) name exactly the routes the app serves, each row
 * answers as its access says (public: alike for all; agent: 401 signed out; admin: 401 and 403
 * to agents), and a forged or expired session is refused like no session. A refused write leaves
 * every table as it was (rate-limit counters aside); no answer but A's own and an admin's reading
 * every agent's leads carries A's private data.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { registeredRoutes } from '../support/registered-routes.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hashPassword } from '../../src/features/auth/passwords.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { hookBuilder, siteBuilds, type SiteBuilds } from '../../src/features/site-build/site-build.server.ts';
import { ROUTE_ACCESS } from '../../src/server/route-access.ts';
import { startFakeBuildHook, type FakeBuildHook } from '../fakes/build-hook.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { apiErrorSchema, expectError, expectJson } from '../support/api-suite.ts';
import {
  clientAs,
  forgeSession,
  IP_HEADER,
  SESSION_COOKIE,
  useAuthSuite,
  type AuthSuite,
  type Client,
} from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { dataUrl, png } from '../support/images.ts';
import {
  CALLERS,
  makeParty,
  MATRIX,
  partyOf,
  PASSWORD,
  type Caller,
  type CellRequest,
  type World,
} from './authorization-matrix.ts';

const fub = await startFakeFub();
const crm = { client: fubClient(fub.url), secret: 'matrix-test-encryption-secret-0123456789' };
const SAMPLE_ZHVI = readFileSync('data/sample/zhvi.csv', 'utf8');
/** Refresh now reads the sample ZHVI file as if downloaded. */
const zhviFeed = {
  origin: 'https://feeds.example/zhvi.csv',
  open: () => Promise.resolve(Readable.from([SAMPLE_ZHVI])),
};
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
  let hook: FakeBuildHook;
  let builds: SiteBuilds | undefined;
  // The app is made before the hook exists: its builds go to the hook through this.
  const current: SiteBuilds = {
    mode: 'hook',
    request: (trigger, requestedBy) =>
      builds ? builds.request(trigger, requestedBy) : Promise.reject(new Error('no builds')),
    idle: () => builds?.idle() ?? Promise.resolve(),
  };
  const suite = useAuthSuite(backend, 'matrix', {
    crm,
    siteBuilds: current,
    marketFeeds: () => ({ zhvi: zhviFeed }),
  });

  let world: World;
  let passwordHash: string;
  /** One statement reading a digest of every table but the rate-limit counters. */
  let digestSql: string;

  const signedInAs = (agentId: number) => clientAs(suite, agentId);
  const connect = async (client: Client) => {
    const response = await send(client, 'PATCH', {
      path: '/api/agents/me/integrations/fub',
      json: { api_key: fub.apiKey, active: true },
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  /** Agent A, agent B and an admin, each with their own lead, estimate, offers and CRM connection. */
  async function makeWorld(): Promise<World> {
    const a = await makeParty(suite, signedInAs, connect, passwordHash);
    const b = await makeParty(suite, signedInAs, connect, passwordHash);
    const admin = await makeParty(suite, signedInAs, connect, passwordHash, true);
    const asA = await signedInAs(a.id);
    const photo = await expectJson(
      await send(asA, 'POST', { path: '/api/upload/profile-photo', json: { imageData: dataUrl(await png(90, 90)) } }),
      200,
      z.object({ profile: z.object({ profile_photo: z.string() }) }),
    );
    const asAdmin = await signedInAs(admin.id);
    const read = async (path: string) => {
      const response = await asAdmin.get(path);
      expect(response.status, path).toBe(200);
      return z.record(z.string(), z.unknown()).parse(await response.json());
    };
    const mailgun = z
      .record(z.string(), z.unknown())
      .parse((await read('/api/agents/me/integrations/mailgun')).settings);
    return {
      a,
      b,
      admin,
      imageFile: photo.profile.profile_photo.split('/').pop() ?? '',
      site: {
        content: (await read('/api/admin/site-content')).content,
        fees: (await read('/api/admin/net-sheet-fees')).fees,
        seo: (await read('/api/seo/settings')).settings,
        mailgun: Object.fromEntries(
          ['mailgun_domain', 'mailgun_from_name', 'mailgun_from_email'].map((field) => [field, mailgun[field] ?? '']),
        ),
      },
    };
  }

  beforeAll(async () => {
    hook = await startFakeBuildHook();
    builds = siteBuilds(suite.db, hookBuilder(hook.url));
    passwordHash = await hashPassword(PASSWORD);
    world = await makeWorld();
    const tables = await suite.db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'rate_limits' ORDER BY 1`,
    );
    digestSql = `SELECT ${tables
      .map(
        ({ name }) =>
          `(SELECT md5(coalesce(string_agg(md5(t::text), ',' ORDER BY md5(t::text)), '')) FROM "${name}" t) AS "${name}"`,
      )
      .join(', ')}`;
  });
  afterAll(async () => {
    await builds?.idle();
    await hook.close();
  });

  const digest = async () => (await suite.db.query(digestSql))[0];

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

  /** A cell's request as a page sends it: this client's cookie and IP, the site's Origin. */
  function send(client: Client, method: string, request: CellRequest): Promise<Response> {
    const headers: Record<string, string> = { [IP_HEADER]: client.ip, origin: suite.api.origin };
    if (client.session !== undefined) headers.cookie = `${SESSION_COOKIE}=${client.session}`;
    let body: string | FormData | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.text) {
      headers['content-type'] = request.text.type;
      body = request.text.body;
    } else if (request.form) body = request.form;
    return suite.api.fetch(request.path, { method, headers, body, redirect: 'manual' });
  }

  const clientOf = (w: World, caller: Caller, s: AuthSuite): Promise<Client> | Client =>
    caller === 'signed out' ? s.client() : signedInAs(partyOf(w, caller).id);

  it('has one row for every route the app serves and the access table lists, and no other', () => {
    const served = registeredRoutes(suite.db);
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
    const w = row.fresh ? await makeWorld() : world;
    const expected = row.expect[caller];
    const request = await row.request(w, caller, suite);
    const client = await clientOf(w, caller, suite);
    const before = method === 'GET' ? undefined : await digest();
    // On an agent route, whatever anyone but A does leaves A's rows alone.
    const rowsOfA = ROUTE_ACCESS[key] === 'agent' && caller !== 'agent A' ? await rowsOf(w.a.id) : undefined;
    const response = await send(client, method, request);
    const text = await response.text();
    await builds?.idle();
    await suite.settle();
    expect(response.status, text).toBe(expected.status);
    if (expected.status >= 400) apiErrorSchema.parse(JSON.parse(text));
    const shown = expected.shows?.(w) ?? [];
    for (const part of shown) expect(text, 'what the answer must show').toContain(part);
    if (caller !== 'agent A' && !shown.includes(w.a.secret)) {
      expect(text, 'agent A’s private data in the answer').not.toContain(w.a.secret);
    }
    if (before && expected.status >= 400) expect(await digest(), 'a refused write changed a table').toEqual(before);
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
