/**
 * Who may call each API route, enforced before any handler from the one table the app is given
 * (src/app/route-access.ts). A route for signed-in agents or admins needs a valid session token:
 * without one it answers 401 before its handler runs. The token is only verified here (no database
 * trip); each handler checks that the agent is still current in its own query (sessionAgentCte), so
 * a screen's data costs one round trip.
 */
import { SITE_WIDE_ONLY } from './access-messages.ts';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type * as z from 'zod';
import type { Queryable } from '../../../platform/db.ts';
import { errorResponse, HttpError, readJson, type BodyLimit } from '../../../platform/http.ts';
import { pathMatcher } from '../../../platform/netlify-rules.ts';
import {
  currentSessionCondition,
  PLEASE_LOG_IN,
  readSession,
  SESSION_COOKIE,
  sessionParams,
  type AuthConfig,
  type SessionClaims,
} from './sessions.server.ts';

export { sessionParams };

/** public: anyone; agent: any signed-in agent (admins too); admin: signed-in admins only. */
export type Access = 'public' | 'agent' | 'admin';

/** `"METHOD /api/path/:param"` → who may call it. */
export type RouteAccess = Readonly<Record<string, Access>>;

/**
 * Who may call a request's route by `table`: exact paths first, then patterns. The patterns are
 * compiled once, as this runs before every API request.
 */
export function accessLookup(table: RouteAccess): (method: string, path: string) => Access | undefined {
  const entries = Object.entries(table).map(([key, access]) => {
    const [method = '', pattern = ''] = key.split(' ');
    return { method, pattern, access, matches: pathMatcher(pattern) };
  });
  return (method, path) => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    let found: Access | undefined;
    for (const entry of entries) {
      if (entry.method !== wanted || !entry.matches(path)) continue;
      if (entry.pattern === path) return entry.access;
      found ??= entry.access;
    }
    return found;
  };
}

const claimsOfRequest = new WeakMap<Request, SessionClaims>();

/** Middleware for /api/*: refuses a signed-out call to an agent or admin route with 401. */
export function accessControl(table: RouteAccess, config: AuthConfig): MiddlewareHandler {
  const accessOf = accessLookup(table);
  return async (c, next) => {
    const access = accessOf(c.req.method, c.req.path);
    if (access === 'agent' || access === 'admin') {
      const token = getCookie(c, SESSION_COOKIE);
      const claims = token ? await readSession(config, token) : undefined;
      if (!claims) return errorResponse(c, new HttpError(401, PLEASE_LOG_IN));
      claimsOfRequest.set(c.req.raw, claims);
    }
    await next();
  };
}

/** The session of a request to an agent or admin route (accessControl verified it). */
export function sessionOf(c: Context): SessionClaims {
  const claims = claimsOfRequest.get(c.req.raw);
  // Only a route missing from the access table gets here without a session: a programming error.
  if (!claims) throw new Error(`${c.req.method} ${c.req.path} is not an agent route in the access table`);
  return claims;
}

/** A signed-in agent asked for an admin's screen or list. */
export const ADMINS_ONLY = 'Admins only';

/**
 * A CTE `me` holding the session's agent (id, is_admin) while the session is current (not ended by
 * logout, its version the agent's) and the agent active, with its two parameters at `$first` and
 * `$first + 1` (sessionParams). A query that finds no `me` row answers 401, as GET /api/auth/me does.
 */
export const sessionAgentCte = (first: number): string =>
  `me AS (SELECT id, is_admin FROM agents WHERE ${currentSessionCondition(first)})`;

/**
 * For the `me` row a query of an admin route read (with `is_admin`): no row is 401 (signed out),
 * an agent who is not an admin is 403.
 */
export function assertAdmin(me: { is_admin: boolean } | undefined): void {
  if (!me) throw new HttpError(401, PLEASE_LOG_IN);
  if (!me.is_admin) throw new HttpError(403, SITE_WIDE_ONLY);
}

/**
 * Runs `work` (reading and checking an admin route's request) before the route's one statement
 * checks the admin: when `work` refuses the request, a caller who is not an admin is told 403,
 * never what their request lacks. Costs a round trip only then.
 */
export async function adminFirst<T>(c: Context, db: Queryable, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) await checkAdmin(c, db);
    throw error;
  }
}

/** A round trip of its own that answers 401 or 403 unless the session's agent is an admin. */
export async function checkAdmin(c: Context, db: Queryable): Promise<void> {
  const [me] = await db.query<{ is_admin: boolean }>(
    `WITH ${sessionAgentCte(1)} SELECT is_admin FROM me`,
    sessionParams(sessionOf(c)),
  );
  assertAdmin(me);
}

/** The JSON body of an admin route (within `limit`, if given), refused as adminFirst says. */
export const readJsonAsAdmin = <Schema extends z.core.$ZodType>(
  c: Context,
  db: Queryable,
  schema: Schema,
  limit?: BodyLimit,
): Promise<z.output<Schema>> => adminFirst(c, db, () => readJson(c, schema, limit));
