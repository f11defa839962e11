/**
 * The e-mailed links sent again, over HTTP on both backends: resend-verification (a new link for a
 * pending agent, the same answer for everyone) and forgot and reset password (the link, what a
 * reset ends, the same answer for every e-mail, a pending agent's reset).
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import {
  agentByEmail,
  agentResponse,
  messageResponse,
  PASSWORD_RESET,
  RESENT,
  RESET_SENT,
  SIGNED_UP,
  VERIFIED,
} from '../support/account-flows.ts';
import { createAccount, lastLinkToken, loggedIn, signupBody, useAuthSuite } from '../support/auth-suite.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';

describe.each(BACKENDS)('agent accounts on %s', (backend) => {
  const suite = useAuthSuite(backend, 'auth');
  describe('resend-verification', () => {
    it('sends a new link to a pending agent, and the same answer for everyone else', async () => {
      const body = signupBody();
      await expectJson(await suite.client().post('/api/auth/signup', body), 201, messageResponse(SIGNED_UP));
      await suite.settle();
      const first = lastLinkToken(suite.outbox, 'verify-email', body.email);

      const resend = await suite
        .client()
        .post('/api/auth/resend-verification', { email: ` ${body.email.toUpperCase()}` });
      await expectJson(resend, 200, messageResponse(RESENT));
      await suite.settle();
      const second = lastLinkToken(suite.outbox, 'verify-email', body.email);
      expect(second).not.toBe(first);

      // The older link stopped working when the new one was issued.
      await expectError(
        await suite.client().post('/api/auth/verify-email', { token: first }),
        400,
        'This link is invalid or has already been used.',
      );
      await expectJson(
        await suite.client().post('/api/auth/verify-email', { token: second }),
        200,
        messageResponse(VERIFIED),
      );

      // Active now: nothing more is sent, and the answer does not say so.
      const outboxBefore = suite.outbox.length;
      await expectJson(
        await suite.client().post('/api/auth/resend-verification', { email: body.email }),
        200,
        messageResponse(RESENT),
      );
      await expectJson(
        await suite.client().post('/api/auth/resend-verification', { email: 'no.such.agent@example.com' }),
        200,
        messageResponse(RESENT),
      );
      await suite.settle();
      expect(suite.outbox.length).toBe(outboxBefore);
    });
  });

  describe('forgot and reset password', () => {
    it('resets the password with the e-mailed link; the old password and old sessions stop working', async () => {
      const account = await createAccount(suite);
      const oldSession = await loggedIn(suite, account);
      const otherSession = await loggedIn(suite, account);
      await expectJson(await oldSession.get('/api/auth/me'), 200, agentResponse);

      const browser = suite.client();
      await expectJson(
        await browser.post('/api/auth/forgot-password', { email: account.email.toUpperCase() }),
        200,
        messageResponse(RESET_SENT),
      );
      await suite.settle();
      const token = lastLinkToken(suite.outbox, 'reset-password', account.email);
      const [delivery] = await suite.db.query<{ kind: string; subject: string; text: string }>(
        `SELECT kind, subject, text FROM email_deliveries WHERE to_email = $1 ORDER BY id DESC LIMIT 1`,
        [account.email],
      );
      expect(delivery?.kind).toBe('reset_password');
      expect(delivery?.text).toContain(`${TEST_SITE_URL}/reset-password?token=${token}`);

      const newPassword = 'a brand new passphrase ✓';
      await expectJson(
        await browser.post('/api/auth/reset-password', { token, password: newPassword }),
        200,
        messageResponse(PASSWORD_RESET),
      );
      await expectError(await oldSession.get('/api/auth/me'), 401, 'Please log in');
      await expectError(await otherSession.get('/api/auth/me'), 401, 'Please log in');
      await expectError(
        await suite.client().post('/api/auth/login', { email: account.email, password: account.password }),
        401,
        'Invalid email or password',
      );
      await loggedIn(suite, { email: account.email, password: newPassword });
      // The link is used up.
      await expectError(
        await browser.post('/api/auth/reset-password', { token, password: 'yet another password' }),
        400,
        'This link is invalid or has already been used.',
      );
    });

    it('answers the same for unknown, inactive and featured (no password) accounts, and sends nothing', async () => {
      const inactive = await createAccount(suite);
      await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [inactive.id]);
      for (const email of ['no.such.agent@example.com', inactive.email]) {
        await expectJson(
          await suite.client().post('/api/auth/forgot-password', { email }),
          200,
          messageResponse(RESET_SENT),
        );
      }
      await suite.settle();
      expect(suite.outbox.filter((line) => line.includes('/reset-password?token='))).toEqual([]);
    });

    it('lets a pending agent reset, which does not activate them (finding 5): they still verify', async () => {
      const body = signupBody();
      await expectJson(await suite.client().post('/api/auth/signup', body), 201, messageResponse(SIGNED_UP));
      await expectJson(
        await suite.client().post('/api/auth/forgot-password', { email: body.email }),
        200,
        messageResponse(RESET_SENT),
      );
      await suite.settle();
      const token = lastLinkToken(suite.outbox, 'reset-password', body.email);
      await expectJson(
        await suite.client().post('/api/auth/reset-password', { token, password: 'chosen after reset' }),
        200,
        messageResponse(PASSWORD_RESET),
      );
      // A reset never changes the status (an admin's pending would be undone by it otherwise).
      expect(await agentByEmail(suite, body.email)).toMatchObject({ status: 'pending', email_verified_at: null });
      const early = await suite.client().post('/api/auth/login', { email: body.email, password: 'chosen after reset' });
      expect(early.status).toBe(403);
      await expectJson(
        await suite.client().post('/api/auth/resend-verification', { email: body.email }),
        200,
        messageResponse(RESENT),
      );
      await suite.settle();
      const verify = lastLinkToken(suite.outbox, 'verify-email', body.email);
      expect((await suite.client().post('/api/auth/verify-email', { token: verify })).status).toBe(200);
      await loggedIn(suite, { email: body.email, password: 'chosen after reset' });
    });
  });
});
