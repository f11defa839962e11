/**
 * Login and logout over HTTP, on both backends: one answer for a wrong password and an unknown
 * e-mail, the featured and inactive accounts, old and weaker password hashes; logout with and
 * without a session, and logout-everywhere.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { agentByEmail, agentResponse, okResponse } from '../support/account-flows.ts';
import { createAccount, loggedIn, useAuthSuite } from '../support/auth-suite.ts';

describe.each(BACKENDS)('agent accounts on %s', (backend) => {
  const suite = useAuthSuite(backend, 'auth');
  describe('login', () => {
    it('says only "Invalid email or password" for a wrong password or an unknown e-mail', async () => {
      const account = await createAccount(suite);
      const wrong = await suite.client().post('/api/auth/login', { email: account.email, password: 'not-it-at-all' });
      const unknown = await suite
        .client()
        .post('/api/auth/login', { email: 'nobody.here@example.com', password: account.password });
      const a = await expectError(wrong, 401, 'Invalid email or password');
      const b = await expectError(unknown, 401, 'Invalid email or password');
      expect(a).toEqual(b);
      expect(wrong.headers.getSetCookie()).toEqual([]);
    });

    it('refuses the featured agent (no password yet) like an unknown account', async () => {
      await expectError(
        await suite.client().post('/api/auth/login', { email: 'alex.morgan@example.com', password: 'anything-at-all' }),
        401,
        'Invalid email or password',
      );
    });

    it('refuses an inactive account only with the right password', async () => {
      const account = await createAccount(suite);
      await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [account.id]);
      await expectError(
        await suite.client().post('/api/auth/login', { email: account.email, password: 'wrong-password' }),
        401,
        'Invalid email or password',
      );
      // The right password: the reason, and whom to ask (the first active admin; issue 23, minor 25).
      const helper = await createAccount(suite);
      await suite.db.query(`UPDATE agents SET is_admin = true, status = 'active' WHERE id = $1`, [helper.id]);
      const [admin] = await suite.db.query<{ email: string }>(
        `SELECT email FROM agents WHERE is_admin AND status = 'active' ORDER BY id LIMIT 1`,
      );
      await expectError(
        await suite.client().post('/api/auth/login', { email: account.email, password: account.password }),
        403,
        `This account is inactive: an administrator has turned it off. To use it again, contact the site administrator at ${admin?.email ?? helper.email}.`,
      );
    });

    it('still signs in an account whose password was chosen under the old minimum of 6 (decision 0047)', async () => {
      const { hashPassword } = await import('../../src/features/auth/public/passwords.server.ts');
      const account = await createAccount(suite);
      await suite.db.query('UPDATE agents SET password_hash = $2 WHERE id = $1', [
        account.id,
        await hashPassword('old6ch'),
      ]);
      await expectJson(
        await suite.client().post('/api/auth/login', { email: account.email, password: 'old6ch' }),
        200,
        agentResponse,
      );
    });

    it('upgrades a hash made with weaker parameters at the next login', async () => {
      const { hashPassword } = await import('../../src/features/auth/public/passwords.server.ts');
      const account = await createAccount(suite);
      const weak = await hashPassword(account.password, { N: 1024, r: 8, p: 1 });
      await suite.db.query('UPDATE agents SET password_hash = $2 WHERE id = $1', [account.id, weak]);
      await expectJson(
        await suite.client().post('/api/auth/login', { email: account.email, password: account.password }),
        200,
        agentResponse,
      );
      const upgraded = (await agentByEmail(suite, account.email))?.password_hash;
      expect(upgraded).toMatch(/^scrypt\$32768\$8\$1\$/);
      await loggedIn(suite, account);
    });
  });

  describe('logout', () => {
    it('answers success without a session too', async () => {
      const response = await suite.client().post('/api/auth/logout');
      await expectJson(response, 200, okResponse);
      expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('nts_session=; Max-Age=0'))).toBe(true);
    });

    it('logout-everywhere ends every session of the agent, and needs one', async () => {
      const account = await createAccount(suite);
      const laptop = await loggedIn(suite, account);
      const phone = await loggedIn(suite, account);
      await expectJson(await laptop.post('/api/auth/logout-everywhere'), 200, okResponse);
      expect(laptop.session).toBeUndefined();
      await expectError(await phone.get('/api/auth/me'), 401, 'Please log in');
      await expectError(await phone.post('/api/auth/logout-everywhere'), 401, 'Please log in');
      await expectError(await suite.client().post('/api/auth/logout-everywhere'), 401, 'Please log in');
      // A new login works again.
      await loggedIn(suite, account);
    });

    it('a plain logout leaves other sessions alone', async () => {
      const account = await createAccount(suite);
      const laptop = await loggedIn(suite, account);
      const phone = await loggedIn(suite, account);
      await expectJson(await laptop.post('/api/auth/logout'), 200, okResponse);
      await expectJson(await phone.get('/api/auth/me'), 200, agentResponse);
    });
  });
});
