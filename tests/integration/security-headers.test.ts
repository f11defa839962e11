/**
 * The security headers, as production serves them: every API answer (success, each kind of error,
 * a 429, a signed-in read) carries HSTS, nosniff, a Referrer-Policy, a Permissions-Policy, no
 * framing and no caching, over real HTTP on both backends; and public/_headers, which Netlify and
 * the local site server apply to pages, gives the same to every kind of page (public, dashboard,
 * admin, and the dynamic shells); and the app as production configures it (APP_ENV=production)
 * sets the session cookie HttpOnly, Secure, SameSite=Lax, Path=/ and without a Domain.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/platform/rate-limit.server.ts';
import { appDepsFrom } from '../../src/app/compose.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { headersFor, parseHeaders } from '../../src/platform/netlify-rules.ts';
import { createAccount, loggedIn, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { startApi } from '../support/http.ts';

const HSTS = /^max-age=(\d+); includeSubDomains$/;
const PERMISSIONS = 'camera=(), microphone=(), geolocation=()';

/** Asserts the headers every answer carries; `referrer` is the page's own policy. */
function expectSecurityHeaders(
  get: (name: string) => string | null | undefined,
  referrer = 'strict-origin-when-cross-origin',
) {
  const hsts = HSTS.exec(get('strict-transport-security') ?? '');
  expect(Number(hsts?.[1]), 'HSTS for at least a year').toBeGreaterThanOrEqual(31536000);
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(get('referrer-policy')).toBe(referrer);
  expect(get('permissions-policy')).toBe(PERMISSIONS);
  expect(get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(get('x-frame-options')).toBe('DENY');
}

describe.each(BACKENDS)('API security headers on %s', (backend) => {
  const suite = useAuthSuite(backend, 'security-headers');

  it('every kind of answer carries them; only the public reads may be kept, by the CDN', async () => {
    const account = await createAccount(suite);
    const agent = await loggedIn(suite, account);
    const stranger = suite.client();
    const answers: [string, Promise<Response>, number][] = [
      ['a public write', stranger.post('/api/estimates', { agent_slug: 'alexmorgan', sale_price: 500000 }), 201],
      ['a bad request', stranger.post('/api/estimates', { agent_slug: 'alexmorgan' }), 400],
      ['signed out', stranger.get('/api/leads'), 401],
      ['an unknown route', stranger.get('/api/no/such/route'), 404],
      ['a wrong method', stranger.request('/api/global/settings', { method: 'PUT' }), 405],
      ['a signed-in read', agent.get('/api/agents/me/settings'), 200],
    ];
    for (const [what, pending, status] of answers) {
      const response = await pending;
      await response.body?.cancel();
      expect(response.status, what).toBe(status);
      expectSecurityHeaders((name) => response.headers.get(name));
      expect(response.headers.get('cache-control'), what).toBe('no-store');
    }
    // The same for every visitor: revalidated by browsers, kept by the CDN until purged (decision 0020).
    const read = await stranger.get('/api/global/settings');
    await read.body?.cancel();
    expect(read.status).toBe(200);
    expectSecurityHeaders((name) => read.headers.get(name));
    expect(read.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('a 429 carries them besides its Retry-After', async () => {
    const client = suite.client();
    const verify = () => client.post('/api/auth/verify-email', { token: 'x'.repeat(43) });
    for (let attempt = 0; attempt < LIMITS.verifyPerIp.limit; attempt += 1) await (await verify()).body?.cancel();
    const response = await verify();
    expect(response.status).toBe(429);
    await response.body?.cancel();
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expectSecurityHeaders((name) => response.headers.get(name));
  });
});

describe.each(BACKENDS)('the production configuration on %s', (backend) => {
  const suite = useAuthSuite(backend, 'production-cookies');

  it('sets the session cookie HttpOnly, Secure, SameSite=Lax, for the whole site and this host only', async () => {
    const env = parseEnv({
      APP_ENV: 'production',
      DATABASE_URL: 'postgres://unused.example.com/db',
      SESSION_SECRET: 'production-test-session-secret-0123456789abcdef',
      ENCRYPTION_KEY: 'production-test-encryption-key-0123456789abcdef',
      URL: 'https://homes.example.com',
    });
    const api = await startApi(appDepsFrom(env, suite.db));
    try {
      const account = await createAccount(suite);
      const login = await api.postJson('/api/auth/login', { email: account.email, password: account.password });
      expect(login.status, await login.clone().text()).toBe(200);
      expectSecurityHeaders((name) => login.headers.get(name));
      const [cookie = '', ...others] = login.headers.getSetCookie();
      expect(others).toEqual([]);
      const [pair = '', ...attributes] = cookie.split(';').map((part) => part.trim());
      expect(pair).toMatch(/^nts_session=[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=604800', 'Path=/', 'SameSite=Lax', 'Secure']);
    } finally {
      await api.close();
    }
  });
});

describe('page security headers (public/_headers)', () => {
  const rules = parseHeaders(readFileSync('public/_headers', 'utf8'));
  const pages: [path: string, referrer?: string][] = [
    ['/'],
    ['/long-island-real-estate/huntington/'],
    ['/auth/'],
    ['/dashboard/'],
    ['/dashboard/integrations/'],
    ['/dashboard/updates/'],
    ['/admin/'],
    ['/admin/settings/'],
    ['/r/alexmorgan'],
    ['/estimate/00000000-0000-4000-8000-000000000000', 'no-referrer'],
    ['/offers/00000000-0000-4000-8000-000000000000', 'no-referrer'],
  ];
  it.each(pages)('%s', (path, referrer) => {
    const headers = new Map(headersFor(rules, path).map(([name, value]) => [name.toLowerCase(), value]));
    expectSecurityHeaders((name) => headers.get(name), referrer);
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  });
});
