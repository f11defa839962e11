/**
 * The matrix's suite: an auth suite whose app has the matrix's outside services (Follow Up Boss, a
 * fake build hook, the sample ZHVI file as the market feed), the world of parties its cells name,
 * a digest of every table, and a cell's request sent as a page sends it.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import * as z from 'zod';
import { hashPassword } from '../../../src/features/auth/public/passwords.server.ts';
import { fubClient } from '../../../src/features/crm/fub-client.server.ts';
import { hookBuilder, siteBuilds, type SiteBuilds } from '../../../src/features/site-build/site-build.server.ts';
import { startFakeBuildHook, type FakeBuildHook } from '../../fakes/build-hook.ts';
import type { FakeFub } from '../../fakes/fub.ts';
import { expectJson } from '../../support/api-suite.ts';
import {
  clientAs,
  IP_HEADER,
  SESSION_COOKIE,
  useAuthSuite,
  type AuthSuite,
  type Client,
} from '../../support/auth-suite.ts';
import type { Backend } from '../../support/backends.ts';
import { dataUrl, png } from '../../support/images.ts';
import type { CellRequest, World } from './cells.ts';
import { makeParty, PASSWORD } from './party.ts';

/** The sample ZHVI file: the market feed's download, and what the upload cells send. */
export const SAMPLE_ZHVI = readFileSync('data/sample/zhvi.csv', 'utf8');

/** Refresh now reads the sample ZHVI file as if downloaded. */
const zhviFeed = {
  origin: 'https://feeds.example/zhvi.csv',
  open: () => Promise.resolve(Readable.from([SAMPLE_ZHVI])),
};

/** An auth suite whose app has the matrix's outside services, and the world its requests name. */
export interface MatrixSuite {
  suite: AuthSuite;
  /** The world made once for the file. */
  world: () => World;
  /** A new world, for a request that destroys or changes what others read. */
  makeWorld: () => Promise<World>;
  /** One statement reading a digest of every table but the rate-limit counters. */
  digest: () => Promise<unknown>;
  /** A cell's request as a page sends it: this client's cookie and IP, the site's Origin. */
  send: (client: Client, method: string, request: CellRequest) => Promise<Response>;
  signedInAs: (agentId: number) => Promise<Client>;
  /** Waits for the work started after responses, site builds included. */
  settle: () => Promise<void>;
}

/**
 * The matrix's suite on `backend` (call inside a describe block): Follow Up Boss is `fub`, site
 * builds go to a fake build hook, market refreshes read the sample ZHVI file.
 */
export function useMatrixSuite(backend: Backend, label: string, fub: FakeFub): MatrixSuite {
  let hook: FakeBuildHook | undefined;
  let builds: SiteBuilds | undefined;
  // The app is made before the hook exists: its builds go to the hook through this.
  const current: SiteBuilds = {
    mode: 'hook',
    request: (trigger, requestedBy) =>
      builds ? builds.request(trigger, requestedBy) : Promise.reject(new Error('no builds')),
    idle: () => builds?.idle() ?? Promise.resolve(),
  };
  const suite = useAuthSuite(backend, label, {
    crm: { client: fubClient(fub.url), secret: 'matrix-test-encryption-secret-0123456789' },
    siteBuilds: current,
    marketFeeds: () => ({ zhvi: zhviFeed }),
  });

  let world: World | undefined;
  let passwordHash = '';
  let digestSql = '';

  const signedInAs = (agentId: number) => clientAs(suite, agentId);

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
        // The table as the screen saves it: with the version it was read at.
        fees: await read('/api/admin/net-sheet-fees').then(({ fees, version }) => ({
          ...z.record(z.string(), z.unknown()).parse(fees),
          version,
        })),
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
    await hook?.close();
  });

  return {
    suite,
    world: () => {
      if (!world) throw new Error('useMatrixSuite: used before beforeAll ran');
      return world;
    },
    makeWorld,
    digest: async () => (await suite.db.query(digestSql))[0],
    send,
    signedInAs,
    settle: async () => {
      await builds?.idle();
      await suite.settle();
    },
  };
}
