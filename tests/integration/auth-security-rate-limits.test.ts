/**
 * Brute force against the account calls, over HTTP on both backends: the login, sign-up,
 * forgot-password and resend-verification limits per e-mail and per IP, Retry-After, no per-IP
 * limit for loopback clients, and the counters kept in the database.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectTooMany } from '../support/api-suite.ts';
import { createAccount, loggedIn, randomIp, signupBody, TEST_AUTH, useAuthSuite } from '../support/auth-suite.ts';
import { startApi } from '../support/http.ts';

describe.each(BACKENDS)('account security on %s', (backend) => {
  const suite = useAuthSuite(backend, 'authsec');
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
});
