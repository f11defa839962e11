import { describe, expect, it } from 'vitest';
import { closedSalesFilter, createResoClient, type ResoClientConfig } from './reso-client.server.ts';
import { ResoError } from './reso-error.server.ts';
import { resoFileSource } from './reso-file-source.server.ts';
import {
  parseResoRecord,
  type ClosedSalesQuery,
  type ResoProperty,
  type SkippedRecord,
} from './reso-records.server.ts';

const QUERY: ClosedSalesQuery = { counties: ['Nassau', 'Suffolk'], closedOnOrAfter: '2025-03-16' };

const RECORD = {
  ListingKey: 'K1',
  UnparsedAddress: '12 Main St',
  StreetNumber: '12',
  StreetName: 'Main St',
  City: 'Levittown',
  PostalCode: '11756',
  CountyOrParish: 'Nassau',
  ClosePrice: 650000,
  CloseDate: '2026-01-15',
  BedroomsTotal: 3,
  BathroomsTotalInteger: 2,
  LivingArea: 1650.4,
  PropertyType: 'Residential',
  ListAgentFullName: 'Dana Lopez',
  ListOfficeName: 'Harbor Point Realty',
  ModificationTimestamp: '2026-01-20T15:30:00.1234567Z',
};

const urlOf = (input: string | URL | Request): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

/** A fetch answering from `answer`, recording each call. */
function stubFetch(answer: (call: Call, index: number) => Response): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: (input, init) => {
      const call = {
        url: urlOf(input),
        method: init?.method ?? 'GET',
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : '',
      };
      calls.push(call);
      return Promise.resolve(answer(call, calls.length - 1));
    },
  };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function collect(source: AsyncIterable<ResoProperty>): Promise<ResoProperty[]> {
  const records: ResoProperty[] = [];
  for await (const record of source) records.push(record);
  return records;
}

async function rejection(promise: Promise<unknown>): Promise<ResoError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ResoError) return error;
    throw error;
  }
  throw new Error('expected a ResoError');
}

const BASE = 'https://api.mls.example/odata';
const bearerClient = (config: Partial<ResoClientConfig>) =>
  createResoClient({ baseUrl: BASE, bearerToken: 'static-token', sleep: () => Promise.resolve(), ...config });

describe('the closed-sales query', () => {
  it('asks for closed sales in the counties since the window start, and modified since the position', () => {
    expect(closedSalesFilter(QUERY)).toBe(
      "StandardStatus eq 'Closed' and CloseDate ge 2025-03-16 and " +
        "(CountyOrParish eq 'Nassau' or CountyOrParish eq 'Suffolk')",
    );
    expect(
      closedSalesFilter({ ...QUERY, counties: ["Prince George's"], since: new Date('2026-01-02T03:04:05Z') }),
    ).toBe(
      "StandardStatus eq 'Closed' and CloseDate ge 2025-03-16 and (CountyOrParish eq 'Prince George''s') and " +
        'ModificationTimestamp gt 2026-01-02T03:04:05.000Z',
    );
  });

  it('refuses an empty county list and a bad date', () => {
    expect(() => closedSalesFilter({ ...QUERY, counties: [] })).toThrow(ResoError);
    expect(() => closedSalesFilter({ ...QUERY, closedOnOrAfter: '2025-02-30' })).toThrow(/Not a date/);
  });

  it('encodes spaces as %20 and asks for the fields, order and page size', () => {
    const text = bearerClient({ pageSize: 50 }).closedSalesUrl(QUERY);
    expect(
      text.startsWith(`${BASE}/Property?$filter=StandardStatus%20eq%20'Closed'%20and%20CloseDate%20ge%202025-03-16`),
    ).toBe(true);
    expect(text).not.toContain('+');
    const url = new URL(text);
    expect(url.searchParams.get('$orderby')).toBe('ModificationTimestamp asc');
    expect(url.searchParams.get('$top')).toBe('50');
    expect(url.searchParams.get('$select')?.split(',')).toContain('BathroomsTotalInteger');
  });
});

