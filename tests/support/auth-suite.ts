/**
 * An API suite for the account flows: like the e-mail suite (real outbox, work after responses
 * collected), plus a known session key (so tests can forge cookies) and a client IP taken from a
 * test header (so tests can act as several clients). `suite.client()` is a small browser: it keeps
 * its own session cookie, sends JSON with its page's Origin, and has an IP address of its own.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { EmailProvider } from '../../src/features/email/public/email.server.ts';
import type { AuthConfig } from '../../src/features/auth/public/sessions.server.ts';
import type { Db } from '../../src/platform/db.ts';
import type { Backend, TestDatabase } from './backends.ts';
import { TEST_SITE_URL, useEmailSuite, type EmailSuiteExtra } from './email-suite.ts';
import type { RunningApi } from './http.ts';

export const SESSION_COOKIE = 'nts_session';
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdefghij';
export const TEST_AUTH: AuthConfig = {
  sessionKey: new TextEncoder().encode(TEST_SESSION_SECRET),
  secureCookies: false,
};
/** The header the test app reads the client's IP address from. */
export const IP_HEADER = 'x-test-client-ip';

export interface AuthSuite {
  readonly test: TestDatabase;
  readonly db: Db;
  readonly api: RunningApi;
  readonly logged: { error: unknown; method: string; path: string }[];
  /** Lines the outbox printed since the last test began. */
  readonly outbox: string[];
  /** Sends go to `provider` until the test ends (then back to the outbox). */
  useProvider(provider: EmailProvider): void;
  /** Waits until all work started after responses has finished. */
  settle(): Promise<void>;
  /** A new browser-like client with an empty cookie jar and a fresh IP address. */
  client(options?: { ip?: string }): Client;
}

/** A random address in 10.0.0.0/8, different for every client (practically). */
export const randomIp = (): string => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export interface Client {
  readonly ip: string;
  /** The session token in this client's cookie jar, if any. */
  session: string | undefined;
  /** Like a page's fetch(): JSON body, this client's cookie, Origin of the site, its IP. */
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** Any method with a JSON body as a page sends it (a string is sent as it is: malformed JSON). */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Any request, with this client's cookie and IP (no Origin unless given). */
  request(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Response>;
}

/** The nts_session value a response sets: a string, null when it clears it, undefined when it does neither. */
export function sessionCookieOf(response: Response): string | null | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq) !== SESSION_COOKIE) continue;
    const maxAge = attributes.find((attribute) => /^max-age=/i.test(attribute));
    if (maxAge && Number(maxAge.split('=')[1]) <= 0) return null;
    return pair.slice(eq + 1);
  }
  return undefined;
}

export function useAuthSuite(
  backend: Backend,
  label: string,
  extra: Omit<EmailSuiteExtra, 'auth' | 'clientIp'> = {},
): AuthSuite {
  const suite = useEmailSuite(backend, label, {
    auth: TEST_AUTH,
    clientIp: (request) => request.headers.get(IP_HEADER) ?? undefined,
    ...extra,
  });
  function client({ ip = randomIp() }: { ip?: string } = {}): Client {
    const self: Client = {
      ip,
      session: undefined,
      async request(path, init = {}) {
        const headers: Record<string, string> = { [IP_HEADER]: ip, ...init.headers };
        if (self.session !== undefined && !('cookie' in headers)) headers.cookie = `${SESSION_COOKIE}=${self.session}`;
        const response = await suite.api.fetch(path, { ...init, headers });
        const cookie = sessionCookieOf(response);
        if (cookie === null) self.session = undefined;
        else if (cookie !== undefined) self.session = cookie;
        return response;
      },
      post(path, body = {}, headers = {}) {
        return self.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: suite.api.origin, ...headers },
          body: JSON.stringify(body),
        });
      },
      get(path, headers = {}) {
        return self.request(path, { headers });
      },
      send(method, path, body, headers = {}) {
        return self.request(path, {
          method,
          headers: { 'content-type': 'application/json', origin: suite.api.origin, ...headers },
          ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        });
      },
    };
    return self;
  }

  return {
    get test() {
      return suite.test;
    },
    get db() {
      return suite.db;
    },
    get api() {
      return suite.api;
    },
    logged: suite.logged,
    outbox: suite.outbox,
    useProvider: (provider) => suite.useProvider(provider),
    settle: () => suite.settle(),
    client,
  };
}

let counter = 0;

