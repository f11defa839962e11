/**
 * What an attacker tries against the account calls, over HTTP on both backends: forged, altered,
 * stale and expired session cookies; replayed, altered, expired and superseded tokens; cross-site
 * requests; brute force (rate limits); account enumeration; secrets in responses; bad bodies; and
 * the round-trip budgets.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { hashPassword } from '../../src/features/auth/passwords.server.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson, expectTooMany } from '../support/api-suite.ts';
import {
  createAccount,
  forgeSession,
  IP_HEADER,
  lastLinkToken,
  loggedIn,
  randomIp,
  signupBody,
  TEST_AUTH,
  TEST_SESSION_SECRET,
  useAuthSuite,
  type AuthSuite,
  type Client,
} from '../support/auth-suite.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';
import { rawRequest, startApi } from '../support/http.ts';

const PLEASE_LOG_IN = 'Please log in';
const INVALID_LINK = 'This link is invalid or has already been used.';
const CROSS_SITE = 'Cross-site request refused';
const POST_PATHS = [
  '/api/auth/signup',
  '/api/auth/verify-email',
  '/api/auth/login',
  '/api/auth/resend-verification',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
] as const;

const sessionAgentKeys = {
  id: 1,
  first_name: 1,
  last_name: 1,
  email: 1,
  phone: 1,
  slug: 1,
  brokerage: 1,
  status: 1,
  is_admin: 1,
  professional_title: 1,
};
const agentResponse = z.object({ success: z.literal(true), agent: z.object({ id: z.number() }).loose() });
const okResponse = z.object({ success: z.literal(true) }).loose();

async function sessionVersion(suite: AuthSuite, id: number): Promise<number | undefined> {
  const [row] = await suite.db.query<{ session_version: number }>('SELECT session_version FROM agents WHERE id = $1', [
    id,
  ]);
  return row?.session_version;
}

/** The agent's active tokens' expiry moved into the past, as if the link had waited too long. */
async function expireTokens(suite: AuthSuite, agentId: number): Promise<void> {
  await suite.db.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE agent_id = $1`, [
    agentId,
  ]);
}

describe.each(BACKENDS)('account security on %s', (backend) => {
  const suite = useAuthSuite(backend, 'authsec');

  describe('session cookies', () => {
    const meWith = (cookie: string) => suite.client().get('/api/auth/me', { cookie: `nts_session=${cookie}` });

    it('accepts its own token and refuses altered, forged, stale and expired ones', async () => {
      const account = await createAccount(suite);
      const client = await loggedIn(suite, account);
      const good = client.session ?? '';
      await expectJson(await meWith(good), 200, agentResponse);

      const [header = '', payload = '', signature = ''] = good.split('.');
      const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1) ?? ''}`;
      const claims = { sub: String(account.id), ver: 1 };
      const now = Math.floor(Date.now() / 1000);
      const otherPayload = Buffer.from(JSON.stringify({ ...claims, sub: '1', iat: now, exp: now + 600 })).toString(
        'base64url',
      );
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      const refused: [string, string][] = [
        ['altered signature', `${header}.${payload}.${flipped}`],
        ['payload swapped for another agent', `${header}.${otherPayload}.${signature}`],
        ['unsigned (alg none)', unsigned],
        ['signed with another key', await forgeSession({ ...claims, key: new TextEncoder().encode('x'.repeat(40)) })],
        ['HS512 with the right key', await forgeSession({ ...claims, alg: 'HS512' })],
        ['expired', await forgeSession({ ...claims, issuedAt: now - 8 * 86400, expiresAt: now - 86400 })],
        ['an old session version', await forgeSession({ ...claims, ver: 0 })],
        ['a future session version', await forgeSession({ ...claims, ver: 2 })],
        ['ver as a string', await forgeSession({ ...claims, ver: '1' })],
        ['no session id (signed before logout ended one session)', await forgeSession({ ...claims, jti: null })],
        ['a session id not ours in shape', await forgeSession({ ...claims, jti: "x' OR '1'='1" })],
        ['sub not a number', await forgeSession({ sub: 'admin', ver: 1 })],
        ['an agent that does not exist', await forgeSession({ sub: '99999999', ver: 1 })],
        ['garbage', 'not-a-jwt'],
        ['empty', ''],
      ];
      for (const [label, cookie] of refused) {
        const response = await meWith(cookie);
        expect(response.status, label).toBe(401);
        await expectError(response, 401, PLEASE_LOG_IN);
      }
      // The key is the secret's bytes: a token signed with it (and the current version) is accepted.
      await expectJson(
        await meWith(await forgeSession({ ...claims, key: new TextEncoder().encode(TEST_SESSION_SECRET), ver: 1 })),
        200,
        agentResponse,
      );
    });

    it('ends the session of an agent made inactive, pending or deleted', async () => {
      for (const change of [
        `UPDATE agents SET status = 'inactive' WHERE id = $1`,
        `UPDATE agents SET status = 'pending' WHERE id = $1`,
        'DELETE FROM agents WHERE id = $1',
      ]) {
        const account = await createAccount(suite);
        const client = await loggedIn(suite, account);
        await suite.db.query(change, [account.id]);
        await expectError(await client.get('/api/auth/me'), 401, PLEASE_LOG_IN);
      }
    });

    it('is Secure when the app says so (production)', async () => {
      const api = await startApi({ db: suite.db, auth: { ...TEST_AUTH, secureCookies: true } });
      try {
        const account = await createAccount(suite);
        const response = await api.postJson('/api/auth/login', { email: account.email, password: account.password });
        expect(response.status).toBe(200);
        const cookie = response.headers.getSetCookie().find((value) => value.startsWith('nts_session='));
        expect(cookie).toMatch(/; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
        const logout = await api.fetch('/api/auth/logout', { method: 'POST' });
        expect(logout.headers.getSetCookie()).toEqual([
          'nts_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax',
        ]);
      } finally {
        await api.close();
      }
    });
  });

  describe('e-mailed tokens', () => {
    async function pendingSignup(): Promise<{ email: string; token: string; id: number }> {
      const body = signupBody();
      expect((await suite.client().post('/api/auth/signup', body)).status).toBe(201);
      await suite.settle();
      const [row] = await suite.db.query<{ id: number }>('SELECT id FROM agents WHERE email = $1', [body.email]);
      return { email: body.email, token: lastLinkToken(suite.outbox, 'verify-email', body.email), id: row?.id ?? 0 };
    }

    it('stores only the SHA-256 of a token, 24 h for verification and 1 h for reset', async () => {
      const { token, id, email } = await pendingSignup();
      await suite.client().post('/api/auth/forgot-password', { email });
      await suite.settle();
      const resetToken = lastLinkToken(suite.outbox, 'reset-password', email);
      const rows = await suite.db.query<{ token_hash: string; purpose: string; hours: number }>(
        `SELECT token_hash, purpose, round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours
           FROM auth_tokens WHERE agent_id = $1 ORDER BY purpose`,
        [id],
      );
      const { createHash } = await import('node:crypto');
      const sha = (value: string) => createHash('sha256').update(value).digest('hex');
      expect(rows).toEqual([
        { token_hash: sha(resetToken), purpose: 'reset_password', hours: 1 },
        { token_hash: sha(token), purpose: 'verify_email', hours: 24 },
      ]);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('a verification link works once (replay refused)', async () => {
      const { token } = await pendingSignup();
      await expectJson(await suite.client().post('/api/auth/verify-email', { token }), 200, okResponse);
      await expectError(await suite.client().post('/api/auth/verify-email', { token }), 400, INVALID_LINK);
    });

    it('an altered or unknown token is refused and changes nothing', async () => {
      const { token, id } = await pendingSignup();
      const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      await expectError(await suite.client().post('/api/auth/verify-email', { token: altered }), 400, INVALID_LINK);
      await expectError(
        await suite.client().post('/api/auth/verify-email', { token: 'A'.repeat(43) }),
        400,
        INVALID_LINK,
      );
      const [row] = await suite.db.query<{ status: string }>('SELECT status FROM agents WHERE id = $1', [id]);
      expect(row?.status).toBe('pending');
    });

    it('an expired verification link answers "Token expired" and leaves the agent pending', async () => {
      const { token, id } = await pendingSignup();
      await expireTokens(suite, id);
      const body = await expectError(
        await suite.client().post('/api/auth/verify-email', { token }),
        400,
        'Token expired',
      );
      expect(body.fields).toEqual({ token: 'Token expired' });
      const [row] = await suite.db.query<{ status: string }>('SELECT status FROM agents WHERE id = $1', [id]);
      expect(row?.status).toBe('pending');
    });

    it('a token of one purpose does not work for the other', async () => {
      const { token } = await pendingSignup();
      await expectError(
        await suite.client().post('/api/auth/reset-password', { token, password: 'long enough password' }),
        400,
        INVALID_LINK,
      );
    });

    it('an expired reset link answers "Token expired" and keeps the password', async () => {
      const account = await createAccount(suite);
      await suite.client().post('/api/auth/forgot-password', { email: account.email });
      await suite.settle();
      const token = lastLinkToken(suite.outbox, 'reset-password', account.email);
      await expireTokens(suite, account.id);
      await expectError(
        await suite.client().post('/api/auth/reset-password', { token, password: 'new password here' }),
        400,
        'Token expired',
      );
      await loggedIn(suite, account);
    });

    it('a newer reset link invalidates the older one', async () => {
      const account = await createAccount(suite);
      await suite.client().post('/api/auth/forgot-password', { email: account.email });
      await suite.settle();
      const older = lastLinkToken(suite.outbox, 'reset-password', account.email);
      await suite.client().post('/api/auth/forgot-password', { email: account.email });
      await suite.settle();
      const newer = lastLinkToken(suite.outbox, 'reset-password', account.email);
      expect(newer).not.toBe(older);
      await expectError(
        await suite.client().post('/api/auth/reset-password', { token: older, password: 'from the old link' }),
        400,
        INVALID_LINK,
      );
      await expectJson(
        await suite.client().post('/api/auth/reset-password', { token: newer, password: 'from the new link' }),
        200,
        okResponse,
      );
    });

    it('the same reset link sent twice at once succeeds once', async () => {
      const account = await createAccount(suite);
      await suite.client().post('/api/auth/forgot-password', { email: account.email });
      await suite.settle();
      const token = lastLinkToken(suite.outbox, 'reset-password', account.email);
      const responses = await Promise.all(
        ['first racing password', 'second racing password'].map((password) =>
          suite.client().post('/api/auth/reset-password', { token, password }),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
      expect(await sessionVersion(suite, account.id)).toBe(2);
    });
  });

  describe('cross-site request forgery', () => {
    /** A logged-in client and a way to tell whether its session_version changed. */
    async function victim(): Promise<{ client: Client; id: number }> {
      const account = await createAccount(suite);
      return { client: await loggedIn(suite, account), id: account.id };
    }

    it('refuses a cross-site POST that carries the session cookie, and changes nothing', async () => {
      const { client, id } = await victim();
      const attacks: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
        { origin: `${suite.api.origin}.evil.example` },
        { origin: suite.api.origin.replace('http:', 'https:') },
        { origin: 'http://127.0.0.1:1' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        // Neither header: an old or non-browser client with the victim's cookie is refused too.
        {},
      ];
      for (const headers of attacks) {
        const response = await client.request('/api/auth/logout-everywhere', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: '{}',
        });
        await expectError(response, 403, CROSS_SITE);
      }
      expect(await sessionVersion(suite, id)).toBe(1);
      await expectJson(await client.get('/api/auth/me'), 200, agentResponse);
      // Other routes are guarded the same way: no lead is written by a forged POST.
      const [before] = await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads');
      const lead = await client.request('/api/leads', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({
          agent_slug: 'alexmorgan',
          firstName: 'Dana',
          lastName: 'Lopez',
          phone: '5165550123',
          email: 'dana@example.com',
          consent_marketing: true,
        }),
      });
      await expectError(lead, 403, CROSS_SITE);
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        await expectError(
          await client.request('/api/auth/logout', { method, headers: { origin: 'https://evil.example' } }),
          403,
          CROSS_SITE,
        );
      }
      const [after] = await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads');
      expect(after?.n).toBe(before?.n);
    });

    it('accepts the same origin by Origin, by Sec-Fetch-Site, and the configured site origin', async () => {
      const { client } = await victim();
      const allowed: Record<string, string>[] = [
        { origin: suite.api.origin },
        { 'sec-fetch-site': 'same-origin' },
        // A proxy in front (the dev server) rewrote Host; the browser still says same-origin.
        { origin: 'http://localhost:4321', 'sec-fetch-site': 'same-origin' },
        { origin: new URL(TEST_SITE_URL).origin },
      ];
      for (const headers of allowed) {
        const response = await client.request('/api/auth/logout', { method: 'POST', headers });
        expect(response.status, JSON.stringify(headers)).toBe(200);
        // logout cleared the jar; put the cookie back for the next try.
        client.session = (await loggedIn(suite, await createAccount(suite))).session;
      }
    });

    it('does not affect requests without the session cookie, nor reads with it', async () => {
      const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
      const stranger = suite.client();
      await expectJson(await stranger.post('/api/auth/signup', signupBody(), evil), 201, okResponse);
      await expectJson(await stranger.post('/api/auth/logout', {}, evil), 200, okResponse);
      const { client } = await victim();
      await expectJson(await client.get('/api/auth/me', evil), 200, agentResponse);
    });
  });

  describe('rate limits', () => {
    it('allows 10 logins per e-mail from one IP in 15 minutes; its 11th gets 429 even with the right password', async () => {
      const account = await createAccount(suite);
      const ip = randomIp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await suite
          .client({ ip })
          .post('/api/auth/login', { email: account.email, password: 'wrong guess' });
        expect(response.status).toBe(401);
      }
      const eleventh = await suite
        .client({ ip })
        .post('/api/auth/login', { email: account.email, password: account.password });
      const body = await expectTooMany(eleventh, 15 * 60);
      expect(body).toMatchObject({ fields: {} });
      expect(eleventh.headers.getSetCookie()).toEqual([]);
      // The address in another case is the same counter.
      const upper = await suite.client({ ip }).post('/api/auth/login', {
        email: account.email.toUpperCase(),
        password: account.password,
      });
      await expectTooMany(upper, 15 * 60);
      // Another client is not held by it (finding 7: a stranger cannot lock the owner out).
      await loggedIn(suite, account);
    });

    it('tells the seconds left in the window in Retry-After', async () => {
      const email = `window.${Date.now()}@example.com`;
      const ip = randomIp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        await suite.client({ ip }).post('/api/auth/login', { email, password: 'wrong guess' });
      }
      const response = await suite.client({ ip }).post('/api/auth/login', { email, password: 'wrong guess' });
      const [row] = await suite.db.query<{ left: number }>(
        `SELECT (window_start + interval '15 minutes' - now()) AS w,
                extract(epoch FROM window_start + interval '15 minutes' - now())::float8 AS left
           FROM rate_limits WHERE key = $1 ORDER BY window_start DESC LIMIT 1`,
        [`login:email-client:${email}:${ip}`],
      );
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Math.abs(retryAfter - (row?.left ?? 0))).toBeLessThanOrEqual(3);
      await expectTooMany(response, 15 * 60);
    });

    it('allows 30 logins per IP in 15 minutes; other IPs are unaffected', async () => {
      const ip = randomIp();
      for (let attempt = 1; attempt <= 30; attempt += 1) {
        const response = await suite
          .client({ ip })
          .post('/api/auth/login', { email: `ip.${attempt}.${ip}@example.com`, password: 'wrong guess' });
        expect(response.status).toBe(401);
      }
      await expectTooMany(
        await suite.client({ ip }).post('/api/auth/login', { email: `ip.last.${ip}@example.com`, password: 'x' }),
        15 * 60,
      );
      const account = await createAccount(suite);
      await loggedIn(suite, account);
    });

    it('allows 10 sign-ups per IP an hour', async () => {
      const ip = randomIp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await suite.client({ ip }).post('/api/auth/signup', signupBody())).status).toBe(201);
      }
      const body = signupBody();
      await expectTooMany(await suite.client({ ip }).post('/api/auth/signup', body), 3600);
      const [row] = await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agents WHERE email = $1', [
        body.email,
      ]);
      expect(row?.n).toBe(0);
      expect((await suite.client().post('/api/auth/signup', body)).status).toBe(201);
    });

    it.each(['/api/auth/forgot-password', '/api/auth/resend-verification'])(
      '%s: 5 per e-mail an hour (any IP) and 10 per IP an hour (any e-mail)',
      async (path) => {
        const email = `limits.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
        for (let attempt = 1; attempt <= 5; attempt += 1) {
          expect((await suite.client().post(path, { email })).status).toBe(200);
        }
        await expectTooMany(await suite.client().post(path, { email }), 3600);
        const ip = randomIp();
        for (let attempt = 1; attempt <= 10; attempt += 1) {
          expect((await suite.client({ ip }).post(path, { email: `n${attempt}.${ip}@example.com` })).status).toBe(200);
        }
        await expectTooMany(await suite.client({ ip }).post(path, { email: `last.${ip}@example.com` }), 3600);
      },
    );

    it('puts no per-IP limit on clients of this machine (loopback), only the per-e-mail ones', async () => {
      // The app's default resolver: the socket's address, 127.0.0.1 here.
      const local = await startApi({ db: suite.db, auth: TEST_AUTH });
      try {
        for (let attempt = 1; attempt <= 11; attempt += 1) {
          expect((await local.postJson('/api/auth/signup', signupBody())).status).toBe(201);
        }
        const email = `local.${Date.now()}@example.com`;
        for (let attempt = 1; attempt <= 5; attempt += 1) {
          expect((await local.postJson('/api/auth/forgot-password', { email })).status).toBe(200);
        }
        await expectTooMany(await local.postJson('/api/auth/forgot-password', { email }), 3600);
        const keys = await suite.db.query<{ key: string }>(
          `SELECT key FROM rate_limits WHERE key LIKE '%:ip:127.%' OR key LIKE '%:ip:::%' OR key LIKE '%:ip:unknown'`,
        );
        expect(keys).toEqual([]);
      } finally {
        await local.close();
      }
    });

    it('counts in the database: an old window no longer counts, and old windows are cleaned up', async () => {
      const { enforceRateLimits } = await import('../../src/platform/rate-limit.server.ts');
      const key = `test:old:${Math.random()}`;
      await suite.db.query(
        `INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, now() - interval '2 days', 999)`,
        [key],
      );
      await enforceRateLimits(suite.db, [{ key, limit: 1, windowSeconds: 60 }], { cleanup: true });
      const rows = await suite.db.query<{ hits: number }>('SELECT hits FROM rate_limits WHERE key = $1', [key]);
      expect(rows).toEqual([{ hits: 1 }]);
    });
  });

  describe('no account enumeration, no secrets', () => {
    it('forgot-password and resend-verification answer byte for byte the same for any e-mail', async () => {
      const active = await createAccount(suite);
      const pending = signupBody();
      await suite.client().post('/api/auth/signup', pending);
      const inactive = await createAccount(suite);
      await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [inactive.id]);
      for (const path of ['/api/auth/forgot-password', '/api/auth/resend-verification']) {
        const answers = new Set<string>();
        for (const email of [active.email, pending.email, inactive.email, 'never.registered@example.com']) {
          const response = await suite.client().post(path, { email });
          expect(response.status).toBe(200);
          const headers = [...response.headers].filter(([name]) => !['date', 'content-length'].includes(name));
          answers.add(JSON.stringify([await response.text(), headers]));
        }
        expect(answers.size, path).toBe(1);
      }
    });

    it('runs one scrypt for an unknown e-mail too (no timing oracle)', async () => {
      const account = await createAccount(suite);
      const started = performance.now();
      await hashPassword('time one hash');
      const oneHash = performance.now() - started;
      const time = async (email: string) => {
        const begin = performance.now();
        const response = await suite.client().post('/api/auth/login', { email, password: 'wrong password' });
        expect(response.status).toBe(401);
        return performance.now() - begin;
      };
      const unknown = await time(`nobody.${Date.now()}@example.com`);
      const known = await time(account.email);
      expect(unknown).toBeGreaterThan(oneHash * 0.5);
      expect(known).toBeGreaterThan(oneHash * 0.5);
    });

    it('never answers a password, a hash or a token', async () => {
      const browser = suite.client();
      const body = signupBody({ password: 'Sup3r-Secret-Value' });
      const bodies: string[] = [];
      const keep = async (response: Response) => {
        bodies.push(await response.text());
        return response;
      };
      await keep(await browser.post('/api/auth/signup', body));
      await keep(await browser.post('/api/auth/login', { email: body.email, password: body.password }));
      await keep(await browser.post('/api/auth/resend-verification', { email: body.email }));
      await suite.settle();
      const verifyToken = lastLinkToken(suite.outbox, 'verify-email', body.email);
      await keep(await browser.post('/api/auth/verify-email', { token: verifyToken }));
      await keep(await browser.post('/api/auth/verify-email', { token: verifyToken }));
      await keep(await browser.post('/api/auth/login', { email: body.email, password: body.password }));
      await keep(await browser.get('/api/auth/me'));
      await keep(await browser.post('/api/auth/forgot-password', { email: body.email }));
      await suite.settle();
      const resetToken = lastLinkToken(suite.outbox, 'reset-password', body.email);
      await keep(await browser.post('/api/auth/reset-password', { token: resetToken, password: 'N3w-Secret-Value' }));
      await keep(await browser.post('/api/auth/reset-password', { token: resetToken, password: 'N3w-Secret-Value' }));
      await keep(await browser.post('/api/auth/logout'));
      const [row] = await suite.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM agents WHERE email = $1',
        [body.email],
      );
      const secrets = [
        body.password,
        'N3w-Secret-Value',
        verifyToken,
        resetToken,
        row?.password_hash ?? 'missing',
        'scrypt$',
        TEST_SESSION_SECRET,
      ];
      // Only these keys are ever answered; `fields` maps form fields to messages.
      const topKeys = new Set(['success', 'message', 'error', 'fields', 'agent', 'requires_verification', 'email']);
      const agentKeys = new Set(Object.keys(sessionAgentKeys));
      expect(bodies).toHaveLength(11);
      for (const text of bodies) {
        for (const secret of secrets) expect(text).not.toContain(secret);
        const parsed = z.record(z.string(), z.unknown()).parse(JSON.parse(text));
        for (const key of Object.keys(parsed)) expect(topKeys).toContain(key);
        const agent = z.record(z.string(), z.unknown()).optional().parse(parsed.agent);
        for (const key of Object.keys(agent ?? {})) expect(agentKeys).toContain(key);
        const fields = z.record(z.string(), z.string()).optional().parse(parsed.fields);
        for (const message of Object.values(fields ?? {})) expect(message).not.toMatch(/\$|[A-Za-z0-9_-]{40}/);
      }
    });
  });

  describe('bad requests', () => {
    const sendRaw = (path: string, body: string, contentType?: string) =>
      suite.api.fetch(path, {
        method: 'POST',
        headers: { ...(contentType ? { 'content-type': contentType } : {}), [IP_HEADER]: randomIp() },
        body,
      });

    it.each(POST_PATHS)('%s: malformed JSON, non-objects, 415, 413, chunked 413', async (path) => {
      await expectError(
        await sendRaw(path, '{"email":', 'application/json'),
        400,
        'The request body is not valid JSON',
      );
      await expectError(await sendRaw(path, '', 'application/json'), 400, 'The request body is not valid JSON');
      await expectError(await sendRaw(path, '[]', 'application/json'), 400, 'The request body must be a JSON object');
      await expectError(await sendRaw(path, 'null', 'application/json'), 400, 'The request body must be a JSON object');
      await expectError(await sendRaw(path, '{}', 'text/plain'), 415);
      await expectError(await sendRaw(path, 'email=a@b.co', 'application/x-www-form-urlencoded'), 415);
      await expectError(
        await sendRaw(path, JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70 * 1024) }), 'application/json'),
        413,
        'The request body is larger than 64 KB',
      );
      const chunked = await rawRequest(suite.api.origin, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: Array.from({ length: 10 }, () => `"${'x'.repeat(8 * 1024)}"`),
      });
      expect(chunked.status).toBe(413);
    });

    it.each([...POST_PATHS, '/api/auth/logout', '/api/auth/logout-everywhere'])(
      '%s: other methods answer 405 with Allow: POST',
      async (path) => {
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
          const response = await suite.api.fetch(path, { method });
          expect(response.headers.get('allow')).toBe('POST');
          await expectError(response, 405, `${method} is not allowed here; use POST`);
        }
      },
    );

    it('/api/auth/me: other methods answer 405 with Allow: GET, HEAD', async () => {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const response = await suite.api.fetch('/api/auth/me', { method });
        expect(response.headers.get('allow')).toBe('GET, HEAD');
        await expectError(response, 405, `${method} is not allowed here; use GET`);
      }
    });

    it('wrong types are field errors, never 500', async () => {
      const typed = await expectError(
        await suite.client().post('/api/auth/login', { email: ['a@b.co'], password: { x: 1 } }),
        400,
      );
      expect(typed.fields).toEqual({ email: 'Email is required', password: 'Password is required' });
      const signup = await expectError(
        await suite.client().post('/api/auth/signup', { ...signupBody(), phone: 5, brokerage: 7 }),
        400,
      );
      expect(signup.fields).toEqual({ phone: 'Phone must be text', brokerage: 'Brokerage must be text' });
    });
  });

  describe('round trips', () => {
    async function roundTripsOf(call: () => Promise<Response>, status: number): Promise<number> {
      const before = suite.db.roundTrips;
      const response = await call();
      const text = await response.text();
      expect(response.status, text).toBe(status);
      await suite.settle();
      return suite.db.roundTrips - before;
    }

    it('GET /api/auth/me makes exactly 1 (and none without a valid cookie)', async () => {
      const account = await createAccount(suite);
      const client = await loggedIn(suite, account);
      expect(await roundTripsOf(() => client.get('/api/auth/me'), 200)).toBe(1);
      expect(await roundTripsOf(() => suite.client().get('/api/auth/me'), 401)).toBe(0);
      expect(
        await roundTripsOf(() => suite.client().get('/api/auth/me', { cookie: 'nts_session=forged.token.here' }), 401),
      ).toBe(0);
    });

    it('the other calls keep to their budgets', async () => {
      // Sign-up: 1 rate limit + 1 statement; the e-mail's delivery after the response adds its 2.
      const body = signupBody();
      expect(await roundTripsOf(() => suite.client().post('/api/auth/signup', body), 201)).toBe(2 + 2);
      expect(await roundTripsOf(() => suite.client().post('/api/auth/signup', body), 409)).toBe(2);
      // Resend and forgot: 1 rate limit + 1 statement (+ 2 for the delivery when there is one).
      expect(
        await roundTripsOf(() => suite.client().post('/api/auth/resend-verification', { email: body.email }), 200),
      ).toBe(2 + 2);
      expect(
        await roundTripsOf(() => suite.client().post('/api/auth/forgot-password', { email: body.email }), 200),
      ).toBe(2 + 2);
      expect(
        await roundTripsOf(
          () => suite.client().post('/api/auth/forgot-password', { email: 'nobody.at.all@example.com' }),
          200,
        ),
      ).toBe(2);
      const verifyToken = lastLinkToken(suite.outbox, 'verify-email', body.email);
      const resetToken = lastLinkToken(suite.outbox, 'reset-password', body.email);
      // Verify: 1 rate limit + 1 statement. Reset: 1 rate limit, 1 check, then 1 statement.
      expect(await roundTripsOf(() => suite.client().post('/api/auth/verify-email', { token: verifyToken }), 200)).toBe(
        2,
      );
      expect(
        await roundTripsOf(
          () => suite.client().post('/api/auth/reset-password', { token: resetToken, password: 'a new password here' }),
          200,
        ),
      ).toBe(3);
      expect(
        await roundTripsOf(
          () => suite.client().post('/api/auth/reset-password', { token: resetToken, password: 'a new password here' }),
          400,
        ),
      ).toBe(2);
      // Login: 1 rate limit + 1 lookup, and on success 1 write (the sign-in's time, minor 25).
      const account = { email: body.email, password: 'a new password here' };
      expect(await roundTripsOf(() => suite.client().post('/api/auth/login', account), 200)).toBe(3);
      expect(
        await roundTripsOf(
          () => suite.client().post('/api/auth/login', { ...account, password: 'wrong password' }),
          401,
        ),
      ).toBe(2);
      expect(await roundTripsOf(() => suite.client().post('/api/auth/logout'), 200)).toBe(0);
      const client = await loggedIn(suite, account);
      expect(await roundTripsOf(() => client.post('/api/auth/logout-everywhere'), 200)).toBe(1);
    });
  });
});
