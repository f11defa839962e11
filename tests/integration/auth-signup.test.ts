/**
 * Sign-up end to end over HTTP, on both backends: the verification e-mail in the outbox,
 * verification, login, the current agent and logout in one walk; what sign-up stores (e-mail and
 * slug as typed or normalised, never is_admin) and its duplicate checks.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import {
  agentByEmail,
  agentResponse,
  messageResponse,
  okResponse,
  SIGNED_UP,
  VERIFIED,
  verificationRequired,
} from '../support/account-flows.ts';
import { createAccount, lastLinkToken, loggedIn, signupBody, useAuthSuite } from '../support/auth-suite.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';

describe.each(BACKENDS)('agent accounts on %s', (backend) => {
  const suite = useAuthSuite(backend, 'auth');
  describe('sign-up, verification, login, me, logout', () => {
    it('walks the whole flow with the e-mailed link', async () => {
      const browser = suite.client();
      const body = signupBody({ phone: '(631) 555-0142' });
      await expectJson(await browser.post('/api/auth/signup', body), 201, messageResponse(SIGNED_UP));
      expect(browser.session).toBeUndefined();

      const pending = await agentByEmail(suite, body.email);
      expect(pending).toMatchObject({
        status: 'pending',
        is_admin: false,
        email_verified_at: null,
        session_version: 1,
      });
      expect(pending?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      const [settings] = await suite.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM agent_settings WHERE agent_id = $1',
        [pending?.id],
      );
      expect(settings?.n).toBe(1);

      // Pending: the right password is told to verify first.
      const early = await browser.post('/api/auth/login', { email: body.email, password: body.password });
      expect(await expectJson(early, 403, verificationRequired)).toMatchObject({ email: body.email });
      expect(browser.session).toBeUndefined();

      await suite.settle();
      const [delivery] = await suite.db.query<{ kind: string; status: string; to_email: string; html: string }>(
        `SELECT kind, status, to_email, html FROM email_deliveries WHERE to_email = $1`,
        [body.email],
      );
      expect(delivery).toMatchObject({ kind: 'verify_email', status: 'sent', to_email: body.email });
      const token = lastLinkToken(suite.outbox, 'verify-email', body.email);
      expect(delivery?.html).toContain(`${TEST_SITE_URL}/verify-email?token=${token}`);
      expect(delivery?.html).toContain('Hi Pat,');

      await expectJson(await browser.post('/api/auth/verify-email', { token }), 200, messageResponse(VERIFIED));
      const active = await agentByEmail(suite, body.email);
      expect(active?.status).toBe('active');
      expect(active?.email_verified_at).toBeInstanceOf(Date);

      const login = await browser.post('/api/auth/login', { email: body.email, password: body.password });
      const loggedInBody = await expectJson(login, 200, agentResponse);
      expect(loggedInBody.agent).toEqual({
        id: active?.id,
        first_name: 'Pat',
        last_name: 'Quinn',
        email: body.email,
        phone: '(631) 555-0142',
        slug: body.slug,
        brokerage: 'Harbor Point Realty (demo)',
        status: 'active',
        is_admin: false,
        professional_title: null,
      });
      const setCookie = login.headers.getSetCookie().find((cookie) => cookie.startsWith('nts_session='));
      expect(setCookie).toMatch(/; Max-Age=604800/);
      expect(setCookie).toMatch(/; Path=\//);
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Lax/);
      expect(setCookie).not.toMatch(/Secure/);

      const me = await expectJson(await browser.get('/api/auth/me'), 200, agentResponse);
      expect(me.agent).toEqual(loggedInBody.agent);

      const logout = await browser.post('/api/auth/logout');
      await expectJson(logout, 200, okResponse);
      const cleared = logout.headers.getSetCookie().find((cookie) => cookie.startsWith('nts_session='));
      expect(cleared).toMatch(/^nts_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(browser.session).toBeUndefined();
      await expectError(await browser.get('/api/auth/me'), 401, 'Please log in');
    });

    it('ignores is_admin from the client and stores the e-mail trimmed and lower-cased', async () => {
      const body = signupBody({ is_admin: true });
      const typed = `  ${body.email.toUpperCase()}  `;
      await expectJson(
        await suite.client().post('/api/auth/signup', { ...body, email: typed, slug: ` ${body.slug.toUpperCase()} ` }),
        201,
        messageResponse(SIGNED_UP),
      );
      const row = await agentByEmail(suite, body.email);
      expect(row).toMatchObject({ email: body.email, slug: body.slug, is_admin: false, status: 'pending' });
      // The same address in another case is the same account.
      const again = await suite.client().post('/api/auth/signup', { ...signupBody(), email: body.email.toUpperCase() });
      expect((await expectError(again, 409, 'Email already registered')).fields).toEqual({
        email: 'Email already registered',
      });
    });

    it('keeps unicode names as typed', async () => {
      const account = await createAccount(suite, { first_name: 'Zoë', last_name: 'Ñúñez-Þórsdóttir 李' });
      const client = await loggedIn(suite, account);
      const me = await expectJson(await client.get('/api/auth/me'), 200, agentResponse);
      expect(me.agent).toMatchObject({ first_name: 'Zoë', last_name: 'Ñúñez-Þórsdóttir 李' });
    });

    it('logs in with the e-mail in any case and with spaces around it', async () => {
      const account = await createAccount(suite);
      const client = suite.client();
      const response = await client.post('/api/auth/login', {
        email: `  ${account.email.toUpperCase()} `,
        password: account.password,
      });
      await expectJson(response, 200, agentResponse);
    });

    it('answers duplicates with 409 per field and writes nothing', async () => {
      const first = signupBody();
      await expectJson(await suite.client().post('/api/auth/signup', first), 201, messageResponse(SIGNED_UP));
      const count = async () =>
        (await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agents'))[0]?.n ?? 0;
      const deliveries = async () =>
        (await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_deliveries'))[0]?.n ?? 0;
      const before = { agents: await count(), deliveries: await deliveries() };

      const sameEmail = await suite.client().post('/api/auth/signup', { ...signupBody(), email: first.email });
      expect((await expectError(sameEmail, 409, 'Email already registered')).fields).toEqual({
        email: 'Email already registered',
      });
      const sameSlug = await suite.client().post('/api/auth/signup', { ...signupBody(), slug: first.slug });
      expect((await expectError(sameSlug, 409, 'Slug already taken')).fields).toEqual({ slug: 'Slug already taken' });
      const both = await suite
        .client()
        .post('/api/auth/signup', { ...signupBody(), email: first.email, slug: first.slug });
      expect((await expectError(both, 409, 'Email already registered')).fields).toEqual({
        email: 'Email already registered',
        slug: 'Slug already taken',
      });
      // The featured agent's slug and e-mail (seeded, no password) are taken too.
      const featured = await suite.client().post('/api/auth/signup', { ...signupBody(), slug: 'alexmorgan' });
      await expectError(featured, 409, 'Slug already taken');
      expect({ agents: await count(), deliveries: await deliveries() }).toEqual(before);
    });

    it('answers the same duplicate sent twice at once with one 201 and one 409', async () => {
      const body = signupBody();
      const responses = await Promise.all([
        suite.client().post('/api/auth/signup', body),
        suite.client().post('/api/auth/signup', { ...body, slug: `${body.slug}x` }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
      const conflict = responses.find((response) => response.status === 409);
      if (conflict) await expectError(conflict, 409, 'Email already registered');
    });
  });
});