/** A sign-up body with a unique e-mail and slug. */
export function signupBody(overrides: Record<string, unknown> = {}): {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  password: string;
  slug: string;
  brokerage: string;
  is_admin: boolean;
} {
  counter += 1;
  const id = `${counter}${randomBytes(3).toString('hex')}`;
  return {
    first_name: 'Pat',
    last_name: 'Quinn',
    email: `pat.quinn.${id}@example.com`,
    phone: null,
    password: `kettle-harbor-${id}`,
    slug: `patquinn${id}`,
    brokerage: 'Harbor Point Realty (demo)',
    is_admin: false,
    ...overrides,
  };
}

/** Is `line` (printed by the outbox) a message to `to`, with or without a name? */
export const sentTo = (line: string, to: string): boolean =>
  line.includes(`<${to}>`) || new RegExp(` to ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(line);

/** The token of the last link to `/{page}?token=` the outbox printed (to `to`, when given). */
export function lastLinkToken(
  outbox: readonly string[],
  page: 'verify-email' | 'reset-password' | 'confirm-email-change' | 'undo-email-change',
  to?: string,
): string {
  const pattern = new RegExp(
    `${TEST_SITE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${page}\\?token=([A-Za-z0-9_-]{43})`,
  );
  for (const line of [...outbox].reverse()) {
    if (to !== undefined && !sentTo(line, to)) continue;
    const match = pattern.exec(line);
    if (match?.[1]) return match[1];
  }
  throw new Error(`No ${page} link${to ? ` to ${to}` : ''} in the outbox:\n${outbox.join('\n---\n')}`);
}

/** Signs a session token with any key and claims (for forged, stale and expired cookies). */
export async function forgeSession({
  key = TEST_AUTH.sessionKey,
  sub,
  ver,
  issuedAt = Math.floor(Date.now() / 1000),
  expiresAt = issuedAt + 7 * 24 * 60 * 60,
  alg = 'HS256',
  jti = randomBytes(16).toString('base64url'),
}: {
  key?: Uint8Array;
  sub: string;
  ver: unknown;
  issuedAt?: number;
  expiresAt?: number;
  alg?: 'HS256' | 'HS512';
  /** The session id; null for a token without one (as signed before sessions had ids). */
  jti?: string | null;
}): Promise<string> {
  return new SignJWT(jti === null ? { ver } : { ver, jti })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
}

export interface AgentAccount {
  id: number;
  email: string;
  password: string;
  slug: string;
  first_name: string;
}

/** Signs up through the API, follows the e-mailed link, and answers the active account. */
export async function createAccount(
  suite: AuthSuite,
  overrides: Record<string, unknown> = {},
): Promise<AgentAccount & { client: Client }> {
  const client = suite.client();
  const body = signupBody(overrides);
  const signup = await client.post('/api/auth/signup', body);
  expect(signup.status, await signup.clone().text()).toBe(201);
  await suite.settle();
  const token = lastLinkToken(suite.outbox, 'verify-email', body.email);
  const verified = await client.post('/api/auth/verify-email', { token });
  expect(verified.status, await verified.clone().text()).toBe(200);
  const [row] = await suite.db.query<{ id: number }>('SELECT id FROM agents WHERE email = $1', [body.email]);
  if (!row) throw new Error('createAccount: no agent row');
  return {
    id: row.id,
    email: body.email,
    password: body.password,
    slug: body.slug,
    first_name: body.first_name,
    client,
  };
}

/** A client logged in as `account`. */
export async function loggedIn(suite: AuthSuite, account: { email: string; password: string }): Promise<Client> {
  const client = suite.client();
  const response = await client.post('/api/auth/login', { email: account.email, password: account.password });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(client.session).toBeDefined();
  return client;
}

/**
 * A client signed in as an existing agent row (createAgent in fixtures.ts), with a session token
 * signed by the suite's key: no sign-up or scrypt, for tests that need many signed-in agents.
 * The agent must be active for the API to accept it (createAgent's default).
 */
export async function clientAs(suite: AuthSuite, agentId: number): Promise<Client> {
  const client = suite.client();
  const [row] = await suite.db.query<{ session_version: number }>('SELECT session_version FROM agents WHERE id = $1', [
    agentId,
  ]);
  if (!row) throw new Error(`clientAs: no agent ${agentId}`);
  client.session = await forgeSession({ sub: String(agentId), ver: row.session_version });
  return client;
}
