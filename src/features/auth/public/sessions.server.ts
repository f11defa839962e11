/**
 * Sessions: a jose-signed JWT (HS256) in the HttpOnly cookie `nts_session`, carrying the agent's id,
 * their session_version and the session's own id (`jti`). Raising agents.session_version
 * (logout-everywhere, password reset, an e-mail change) ends every session signed before; logout
 * ends one session by writing its id to ended_sessions (until the token would have expired), which
 * every signed-in query looks up by primary key in the statement that loads the agent.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Queryable } from '../../../platform/db.ts';
import { HttpError } from '../../../platform/http.ts';
import type { SessionAgent } from './auth-schemas.ts';
import { MAX_RECORD_ID } from '../../forms/public/record-id.ts';

export const SESSION_COOKIE = 'nts_session';
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const PLEASE_LOG_IN = 'Please log in';

/** What the app needs to sign and read sessions (built from env in src/app/compose.ts). */
export interface AuthConfig {
  /** HS256 key: SESSION_SECRET's bytes. */
  sessionKey: Uint8Array;
  /** Secure cookies: on in production (HTTPS), off for http://localhost. */
  secureCookies: boolean;
}

export const sessionKeyFrom = (secret: string): Uint8Array => new TextEncoder().encode(secret);

export interface SessionClaims {
  agentId: number;
  version: number;
  /** The session's id (the JWT's jti): 16 random bytes, base64url. */
  sessionId: string;
}

const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

export const newSessionId = (): string => randomBytes(16).toString('base64url');

const ALGORITHM = 'HS256';

/**
 * jose is loaded by the first session signed or read, not by every cold start of the API function:
 * most of its requests (public reads, pages) have no session (decision 0026).
 */
const loadJose = () => import('jose');

/** A signed session token for the agent, valid SESSION_TTL_SECONDS from `now`. */
export async function signSession(
  config: AuthConfig,
  { agentId, version, sessionId = newSessionId() }: Omit<SessionClaims, 'sessionId'> & { sessionId?: string },
  now: Date = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const { SignJWT } = await loadJose();
  return new SignJWT({ ver: version })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(agentId))
    .setJti(sessionId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + SESSION_TTL_SECONDS)
    .sign(config.sessionKey);
}

/**
 * Tokens jose has verified, per session key, with their claims and expiry. jose checks the HS256
 * signature through WebCrypto, which in Node costs about 30 µs of CPU per call (createHmac: 2 µs),
 * a fifth of a signed-in dashboard call; a screen makes several calls with one cookie. A token is a
 * signed, immutable string, so the verdict holds until its `exp`, which is checked on every use.
 * Revocation does not depend on this: every signed-in query checks the session version and the
 * ended sessions (me CTE).
 * Bounded: past VERIFIED_LIMIT the oldest entry goes.
 */
const VERIFIED_LIMIT = 1_000;
const verifiedByKey = new WeakMap<Uint8Array, Map<string, { claims: SessionClaims; exp: number }>>();

/**
 * The claims of a session token, or undefined when it is not one we signed, has been altered, has
 * expired or does not carry an agent id and version.
 */
export async function readSession(config: AuthConfig, token: string): Promise<SessionClaims | undefined> {
  return (await readSessionExpiry(config, token))?.claims;
}

/** As readSession, with the token's expiry (`exp`, seconds since the epoch). */
export async function readSessionExpiry(
  config: AuthConfig,
  token: string,
): Promise<{ claims: SessionClaims; exp: number } | undefined> {
  let verified = verifiedByKey.get(config.sessionKey);
  if (!verified) {
    verified = new Map();
    verifiedByKey.set(config.sessionKey, verified);
  }
  const known = verified.get(token);
  if (known) {
    if (known.exp > Date.now() / 1000) return known;
    verified.delete(token);
    return undefined;
  }
  const checked = await verifySession(config, token);
  if (checked) {
    if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value ?? token);
    verified.set(token, checked);
  }
  return checked;
}

/** jose's verdict on a token: its claims and expiry, or undefined. */
async function verifySession(
  config: AuthConfig,
  token: string,
): Promise<{ claims: SessionClaims; exp: number } | undefined> {
  const { errors, jwtVerify } = await loadJose();
  try {
    const { payload } = await jwtVerify(token, config.sessionKey, { algorithms: [ALGORITHM], requiredClaims: ['exp'] });
    const { sub, ver, exp, jti } = payload;
    if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub)) return undefined;
    if (typeof ver !== 'number' || !Number.isInteger(ver) || ver < 1 || ver > MAX_RECORD_ID) return undefined;
    if (typeof exp !== 'number') return undefined;
    // A token without a session id (signed before logout could end one session) is not accepted.
    if (typeof jti !== 'string' || !SESSION_ID.test(jti)) return undefined;
    const agentId = Number(sub);
    if (agentId > MAX_RECORD_ID) return undefined;
    return { claims: { agentId, version: ver, sessionId: jti }, exp };
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
}

const cookieOptions = (config: AuthConfig) =>
  ({ path: '/', httpOnly: true, sameSite: 'Lax', secure: config.secureCookies }) as const;

export function setSessionCookie(c: Context, config: AuthConfig, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { ...cookieOptions(config), maxAge: SESSION_TTL_SECONDS });
}

/** Tells the browser to drop the session cookie (Max-Age=0), with the attributes it was set with. */
export function clearSessionCookie(c: Context, config: AuthConfig): void {
  deleteCookie(c, SESSION_COOKIE, cookieOptions(config));
}

/** The agent columns the API shows to the agent themself: never the hash, tokens or versions. */
export const SESSION_AGENT_COLUMNS =
  'id, first_name, last_name, email, phone, slug, brokerage, status, is_admin, professional_title';

/**
 * The session's claims as the two parameters of sessionAgentCte (src/features/auth/public/access.server.ts):
 * the agent's id, and the version and session id together as one text `version.sessionId`. One
 * value for both keeps every signed-in query's parameter numbering as it was before sessions had
 * ids (the session id is base64url, so it has no dot).
 */
export const sessionParams = ({ agentId, version, sessionId }: SessionClaims): [number, string] => [
  agentId,
  `${version}.${sessionId}`,
];

/**
 * The SQL condition, over `agents`, that the session with parameters `$first` and `$first + 1`
 * (sessionParams) is current: the agent's version is the session's, the session was not ended by
 * logout (one primary-key lookup), and the agent is active.
 */
export const currentSessionCondition = (first: number): string =>
  `id = $${first} AND session_version = split_part($${first + 1}::text, '.', 1)::integer AND status = 'active'
   AND NOT EXISTS (SELECT 1 FROM ended_sessions WHERE jti = split_part($${first + 1}::text, '.', 2))`;

/**
 * One round trip: the agent of the request's session, when the cookie holds a token we signed that
 * has not expired and was not ended by logout, whose version is the agent's current
 * session_version, of an agent who still exists and is active. Anything else is 401 "Please log in".
 */
export async function currentAgent(c: Context, db: Queryable, config: AuthConfig): Promise<SessionAgent> {
  const token = getCookie(c, SESSION_COOKIE);
  const claims = token ? await readSession(config, token) : undefined;
  if (!claims) throw new HttpError(401, PLEASE_LOG_IN);
  const [agent] = await db.query<SessionAgent>(
    `SELECT ${SESSION_AGENT_COLUMNS} FROM agents WHERE ${currentSessionCondition(1)}`,
    sessionParams(claims),
  );
  if (!agent) throw new HttpError(401, PLEASE_LOG_IN);
  return agent;
}
