/**
 * The account calls' database round trips, over HTTP on both backends: the current agent, sign-up,
 * resend, forgot, verify, reset, login and logout each keep to their budget.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { createAccount, lastLinkToken, loggedIn, signupBody, useAuthSuite } from '../support/auth-suite.ts';

describe.each(BACKENDS)('account security on %s', (backend) => {
  const suite = useAuthSuite(backend, 'authsec');
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
