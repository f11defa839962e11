/**
 * The Follow Up Boss client against the local fake (tests/fakes/fub.ts) over HTTP: the key check,
 * each answer to an event (new person, known by e-mail, known by phone and name, archived source),
 * the wire format (Basic auth, the system headers as a pair), rate limits, refusals, FUB failing,
 * slow or hanging up, and the fake's own answers to what the client never sends. No database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fubClient, type FubCredentials, type FubEvent } from '../../src/features/crm/fub-client.server.ts';
import { startFakeFub, type FakeFub } from '../fakes/fub.ts';
import { anyNumber, anyString, matching } from '../support/api-suite.ts';

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

const sellerInquiry = (person: Partial<FubEvent['person']> = {}, source = 'linetproceeds.example.com'): FubEvent => ({
  source,
  system: 'LI Net Proceeds',
  type: 'Seller Inquiry',
  message: 'Estimated net proceeds $512,340.00 on a $650,000.00 sale: https://linetproceeds.example.com/estimate/abc',
  person: {
    firstName: 'Dana',
    lastName: 'Whitaker',
    emails: [{ value: 'dana.whitaker@example.com' }],
    phones: [{ value: '(631) 555-0142' }],
    tags: ['Seller', 'Net Proceeds Calculator'],
    sourceUrl: 'https://linetproceeds.example.com/estimate/abc',
    ...person,
  },
  property: { street: '12 Harbor Rd', city: 'Huntington', state: 'NY', code: '11743', price: 650_000 },
});

const basicOf = (key: string): string => `Basic ${Buffer.from(`${key}:`, 'utf8').toString('base64')}`;

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

describe('POST /v1/events', () => {
  it('creates a new person (201) with the event’s names, contacts, tags, source and link', async () => {
    const answer = await client().sendEvent(credentials(), sellerInquiry());
    expect(answer).toEqual({ kind: 'created', status: 201, personId: anyNumber() });
    expect(fub.people()).toEqual([
      expect.objectContaining({
        id: answer.kind === 'created' ? answer.personId : -1,
        name: 'Dana Whitaker',
        firstName: 'Dana',
        lastName: 'Whitaker',
        stage: 'Lead',
        source: 'linetproceeds.example.com',
        sourceUrl: 'https://linetproceeds.example.com/estimate/abc',
        tags: ['Seller', 'Net Proceeds Calculator'],
        emails: [expect.objectContaining({ value: 'dana.whitaker@example.com', isPrimary: true })],
        phones: [expect.objectContaining({ value: '(631) 555-0142', isPrimary: true })],
      }),
    ]);
    expect(fub.events).toEqual([
      expect.objectContaining({
        status: 201,
        type: 'Seller Inquiry',
        body: sellerInquiry(),
      }),
    ]);
  });

  it('updates the person already known by e-mail (200), any case, merging tags and keeping the first source', async () => {
    const first = await client().sendEvent(
      credentials(),
      sellerInquiry({ emails: [{ value: 'Dana.Whitaker@Example.com' }] }),
    );
    const again = await client().sendEvent(
      credentials(),
      sellerInquiry(
        {
          firstName: 'D.',
          emails: [{ value: 'dana.whitaker@EXAMPLE.com' }],
          phones: [{ value: '516-555-0199' }],
          tags: ['Seller', 'Returning'],
          sourceUrl: 'https://elsewhere.example.com/lead/9',
        },
        'another-site.example.com',
      ),
    );
    expect(first.kind).toBe('created');
    expect(again).toEqual({ kind: 'updated', status: 200, personId: first.kind === 'created' ? first.personId : -1 });
    const [person, ...others] = fub.people();
    expect(others).toEqual([]);
    expect(person).toMatchObject({
      source: 'linetproceeds.example.com',
      sourceUrl: 'https://linetproceeds.example.com/estimate/abc',
      tags: ['Seller', 'Net Proceeds Calculator', 'Returning'],
      emails: [expect.objectContaining({ value: 'Dana.Whitaker@Example.com' })],
      phones: [
        expect.objectContaining({ value: '(631) 555-0142' }),
        expect.objectContaining({ value: '516-555-0199' }),
      ],
    });
  });

  it('matches by phone only together with the same first and last name', async () => {
    const first = await client().sendEvent(credentials(), sellerInquiry());
    const samePhoneAndName = await client().sendEvent(
      credentials(),
      sellerInquiry({
        firstName: 'dana',
        emails: [{ value: 'dw@work.example.com' }],
        phones: [{ value: '+1 631 555 0142' }],
      }),
    );
    const samePhoneOtherName = await client().sendEvent(
      credentials(),
      sellerInquiry({
        firstName: 'Chris',
        emails: [{ value: 'chris@example.com' }],
        phones: [{ value: '631-555-0142' }],
      }),
    );
    expect(samePhoneAndName).toEqual({
      kind: 'updated',
      status: 200,
      personId: first.kind === 'created' ? first.personId : -1,
    });
    expect(samePhoneOtherName).toMatchObject({ kind: 'created', status: 201 });
    expect(fub.people().map((person) => person.emails.map((email) => email.value))).toEqual([
      ['dana.whitaker@example.com', 'dw@work.example.com'],
      ['chris@example.com'],
    ]);
  });

  it('answers archived (204, no body) when the source’s lead flow is archived, and nobody is created', async () => {
    fub.archiveSource('linetproceeds.example.com');
    const answer = await client().sendEvent(credentials(), sellerInquiry());
    expect(answer).toEqual({ kind: 'archived', status: 204 });
    expect(fub.people()).toEqual([]);
    expect(fub.events).toEqual([expect.objectContaining({ status: 204, personId: null })]);
  });

  it('keeps people of different accounts apart', async () => {
    const other = fub.addAccount();
    await client().sendEvent(credentials(), sellerInquiry());
    const answer = await client().sendEvent(credentials({ apiKey: other.apiKey }), sellerInquiry());
    expect(answer.kind).toBe('created');
    expect(fub.people(other.apiKey)).toHaveLength(1);
  });
});

describe('finding an event sent before (GET /v1/people?email=, GET /v1/events?personId=)', () => {
  const mark = (reference: string) => ({
    email: 'DANA.whitaker@example.com',
    type: 'Seller Inquiry' as const,
    reference,
  });

  it('finds the event by the reference in its description, on a later page, with its person', async () => {
    const sent = await client().sendEvent(credentials(), { ...sellerInquiry(), description: 'Reference: first-one' });
    // 120 later inquiries of the same person: the first is on the second page of 100, newest first.
    for (let i = 0; i < 120; i += 1) {
      await client().sendEvent(credentials(), { ...sellerInquiry(), description: `Reference: later-${i}` });
    }
    const found = await client().findEvent(credentials(), mark('Reference: first-one'));
    expect(found).toEqual({ kind: 'found', status: 200, personId: sent.kind === 'created' ? sent.personId : -1 });
    const lists = fub.requests.filter((request) => request.method === 'GET').map((request) => request.path);
    expect(lists).toEqual(['/v1/people', '/v1/events', '/v1/events']);
  });

  it('finds a person whose e-mail holds a plus', async () => {
    const email = 'dana+home@example.com';
    const event = { ...sellerInquiry({ emails: [{ value: email }] }), description: 'Reference: plus' };
    const sent = await client().sendEvent(credentials(), event);
    const found = await client().findEvent(credentials(), { ...mark('Reference: plus'), email });
    expect(found).toEqual({ kind: 'found', status: 200, personId: sent.kind === 'created' ? sent.personId : -1 });
  });

  it('answers missing for an unknown e-mail, or a known person without the event', async () => {
    expect(await client().findEvent(credentials(), mark('Reference: nothing'))).toEqual({ kind: 'missing' });
    await client().sendEvent(credentials(), { ...sellerInquiry(), description: 'Reference: another' });
    expect(await client().findEvent(credentials(), mark('Reference: nothing'))).toEqual({ kind: 'missing' });
  });

  it('answers rate-limited when the events lookup meets its own, smaller limit', async () => {
    await client().sendEvent(credentials(), { ...sellerInquiry(), description: 'Reference: limited' });
    fub.setLimit('events', 1);
    await fetch(`${fub.url}/v1/events`, { headers: { authorization: basicOf(fub.apiKey) } });
    expect(await client().findEvent(credentials(), mark('Reference: limited'))).toMatchObject({
      kind: 'rate-limited',
      status: 429,
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

describe('the fake’s answers to what the client never sends', () => {
  const post = (body: string) =>
    fetch(`${fub.url}/v1/events`, {
      method: 'POST',
      headers: { authorization: basicOf(fub.apiKey), 'content-type': 'application/json' },
      body,
    });

  it('answers 400 with errorMessage to a body that is not JSON or not an object', async () => {
    const answers = await Promise.all([post('{"person": '), post('[1, 2]'), post('"text"')]);
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(await Promise.all(answers.map((answer) => answer.json()))).toEqual([
      { errorMessage: anyString() },
      { errorMessage: anyString() },
      { errorMessage: anyString() },
    ]);
    expect(fub.people()).toEqual([]);
  });

  it('answers 400 to a zip code sent as a number', async () => {
    const answer = await post(JSON.stringify({ ...sellerInquiry(), property: { street: '1 Main St', code: 11743 } }));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ errorMessage: "Invalid value for 'property.code'." });
  });

  it('answers 404 to an unknown person.id, and 200 to a known one', async () => {
    const unknown = await post(JSON.stringify({ ...sellerInquiry(), person: { id: 999 } }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errorMessage: anyString() });
    const created = await client().sendEvent(credentials(), sellerInquiry());
    const personId = created.kind === 'created' ? created.personId : -1;
    const known = await post(JSON.stringify({ ...sellerInquiry(), person: { id: personId, tags: ['Direct'] } }));
    expect(known.status).toBe(200);
    expect(await known.json()).toMatchObject({ id: personId, tags: ['Seller', 'Net Proceeds Calculator', 'Direct'] });
  });
});