describe('a Property record', () => {
  it('is read with blanks as null, NULs removed and LivingArea rounded', () => {
    const record = parseResoRecord({
      ...RECORD,
      ListOfficeName: '  ',
      PropertyType: undefined,
      StreetNumber: 12,
      ListAgentFullName: 'Dana\u0000 Lopez',
      '@odata.etag': 'W/"1"',
    });
    expect(record).toMatchObject({
      ListingKey: 'K1',
      StreetNumber: '12',
      ListOfficeName: null,
      PropertyType: null,
      ListAgentFullName: 'Dana Lopez',
      LivingArea: 1650,
      StandardStatus: null,
    });
  });

  it.each([
    ['a price that is text', { ClosePrice: '650000' }, 'ClosePrice'],
    ['a negative price', { ClosePrice: -1 }, 'ClosePrice'],
    ['half a bathroom in the integer field', { BathroomsTotalInteger: 1.5 }, 'BathroomsTotalInteger'],
    ['beds beyond the column', { BedroomsTotal: 5000 }, 'BedroomsTotal'],
    ['a day that does not exist', { CloseDate: '2025-02-29' }, 'CloseDate'],
    ['a timestamp without its offset', { ModificationTimestamp: '2026-01-20T15:30:00' }, 'ModificationTimestamp'],
    ['no address at all', { UnparsedAddress: null, StreetName: '' }, 'UnparsedAddress'],
    ['no ListingKey', { ListingKey: ' ' }, 'ListingKey'],
  ])('with %s is skipped and reported', (_label, change, field) => {
    const skipped: SkippedRecord[] = [];
    expect(parseResoRecord({ ...RECORD, ...change }, (skip) => skipped.push(skip))).toBeUndefined();
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.reason).toContain(field);
    expect(skipped[0]?.listingKey).toBe(field === 'ListingKey' ? ' ' : 'K1');
  });
});

