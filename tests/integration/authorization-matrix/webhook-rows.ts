/**
 * The matrix's rows of the webhooks (issue 26): an agent's endpoints (/api/webhooks) are that agent's
 * alone, B and the admin being told A's endpoint does not exist; the site's (/api/admin/webhooks) are
 * the admins'. A cell's endpoint is A's (or the site's) first one, added through the API when there
 * is none. Its address is a closed port of this machine's loopback, so a test event is refused there
 * at once and nothing leaves the machine.
 */
import { clientAs, type AuthSuite } from '../../support/auth-suite.ts';
import { adminOnly, ok, signedIn, type MatrixRow, type World } from './cells.ts';

const RECEIVER = 'http://127.0.0.1:9/hook';
const NEW_ENDPOINT = { url: RECEIVER, events: ['lead.created'], description: 'Matrix' };

/** A's endpoint: B and the admin are told there is no such endpoint of theirs. */
const ownEndpoint: MatrixRow['expect'] = {
  'signed out': { status: 401 },
  'agent A': ok(200),
  'agent B': { status: 404 },
  admin: { status: 404 },
};

/** The id of the first endpoint of `agentId` (null: the site's), added through the API when it has none. */
async function endpointOf(suite: AuthSuite, world: World, owner: 'a' | 'site'): Promise<number> {
  const agentId = owner === 'a' ? world.a.id : null;
  const find = () =>
    suite.db.query<{ id: number }>(
      'SELECT id FROM webhook_endpoints WHERE agent_id IS NOT DISTINCT FROM $1 ORDER BY id LIMIT 1',
      [agentId],
    );
  const [found] = await find();
  if (found) return found.id;
  const client = await clientAs(suite, owner === 'a' ? world.a.id : world.admin.id);
  const added = await client.post(owner === 'a' ? '/api/webhooks' : '/api/admin/webhooks', NEW_ENDPOINT);
  if (added.status !== 201) throw new Error(`adding the matrix's endpoint answered ${added.status}`);
  const [made] = await find();
  if (!made) throw new Error("the matrix's endpoint was not stored");
  return made.id;
}

/** The rows of one scope's operations: `base` with the cells' endpoint of `owner`. */
function scopeRows(
  base: '/api/webhooks' | '/api/admin/webhooks',
  owner: 'a' | 'site',
  expectList: MatrixRow['expect'],
  expectAdded: MatrixRow['expect'],
  expectOne: MatrixRow['expect'],
): Record<string, MatrixRow> {
  const one = (suffix: string, json?: unknown): MatrixRow => ({
    request: async (w, _caller, suite) => ({
      path: `${base}/${await endpointOf(suite, w, owner)}${suffix}`,
      ...(json === undefined ? {} : { json }),
    }),
    expect: expectOne,
  });
  return {
    [`GET ${base}`]: { request: () => ({ path: base }), expect: expectList },
    [`POST ${base}`]: { request: () => ({ path: base, json: NEW_ENDPOINT }), expect: expectAdded },
    [`PATCH ${base}/:id`]: one('', { description: 'Matrix, changed' }),
    [`DELETE ${base}/:id`]: one(''),
    [`POST ${base}/:id/rotate-secret`]: one('/rotate-secret', {}),
    [`POST ${base}/:id/test`]: one('/test', {}),
    [`GET ${base}/:id/deliveries`]: one('/deliveries'),
  };
}

export const WEBHOOK_ROWS: Record<string, MatrixRow> = {
  ...scopeRows('/api/webhooks', 'a', signedIn(200), signedIn(201), ownEndpoint),
  ...scopeRows('/api/admin/webhooks', 'site', adminOnly(), adminOnly(201), adminOnly()),
};
