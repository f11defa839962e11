/**
 * What an attacker tries with the session cookie, over HTTP on both backends: forged, altered,
 * stale and expired cookies, the sessions of agents made inactive or deleted, the cookie's
 * attributes in production; and cross-site requests that carry it.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { okResponse, sessionVersion } from '../support/auth-security-helpers.ts';
import {
  createAccount,
  forgeSession,
  loggedIn,
  signupBody,
  TEST_AUTH,
  TEST_SESSION_SECRET,
  useAuthSuite,
  type Client,
} from '../support/auth-suite.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';
import { startApi } from '../support/http.ts';
const PLEASE_LOG_IN = 'Please log in';
const CROSS_SITE = 'Cross-site request refused';

const agentResponse = z.object({ success: z.literal(true), agent: z.object({ id: z.number() }).loose() });

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
});
