/**
 * The Follow Up Boss client against the local fake (tests/fakes/fub.ts) over HTTP: each answer to
 * an event (new person, known by e-mail, known by phone and name, archived source), finding an
 * event sent before, and the fake's own answers to what the client never sends. No database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fubClient, type FubCredentials } from '../../src/features/crm/fub-client.server.ts';
import { startFakeFub, type FakeFub } from '../fakes/fub.ts';
import { anyNumber, anyString } from '../support/api-suite.ts';
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
