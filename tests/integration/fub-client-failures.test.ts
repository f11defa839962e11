/**
 * The Follow Up Boss client against the local fake (tests/fakes/fub.ts) over HTTP: rate limits,
 * refusals, and FUB failing, slow or hanging up. No database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fubClient, type FubCredentials } from '../../src/features/crm/fub-client.server.ts';
import { startFakeFub, type FakeFub } from '../fakes/fub.ts';
import { anyNumber, matching } from '../support/api-suite.ts';
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

describe('rate limits', () => {
  it('answers rate-limited with Retry-After in seconds', async () => {
    fub.trouble({ kind: 'rate-limit', retryAfter: 7 });
    const answer = await client().sendEvent(credentials(), sellerInquiry());
    expect(answer).toEqual({ kind: 'rate-limited', status: 429, retryAfterSeconds: 7 });
    expect(fub.people()).toEqual([]);
  });

  it('reads Retry-After as an HTTP date, and waits FUB’s 10 s window when it is missing', async () => {
    fub.trouble({ kind: 'rate-limit', retryAfter: new Date(Date.now() + 30_000).toUTCString() });
    fub.trouble({ kind: 'rate-limit' });
    const dated = await client().sendEvent(credentials(), sellerInquiry());
    const bare = await client().sendEvent(credentials(), sellerInquiry());
    expect(dated).toEqual({ kind: 'rate-limited', status: 429, retryAfterSeconds: anyNumber() });
    expect(dated.kind === 'rate-limited' ? dated.retryAfterSeconds : 0).toBeGreaterThanOrEqual(29);
    expect(dated.kind === 'rate-limited' ? dated.retryAfterSeconds : 0).toBeLessThanOrEqual(31);
    expect(bare).toEqual({ kind: 'rate-limited', status: 429, retryAfterSeconds: 10 });
  });

  it('answers 429 on its own once the window’s limit is used, with the seconds until it frees', async () => {
    fub.setLimit('POST.events', 2);
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await client().sendEvent(credentials(), sellerInquiry()));
    expect(answers.map((answer) => answer.kind)).toEqual(['created', 'updated', 'rate-limited']);
    const limited = answers[2];
    expect(limited?.kind === 'rate-limited' ? limited.retryAfterSeconds : 0).toBeGreaterThanOrEqual(9);
    expect(limited?.kind === 'rate-limited' ? limited.retryAfterSeconds : 0).toBeLessThanOrEqual(10);
    expect(fub.requests.map((request) => request.status)).toEqual([201, 200, 429]);
    expect(fub.events).toHaveLength(2);
    const raw = await fetch(`${fub.url}/v1/events`, {
      method: 'POST',
      headers: { authorization: basicOf(fub.apiKey), 'content-type': 'application/json' },
      body: JSON.stringify(sellerInquiry()),
    });
    expect(raw.status).toBe(429);
    expect(Object.fromEntries(raw.headers)).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-window': '10',
      'x-ratelimit-context': 'POST.events',
      'retry-after': matching(/^(9|10)$/),
    });
  });

  it('counts GET /v1/events apart from the global context', async () => {
    fub.setLimit('events', 1);
    const get = () => fetch(`${fub.url}/v1/events`, { headers: { authorization: basicOf(fub.apiKey) } });
    const firstList = await get();
    const secondList = await get();
    const identity = await client().identity(credentials());
    expect([firstList.status, secondList.status]).toEqual([200, 429]);
    expect(secondList.headers.get('x-ratelimit-context')).toBe('events');
    expect(identity.ok).toBe(true);
  });
});

describe('refusals and failures', () => {
  it('answers 401 with FUB’s realm, JSON type and errorMessage, without rate-limit headers', async () => {
    const raw = await fetch(`${fub.url}/v1/events`, {
      method: 'POST',
      headers: { authorization: basicOf('unknown-key'), 'content-type': 'application/json' },
      body: JSON.stringify(sellerInquiry()),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Basic realm="Follow Up Boss API"');
    expect(raw.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(raw.headers.get('x-ratelimit-limit')).toBeNull();
    expect(await raw.json()).toEqual({ errorMessage: matching(/Authentication is required/) });
    const answer = await client().sendEvent(credentials({ apiKey: 'unknown-key' }), sellerInquiry());
    expect(answer).toEqual({
      kind: 'refused',
      status: 401,
      message: matching(/^Follow Up Boss refused the API key: Authentication is required/),
    });
    expect(fub.people()).toEqual([]);
  });

  it('still takes events from an expired account (no data loss) while refusing the rest', async () => {
    fub.expireAccount(fub.apiKey);
    const created = await client().sendEvent(credentials(), sellerInquiry());
    const updated = await client().sendEvent(credentials(), sellerInquiry());
    const identity = await client().identity(credentials());
    expect([created.kind, updated.kind]).toEqual(['created', 'updated']);
    expect(identity).toMatchObject({ ok: false, answer: { kind: 'refused', status: 403 } });
  });

  it('answers unavailable to 500 and 503, and to a service down until it is back', async () => {
    fub.trouble({ kind: 'server-error' });
    fub.trouble({ kind: 'server-error', status: 503 });
    const first = await client().sendEvent(credentials(), sellerInquiry());
    const second = await client().sendEvent(credentials(), sellerInquiry());
    fub.down(504);
    const down = await client().sendEvent(credentials(), sellerInquiry());
    const downIdentity = await client().identity(credentials());
    fub.up();
    const back = await client().sendEvent(credentials(), sellerInquiry());
    expect([first, second, down]).toEqual([
      { kind: 'unavailable', status: 500, message: 'Follow Up Boss is not answering (500)' },
      { kind: 'unavailable', status: 503, message: 'Follow Up Boss is not answering (503)' },
      { kind: 'unavailable', status: 504, message: 'Follow Up Boss is not answering (504)' },
    ]);
    expect(downIdentity).toEqual({
      ok: false,
      answer: { kind: 'unavailable', status: 504, message: 'Follow Up Boss is not answering (504)' },
    });
    expect(back.kind).toBe('created');
  });

  it('answers unavailable when FUB is slower than the time limit', async () => {
    fub.trouble({ kind: 'slow', ms: 2_000 });
    const answer = await client().sendEvent(credentials(), sellerInquiry(), { timeoutMs: 200 });
    expect(answer).toEqual({
      kind: 'unavailable',
      status: null,
      message: 'Follow Up Boss did not answer within 0.2 s',
    });
  });

  it('answers a slow FUB within the time limit normally', async () => {
    fub.trouble({ kind: 'slow', ms: 100 });
    const answer = await client().sendEvent(credentials(), sellerInquiry(), { timeoutMs: 5_000 });
    expect(answer.kind).toBe('created');
  });

  it('answers unavailable when the connection is dropped', async () => {
    fub.trouble({ kind: 'drop' });
    const answer = await client().identity(credentials());
    expect(answer).toEqual({
      ok: false,
      answer: { kind: 'unavailable', status: null, message: 'Could not reach Follow Up Boss' },
    });
    expect(fub.requests.map((request) => request.status)).toEqual([0]);
  });

  it('answers rejected to another 4xx (a FUB_API_URL with a wrong path)', async () => {
    const answer = await fubClient(`${fub.url}/api/`).sendEvent(credentials(), sellerInquiry());
    expect(answer).toEqual({
      kind: 'rejected',
      status: 404,
      message: 'Follow Up Boss rejected the lead (404): The requested resource was not found.',
    });
  });
});
