import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  readSession,
  sessionKeyFrom,
  signSession,
  SESSION_TTL_SECONDS,
  type AuthConfig,
} from './public/sessions.server.ts';

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
    // jti: the session's own id, so logout can end this session alone (issue 21, finding 6).
    const session = await readSession(config, token);
    expect(session?.sessionId).toMatch(/^[\w-]{22}$/);
    expect(claims).toEqual({ sub: '42', ver: 3, iat, exp: iat + SESSION_TTL_SECONDS, jti: session?.sessionId });
    expect(SESSION_TTL_SECONDS).toBe(604800);
    expect(session).toEqual({ agentId: 42, version: 3, sessionId: session?.sessionId });
    const other = await signSession(config, { agentId: 42, version: 3 }, now);
    expect((await readSession(config, other))?.sessionId).not.toBe((await readSession(config, token))?.sessionId);
  });

  it('refuses a token signed with another key or already expired', async () => {
    const other: AuthConfig = { ...config, sessionKey: sessionKeyFrom('another-secret-0123456789abcdefghijklmn') };
    expect(await readSession(config, await signSession(other, { agentId: 1, version: 1 }))).toBeUndefined();
    const old = new Date(Date.now() - (SESSION_TTL_SECONDS + 60) * 1000);
    expect(await readSession(config, await signSession(config, { agentId: 1, version: 1 }, old))).toBeUndefined();
    expect(await readSession(config, 'a.b.c')).toBeUndefined();
  });
});

describe('verified tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stop being accepted when they expire, though they were accepted before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const signedAt = new Date(Date.now() - (SESSION_TTL_SECONDS - 5) * 1000);
    const token = await signSession(config, { agentId: 7, version: 2 }, signedAt);
    expect(await readSession(config, token)).toMatchObject({ agentId: 7, version: 2 });
    expect(await readSession(config, token)).toMatchObject({ agentId: 7, version: 2 });
    vi.setSystemTime(Date.now() + 6_000);
    expect(await readSession(config, token)).toBeUndefined();
  });

  it('are accepted only under the key that signed them', async () => {
    const other: AuthConfig = { ...config, sessionKey: sessionKeyFrom('a-third-secret-0123456789abcdefghijklmno') };
    const token = await signSession(config, { agentId: 8, version: 1 });
    expect(await readSession(config, token)).toMatchObject({ agentId: 8, version: 1 });
    expect(await readSession(other, token)).toBeUndefined();
    const [header, payload, signature = ''] = token.split('.');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('A') ? 'B' : 'A'}${signature.slice(-1)}`;
    expect(await readSession(config, `${header}.${payload}.${flipped}`)).toBeUndefined();
  });

  it('keep their claims when many other sessions come and go', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 1_050 }, (_, index) => signSession(config, { agentId: 100 + index, version: 1 })),
    );
    const claims = await Promise.all(tokens.map((token) => readSession(config, token)));
    expect(claims.map((claim) => claim?.agentId)).toEqual(tokens.map((_, index) => 100 + index));
    expect(await readSession(config, tokens[0] ?? '')).toMatchObject({ agentId: 100, version: 1 });
  });
});
