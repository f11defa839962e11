/**
 * The matrix's rows of accounts: sign-up, verification, login, password resets, e-mail changes and
 * logging out, the same for everyone signed in or not, and the signed-in caller's own account.
 */
import { randomBytes } from 'node:crypto';
import { hashToken } from '../../../src/features/auth/public/tokens.server.ts';
import { signupBody, type AuthSuite } from '../../support/auth-suite.ts';
import { createAgent } from '../../support/fixtures.ts';
import { email, everyone, signedIn, type MatrixRow } from './cells.ts';
import { PASSWORD } from './party.ts';

/** A new agent with a usable e-mail token (as the e-mailed link carries) for `purpose`. */
async function tokenFor(
  suite: AuthSuite,
  purpose: 'verify_email' | 'reset_password' | 'change_email' | 'undo_email_change',
): Promise<string> {
  const agent = await createAgent(suite.db, { status: purpose === 'verify_email' ? 'pending' : 'active' });
  const token = randomBytes(32).toString('base64url');
  // An e-mail change's tokens name their address: the pending new one, or the old one to restore.
  const address = `${purpose}.${randomBytes(4).toString('hex')}@example.com`;
  if (purpose === 'change_email') {
    await suite.db.query('UPDATE agents SET pending_email = $2 WHERE id = $1', [agent.id, address]);
  }
  await suite.db.query(
    `INSERT INTO auth_tokens (token_hash, agent_id, purpose, expires_at, email)
     VALUES ($1, $2, $3, now() + interval '1 hour', $4)`,
    [hashToken(token), agent.id, purpose, address],
  );
  return token;
}

export const ACCOUNT_ROWS: Record<string, MatrixRow> = {
  // Accounts: the same for everyone, signed in or not (logging in as A switches the browser to A).
  'POST /api/auth/signup': { request: () => ({ path: '/api/auth/signup', json: signupBody() }), expect: everyone(201) },
  'POST /api/auth/verify-email': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/verify-email',
      json: { token: await tokenFor(suite, 'verify_email') },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/login': {
    request: (w) => ({ path: '/api/auth/login', json: { email: w.a.email, password: PASSWORD } }),
    expect: everyone(200, (w) => [w.a.email]),
  },
  'POST /api/auth/resend-verification': {
    request: (w) => ({ path: '/api/auth/resend-verification', json: { email: w.a.email } }),
    expect: everyone(200),
  },
  'POST /api/auth/forgot-password': {
    request: (w) => ({ path: '/api/auth/forgot-password', json: { email: w.a.email } }),
    expect: everyone(200),
  },
  'POST /api/auth/reset-password': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/reset-password',
      json: { token: await tokenFor(suite, 'reset_password'), password: 'a brand new password' },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/logout': { request: () => ({ path: '/api/auth/logout', json: {} }), expect: everyone(200) },
  'POST /api/auth/confirm-email-change': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/confirm-email-change',
      json: { token: await tokenFor(suite, 'change_email') },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/undo-email-change': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/undo-email-change',
      json: { token: await tokenFor(suite, 'undo_email_change') },
    }),
    expect: everyone(200),
  },
  'GET /api/auth/me': { request: () => ({ path: '/api/auth/me' }), expect: signedIn(200, email) },
  'POST /api/auth/logout-everywhere': {
    request: () => ({ path: '/api/auth/logout-everywhere', json: {} }),
    expect: signedIn(200),
  },
};
