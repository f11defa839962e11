import { describe, expect, it } from 'vitest';
import { readSession, sessionKeyFrom, signSession, SESSION_TTL_SECONDS, type AuthConfig } from './sessions.server.ts';

const config: AuthConfig = {
  sessionKey: sessionKeyFrom('unit-test-secret-0123456789abcdefghijkl'),
  secureCookies: false,
};

describe('session tokens', () => {
  it('round-trips the agent id and session version, HS256, expiring after 7 days', async () => {
    const now = new Date();
    const token = await signSession(config, { agentId: 42, version: 3 }, now);
    const [header = '', payload = ''] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const iat = Math.floor(now.getTime() / 1000);
    expect(claims).toEqual({ sub: '42', ver: 3, iat, exp: iat + SESSION_TTL_SECONDS });
    expect(SESSION_TTL_SECONDS).toBe(604800);
    expect(await readSession(config, token)).toEqual({ agentId: 42, version: 3 });
  });

  it('refuses a token signed with another key or already expired', async () => {
    const other: AuthConfig = { ...config, sessionKey: sessionKeyFrom('another-secret-0123456789abcdefghijklmn') };
    expect(await readSession(config, await signSession(other, { agentId: 1, version: 1 }))).toBeUndefined();
    const old = new Date(Date.now() - (SESSION_TTL_SECONDS + 60) * 1000);
    expect(await readSession(config, await signSession(config, { agentId: 1, version: 1 }, old))).toBeUndefined();
    expect(await readSession(config, 'a.b.c')).toBeUndefined();
  });
});
