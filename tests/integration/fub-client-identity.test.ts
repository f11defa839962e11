/**
 * The Follow Up Boss client against the local fake (tests/fakes/fub.ts) over HTTP: the key check
 * (GET /v1/identity) and the wire format (Basic auth, JSON types, the system headers as a pair).
 * No database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fubClient, type FubCredentials } from '../../src/features/crm/fub-client.server.ts';
import { startFakeFub, type FakeFub } from '../fakes/fub.ts';
import { matching } from '../support/api-suite.ts';
import { sellerInquiry, basicOf } from '../support/fub-client-suite.ts';

let fub: FakeFub;
beforeAll(async () => {
  fub = await startFakeFub();
});
afterAll(() => fub.close());
afterEach(() => fub.reset());

const client = () => fubClient(fub.url);
const credentials = (overrides: Partial<FubCredentials> = {}): FubCredentials => ({
  apiKey: fub.apiKey,
  system: null,
  systemKey: null,
  ...overrides,
});

describe('GET /v1/identity', () => {
  it('names the account and user a valid key belongs to', async () => {
    const account = fub.addAccount({
      account: { name: 'Harbor Point Realty', domain: 'harborpoint' },
      user: { name: 'Maria Lopez', email: 'maria@harborpoint.example.com' },
    });
    const result = await client().identity(credentials({ apiKey: account.apiKey }));
    expect(result).toEqual({
      ok: true,
      identity: {
        accountId: account.account.id,
        accountName: 'Harbor Point Realty',
        domain: 'harborpoint',
        userName: 'Maria Lopez',
        userEmail: 'maria@harborpoint.example.com',
      },
    });
    expect(fub.requests.at(-1)?.headers.authorization).toBe(basicOf(account.apiKey));
  });

  it('names the account by its domain when FUB leaves the name out, as in its documented example', async () => {
    const account = fub.addAccount({ account: { name: null, domain: 'example' } });
    const result = await client().identity(credentials({ apiKey: account.apiKey }));
    expect(result).toMatchObject({ ok: true, identity: { accountName: 'example', domain: 'example' } });
  });

  it('answers refused (401) with FUB’s errorMessage for an unknown key, never repeating the key', async () => {
    const apiKey = 'fka_0000_not_a_real_key';
    const result = await client().identity(credentials({ apiKey }));
    expect(result).toEqual({
      ok: false,
      answer: {
        kind: 'refused',
        status: 401,
        message: matching(/^Follow Up Boss refused the API key: Authentication is required\./),
      },
    });
    expect(JSON.stringify(result)).not.toContain(apiKey);
  });

  it('answers refused (403) for an expired account', async () => {
    fub.expireAccount(fub.apiKey);
    const result = await client().identity(credentials());
    expect(result).toEqual({
      ok: false,
      answer: {
        kind: 'refused',
        status: 403,
        message: matching(/^Follow Up Boss refused access: .*expired/),
      },
    });
  });
});

describe('headers', () => {
  it('sends Basic auth with the key and an empty password, JSON types and a User-Agent', async () => {
    await client().sendEvent(credentials(), sellerInquiry());
    const [event] = fub.events;
    expect(event?.headers.authorization).toBe(basicOf(fub.apiKey));
    expect(event?.headers.userAgent).toMatch(/li-net-to-seller/);
    expect(fub.requests[0]?.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' });
  });

  it('sends X-System and X-System-Key only when both are set', async () => {
    fub.registerSystem('LINetProceeds', 'sys-key-123');
    await client().sendEvent(credentials({ system: 'LINetProceeds', systemKey: 'sys-key-123' }), sellerInquiry());
    await client().sendEvent(credentials({ system: 'LINetProceeds', systemKey: null }), sellerInquiry());
    await client().sendEvent(credentials({ system: null, systemKey: 'sys-key-123' }), sellerInquiry());
    await client().sendEvent(credentials({ system: '', systemKey: 'sys-key-123' }), sellerInquiry());
    expect(fub.events.map((event) => [event.headers.system, event.headers.systemKey])).toEqual([
      ['LINetProceeds', 'sys-key-123'],
      [null, null],
      [null, null],
      [null, null],
    ]);
  });

  it('gets the registered system’s higher limit with both known headers, and the halved one otherwise', async () => {
    fub.registerSystem('LINetProceeds', 'sys-key-123');
    const identity = (system: Record<string, string>) =>
      fetch(`${fub.url}/v1/identity`, { headers: { authorization: basicOf(fub.apiKey), ...system } });
    const answers = [
      await identity({ 'X-System': 'LINetProceeds', 'X-System-Key': 'sys-key-123' }),
      await identity({ 'X-System': 'LINetProceeds', 'X-System-Key': 'wrong-key' }),
      await identity({}),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-limit'))).toEqual(['250', '125', '125']);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['249', '123', '122']);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-context'))).toEqual(['global', 'global', 'global']);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-window'))).toEqual(['10', '10', '10']);
  });
});
