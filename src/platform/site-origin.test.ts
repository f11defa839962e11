import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { parseEnv, siteUrl } from './env.ts';
import { listen } from '../app/local-server.ts';
import { localOrigin, siteOriginOf } from './site-origin.ts';

/** Newcomer audit minor 33: e-mailed links opened another origin than the one npm start printed. */
describe("the site's origin in development", () => {
  it('is the address the local server announces, so e-mailed links keep the visitor signed in', async () => {
    const { server, url } = await listen(new Hono(), 0);
    try {
      const port = Number(new URL(url).port);
      const env = parseEnv({ PORT: String(port) });
      expect(siteUrl(env)).toBe(url);
      expect(url).toBe(`http://127.0.0.1:${port}`);
      // The e-mails' base URL: the configured origin wins over the request's Host.
      expect(siteOriginOf(siteUrl(env))(new Request(`http://localhost:${port}/api/leads`))).toBe(url);
    } finally {
      server.close();
    }
  });

  it('follows HOST, and SITE_URL when it is set', () => {
    expect(siteUrl(parseEnv({ PORT: '4411', HOST: '0.0.0.0' }))).toBe('http://localhost:4411');
    expect(siteUrl(parseEnv({ PORT: '4411', SITE_URL: 'https://homes.example/' }))).toBe('https://homes.example');
    expect(localOrigin('::1', 4411)).toBe('http://[::1]:4411');
  });

  it('refuses a HOST that is not an address, with a message saying what it takes', () => {
    expect(() => parseEnv({ HOST: 'http://x y' })).toThrow(
      'HOST must be an interface address or host name, such as 127.0.0.1 or 0.0.0.0',
    );
  });
});
