/**
 * Account enumeration and secrets, over HTTP on both backends: the same answer and the same work
 * for any e-mail, and no password, hash, token or session secret in any answer.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { hashPassword } from '../../src/features/auth/public/passwords.server.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAccount, lastLinkToken, signupBody, TEST_SESSION_SECRET, useAuthSuite } from '../support/auth-suite.ts';

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

describe.each(BACKENDS)('account security on %s', (backend) => {
  const suite = useAuthSuite(backend, 'authsec');
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
});
