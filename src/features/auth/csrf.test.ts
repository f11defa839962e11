import { describe, expect, it } from 'vitest';
import { isSameOrigin } from './csrf.server.ts';

const request = (headers: Record<string, string>, url = 'https://homes.example.com/api/auth/logout') =>
  new Request(url, { method: 'POST', headers });

describe('isSameOrigin', () => {
  it('accepts the request’s own origin on any host and port', () => {
    expect(isSameOrigin(request({ origin: 'https://homes.example.com' }))).toBe(true);
    expect(isSameOrigin(request({ origin: 'http://localhost:4321' }, 'http://localhost:4321/api/x'))).toBe(true);
    expect(
      isSameOrigin(request({ origin: 'https://preview--site.netlify.app' }, 'https://preview--site.netlify.app/api/x')),
    ).toBe(true);
  });

  it('accepts Sec-Fetch-Site: same-origin, and trusted origins', () => {
    expect(isSameOrigin(request({ 'sec-fetch-site': 'same-origin' }))).toBe(true);
    expect(isSameOrigin(request({ origin: 'https://www.example.com' }), ['https://www.example.com'])).toBe(true);
  });

  it('refuses other origins, null, other schemes or ports, cross-site and missing headers', () => {
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://homes.example.com' },
      { origin: 'https://homes.example.com:8443' },
      { origin: 'https://homes.example.com.evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of refused) {
      expect(isSameOrigin(request(headers)), JSON.stringify(headers)).toBe(false);
    }
  });
});