describe('the client', () => {
  it('needs credentials', () => {
    expect(() => createResoClient({ baseUrl: BASE })).toThrow(/bearer token, or a token URL/);
    expect(() => createResoClient({ baseUrl: 'not a url', bearerToken: 'x' })).toThrow(/not a URL/);
  });

  it('follows a relative nextLink and stops at the page without one', async () => {
    const stub = stubFetch((_call, index) =>
      index === 0
        ? json({ value: [RECORD], '@odata.nextLink': 'Property?$skiptoken=abc' })
        : json({ value: [{ ...RECORD, ListingKey: 'K2' }] }),
    );
    const records = await collect(bearerClient({ fetch: stub.fetch }).closedSales(QUERY));
    expect(records.map((record) => record.ListingKey)).toEqual(['K1', 'K2']);
    expect(stub.calls[1]?.url).toBe(`${BASE}/Property?$skiptoken=abc`);
    expect(stub.calls[1]?.headers.get('authorization')).toBe('Bearer static-token');
  });

  it('never sends the token to a nextLink on another host', async () => {
    const stub = stubFetch(() => json({ value: [RECORD], '@odata.nextLink': 'https://evil.example/Property' }));
    const error = await rejection(collect(bearerClient({ fetch: stub.fetch }).closedSales(QUERY)));
    expect(error.kind).toBe('malformed');
    expect(stub.calls).toHaveLength(1);
  });

  it('fails on a nextLink that repeats, and past maxPages', async () => {
    const loop = stubFetch(() => json({ value: [], '@odata.nextLink': `${BASE}/Property?page=2` }));
    expect((await rejection(collect(bearerClient({ fetch: loop.fetch }).closedSales(QUERY)))).message).toMatch(
      /repeats/,
    );
    const endless = stubFetch((_call, index) => json({ value: [], '@odata.nextLink': `${BASE}/Property?p=${index}` }));
    const error = await rejection(collect(bearerClient({ fetch: endless.fetch, maxPages: 3 }).closedSales(QUERY)));
    expect(error.message).toMatch(/more than 3 pages/);
  });

  it('waits a default 5 s (within the bound) for a 429 without Retry-After, and reads an HTTP date', async () => {
    const sleeps: number[] = [];
    const stub = stubFetch((_call, index) =>
      index === 0
        ? json({ error: { code: '429', message: 'slow down' } }, 429)
        : index === 1
          ? json({}, 429, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() })
          : json({ value: [RECORD] }),
    );
    const client = bearerClient({
      fetch: stub.fetch,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    await collect(client.closedSales(QUERY));
    expect(sleeps[0]).toBe(5000);
    // An HTTP date has whole seconds: 30 s from now is 29 to 31 s by the time it is read.
    expect(sleeps[1]).toBeGreaterThanOrEqual(29_000);
    expect(sleeps[1]).toBeLessThanOrEqual(31_000);
  });

  it('fails at once on 429 beyond the bound, with the wait it was asked for', async () => {
    const stub = stubFetch(() => json({}, 429, { 'retry-after': '120' }));
    const error = await rejection(collect(bearerClient({ fetch: stub.fetch }).closedSales(QUERY)));
    expect(error).toMatchObject({ kind: 'rate-limit', status: 429, retryAfterSeconds: 120 });
    expect(stub.calls).toHaveLength(1);
  });

  it('reports the OData error message and never a secret', async () => {
    const stub = stubFetch(() =>
      json({ error: { code: 'BadRequest', message: 'Token static-token is not allowed $select' } }, 400),
    );
    const error = await rejection(collect(bearerClient({ fetch: stub.fetch }).closedSales(QUERY)));
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.message).toBe('The RESO feed answered 400: Token [redacted] is not allowed $select');
  });

  it('shares one token request between concurrent callers, and renews on 401 only once', async () => {
    let issued = 0;
    const stub = stubFetch((call) => {
      if (call.url.endsWith('/token')) {
        issued += 1;
        return json({ access_token: `t${issued}`, token_type: 'Bearer', expires_in: 3600 });
      }
      return json({ error: { code: '401', message: 'expired' } }, 401);
    });
    const client = createResoClient({
      baseUrl: BASE,
      tokenUrl: 'https://auth.mls.example/token',
      clientId: 'id',
      clientSecret: 'secret',
      fetch: stub.fetch,
    });
    const [first, second] = await Promise.all([
      rejection(collect(client.closedSales(QUERY))),
      rejection(collect(client.closedSales(QUERY))),
    ]);
    expect(first.kind).toBe('auth');
    expect(second.kind).toBe('auth');
    const tokenCalls = stub.calls.filter((call) => call.url.endsWith('/token'));
    // One shared first token; each caller renews once after its 401 (the second may reuse the renewal).
    expect(tokenCalls.length).toBeGreaterThanOrEqual(2);
    expect(tokenCalls.length).toBeLessThanOrEqual(3);
    expect(tokenCalls[0]?.body).toBe('grant_type=client_credentials&client_id=id&client_secret=secret');
    expect(tokenCalls[0]?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
  });
});

describe('a file in the RESO response shape', () => {
  const records = [
    RECORD,
    { ...RECORD, ListingKey: 'OLD', CloseDate: '2024-01-01' },
    { ...RECORD, ListingKey: 'QUEENS', CountyOrParish: 'Queens' },
    { ...RECORD, ListingKey: 'ACTIVE', StandardStatus: 'Active' },
    { ...RECORD, ListingKey: 'BAD', ClosePrice: 'x' },
    { ...RECORD, ListingKey: 'NEW', ModificationTimestamp: '2026-03-01T00:00:00Z' },
  ];
  const keys = async (json: unknown, query: ClosedSalesQuery = QUERY) =>
    (await collect(resoFileSource(json, 'sold.json').closedSales(query))).map((record) => record.ListingKey);

  it('reads one page, several pages or a bare array, with the query applied', async () => {
    expect(await keys({ value: records })).toEqual(['K1', 'NEW']);
    expect(await keys([{ value: records.slice(0, 3) }, { value: records.slice(3) }])).toEqual(['K1', 'NEW']);
    expect(await keys(records)).toEqual(['K1', 'NEW']);
    expect(await keys({ value: records }, { ...QUERY, since: new Date('2026-02-01T00:00:00Z') })).toEqual(['NEW']);
  });

  it('counts the bad records and refuses what is not a RESO response', async () => {
    const skipped: SkippedRecord[] = [];
    await keys({ value: records }, { ...QUERY, onSkip: (skip) => skipped.push(skip) });
    expect(skipped.map((skip) => skip.listingKey)).toEqual(['BAD']);
    expect(() => resoFileSource({ results: [] }, 'sold.json')).toThrow(/not a RESO response/);
  });
});

describe('a large file (security audit, finding 10)', () => {
  /** Runs `work`, counting the turns the event loop had meanwhile (a chain of setImmediate callbacks). */
  async function turnsDuring(work: () => Promise<void>): Promise<number> {
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    await work();
    running = false;
    return turns;
  }

  it('skips 1,250,000 zeros one by one, cheaply, and lets the event loop run while it does', async () => {
    const zeros = Array<number>(1_250_000).fill(0);
    let skipped = 0;
    let reason = '';
    const turns = await turnsDuring(async () => {
      const sales = resoFileSource(zeros, 'zeros.json').closedSales({
        ...QUERY,
        onSkip: (skip) => {
          skipped += 1;
          reason = skip.reason;
        },
      });
      for await (const sale of sales) throw new Error(`a zero became a sale: ${sale.ListingKey}`);
    });
    expect(skipped).toBe(zeros.length);
    expect(reason).toBe('record: expected an object, received number');
    // Before the fix the whole file was checked in one go: the loop had no turn at all.
    expect(turns).toBeGreaterThan(0);
  });

  it('an object without a required field is skipped before the schema, naming the fields', () => {
    const skipped: SkippedRecord[] = [];
    const onSkip = (skip: SkippedRecord) => skipped.push(skip);
    expect(parseResoRecord({}, onSkip)).toBeUndefined();
    expect(parseResoRecord({ ListingKey: 'K9', CloseDate: null }, onSkip)).toBeUndefined();
    expect(parseResoRecord(null, onSkip)).toBeUndefined();
    expect(parseResoRecord([RECORD], onSkip)).toBeUndefined();
    expect(skipped).toEqual([
      { listingKey: null, reason: 'ListingKey: missing; CloseDate: missing; ModificationTimestamp: missing' },
      { listingKey: 'K9', reason: 'CloseDate: missing; ModificationTimestamp: missing' },
      { listingKey: null, reason: 'record: expected an object, received null' },
      { listingKey: null, reason: 'record: expected an object, received an array' },
    ]);
  });
});
