/**
 * What an attacker tries with the e-mailed tokens, over HTTP on both backends: how they are stored
 * and how long they last; replayed, altered, unknown, expired, superseded, cross-purpose and
 * raced tokens.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { okResponse, sessionVersion } from '../support/auth-security-helpers.ts';
import {
  createAccount,
  lastLinkToken,
  loggedIn,
  signupBody,
  useAuthSuite,
  type AuthSuite,
} from '../support/auth-suite.ts';
const INVALID_LINK = 'This link is invalid or has already been used.';

/** The agent's active tokens' expiry moved into the past, as if the link had waited too long. */
async function expireTokens(suite: AuthSuite, agentId: number): Promise<void> {
  await suite.db.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE agent_id = $1`, [
    agentId,
  ]);
}

describe.each(BACKENDS)('account security on %s', (backend) => {
  const suite = useAuthSuite(backend, 'authsec');
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
});
