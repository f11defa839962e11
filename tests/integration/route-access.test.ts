/**
 * The access table (src/server/route-access.ts) against the app's real routes: every API route has
 * an entry, every entry a route, and every agent or admin route answers 401 signed out, with a
 * forged token and with an expired one, before its handler runs (so nothing is read or changed).
 * Each feature's own tests check another agent's data and admins route by route.
 */
import { describe, expect, it } from 'vitest';
import { ROUTE_ACCESS } from '../../src/server/route-access.ts';
import { expectError } from '../support/api-suite.ts';
import { clientAs, forgeSession, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { registeredRoutes } from '../support/registered-routes.ts';

/** A concrete path for a pattern: each :param becomes `1`. */
const concrete = (pattern: string) => pattern.replace(/:\w+/g, '1');

const guarded = Object.entries(ROUTE_ACCESS).filter(([, access]) => access !== 'public');
const adminOnly = Object.entries(ROUTE_ACCESS).filter(([, access]) => access === 'admin');

describe('the access table', () => {
  const suite = useAuthSuite('pglite', 'route-access');

  /** `method path` as the client, with an empty JSON object as the body of anything but a GET. */
  const call = (client: Client, method: string, path: string) =>
    method === 'GET'
      ? client.get(path)
      : client.request(path, {
          method,
          headers: { 'content-type': 'application/json', origin: suite.api.origin },
          body: '{}',
        });

  it('has exactly one entry for every API route the app serves', () => {
    expect(Object.keys(ROUTE_ACCESS).sort()).toEqual(registeredRoutes(suite.db));
  });

  it.each(guarded)('%s answers 401 signed out, with a forged token and with an expired one', async (key) => {
    const [method = 'GET', pattern = ''] = key.split(' ');
    const path = concrete(pattern);
    const forged = await forgeSession({ key: new TextEncoder().encode('x'.repeat(40)), sub: '1', ver: 1 });
    const expired = await forgeSession({ sub: '1', ver: 1, issuedAt: 1_000_000, expiresAt: 1_000_060 });
    for (const cookie of [undefined, forged, expired]) {
      const client = suite.client();
      client.session = cookie;
      await expectError(await call(client, method, path), 401, 'Please log in');
    }
  });

  // Site-wide settings and every agent's data are for admins: each admin route refuses an agent itself.
  it.each(adminOnly)('%s answers 403 to a signed-in agent who is not an admin', async (key) => {
    const [method = 'GET', pattern = ''] = key.split(' ');
    const path = concrete(pattern);
    const agent = await createAgent(suite.db);
    await expectError(await call(await clientAs(suite, agent.id), method, path), 403);
  });
});
