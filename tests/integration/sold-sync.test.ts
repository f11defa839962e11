/**
 * Sold homes from the RESO Web API into town_sold_homes, against the local fake of a RESO server
 * (tests/fakes/reso.ts), on both backends: the full load (right rows in the right towns, paging,
 * the OData query sent), town matching, the incremental run, idempotence, the 12-month window,
 * every kind of failure leaving the previous rows and position untouched, Retry-After within the
 * bound, token renewal and the bearer-token mode.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResoClient, type ResoClientConfig } from '../../src/features/market/reso-client.server.ts';
import { ResoError, type ResoErrorKind } from '../../src/features/market/reso-error.server.ts';
import { resoFileSource } from '../../src/features/market/reso-file-source.server.ts';
import { SOLD_SOURCE, syncSoldHomes, type SoldTown } from '../../src/features/market/sold-sync.server.ts';
import { allTowns, townBySlug, type Town } from '../../src/features/towns/town-data.ts';
import {
  closedSale,
  generateClosedSales,
  startFakeReso,
  type FakeReso,
  type ResoRecord,
  type ResoTrouble,
  type TroubleOptions,
} from '../fakes/reso.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';

/** The moment of the first run: the window starts on 2025-03-16 (New York). */
const NOW = new Date('2026-03-16T15:00:00Z');
const WINDOW_START = '2025-03-16';
const PER_TOWN = 4;
/** Modification times after every generated one (those are at most a minute before NOW). */
const LATER = ['2026-03-16T14:59:10.000Z', '2026-03-16T14:59:20.000Z', '2026-03-16T14:59:30.000Z'] as const;

function town(slug: string): Town {
  const found = townBySlug(slug);
  if (!found) throw new Error(`no town ${slug}`);
  return found;
}

/** Four sales in every town, keyed `{slug}:{n}` so a test knows each sale's town. */
function feedForAllTowns(): ResoRecord[] {
  return allTowns().flatMap((each, index) =>
    generateClosedSales({ towns: [each], now: NOW, perTown: PER_TOWN, seed: index + 1, keyPrefix: `${each.slug}:` }),
  );
}

const slugOfKey = (key: unknown): string => String(key).split(':')[0] ?? '';

interface StoredRow {
  listing_key: string;
  town_slug: string;
  address: string;
  beds: number | null;
  baths: number | null;
  sqft: number | null;
  sold_date: string;
  listing_agent: string | null;
  listing_office: string | null;
  price_cents: number | null;
  property_type: string | null;
  modification_timestamp: string | null;
  updated_at: string;
}

/** A stored row without its updated_at. */
function visible(row: StoredRow): Omit<StoredRow, 'updated_at'> {
  const { updated_at: updatedAt, ...rest } = row;
  void updatedAt;
  return rest;
}

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** What a feed record should be stored as (written out here, not taken from the module). */
function expectedRow(record: ResoRecord, townSlug: string) {
  return {
    listing_key: str(record.ListingKey),
    town_slug: townSlug,
    address: str(record.UnparsedAddress),
    beds: num(record.BedroomsTotal),
    baths: num(record.BathroomsTotalInteger),
    sqft: num(record.LivingArea),
    sold_date: str(record.CloseDate),
    listing_agent: str(record.ListAgentFullName),
    listing_office: str(record.ListOfficeName),
    price_cents: Math.round((num(record.ClosePrice) ?? 0) * 100),
    property_type: str(record.PropertyType),
    modification_timestamp: new Date(String(record.ModificationTimestamp)).toISOString(),
  };
}

describe.each(BACKENDS)('sold homes sync on %s', (backend) => {
  let test: TestDatabase;
  let reso: FakeReso;
  let sleeps: number[];

  const rows = () =>
    test.db.query<StoredRow>(
      `SELECT listing_key, town_slug, address, beds, baths::float8 AS baths, sqft, sold_date::text AS sold_date,
              listing_agent, listing_office, price_cents, property_type,
              to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                AS modification_timestamp,
              updated_at::text AS updated_at
         FROM town_sold_homes ORDER BY listing_key`,
    );
  const position = async () => {
    const [row] = await test.db.query<{ position: string | null; updated_at: string }>(
      `SELECT to_char(last_modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS position,
              updated_at::text AS updated_at
         FROM data_sync_state WHERE source = $1`,
      [SOLD_SOURCE],
    );
    return row;
  };
  const snapshot = async () => ({ rows: await rows(), position: await position() });
  /** The three sales a town page shows: its most recent (the order of GET /api/towns/{slug}/sold). */
  const pageSales = (slug: string) =>
    test.db.query<{ listing_key: string; sold_date: string }>(
      `SELECT listing_key, sold_date::text AS sold_date FROM town_sold_homes
        WHERE town_slug = $1 ORDER BY sold_date DESC, listing_key LIMIT 3`,
      [slug],
    );

  const client = (config: Partial<ResoClientConfig> = {}) =>
    createResoClient({
      baseUrl: reso.url,
      tokenUrl: reso.tokenUrl,
      clientId: reso.clientId,
      clientSecret: reso.clientSecret,
      timeoutMs: 5_000,
      maxRetryAfterSeconds: 5,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      ...config,
    });

  /** A ResoError's kind, or a failure of the test when the run does not reject with one. */
  async function failureKind(run: Promise<unknown>): Promise<ResoErrorKind> {
    try {
      await run;
    } catch (error) {
      if (error instanceof ResoError) return error.kind;
      throw error;
    }
    throw new Error('expected the run to fail');
  }

  beforeAll(async () => {
    [test, reso] = await Promise.all([openTestDatabase(backend, 'sold-sync'), startFakeReso()]);
  });
  afterAll(async () => {
    await Promise.all([test?.close(), reso?.close()]);
  });
  beforeEach(async () => {
    await test.db.exec('DELETE FROM town_sold_homes; DELETE FROM data_sync_state;');
    reso.reset();
    reso.properties = feedForAllTowns();
    sleeps = [];
  });

  it('loads the last 12 months of closed sales into the right towns, page after page', async () => {
    const feed = reso.properties;
    const report = await syncSoldHomes(test.db, client(), { now: NOW });

    expect(report).toMatchObject({
      mode: 'full',
      since: null,
      closedOnOrAfter: WINDOW_START,
      rowsRead: feed.length,
      rowsSkipped: 0,
      invalid: 0,
      unmatched: 0,
      rowsUpserted: feed.length,
      rowsDeleted: 0,
      townsUpdated: allTowns().length,
      changed: true,
    });
    const maxModified = feed.map((record) => String(record.ModificationTimestamp)).sort()[feed.length - 1] ?? '';
    expect(report.position).toBe(maxModified.replace(/\.(\d{3})Z$/, '.$1000Z'));
    expect((await position())?.position).toBe(maxModified);

    const stored = await rows();
    expect(stored.map(visible)).toEqual(
      [...feed]
        .sort((a, b) => String(a.ListingKey).localeCompare(String(b.ListingKey)))
        .map((record) => expectedRow(record, slugOfKey(record.ListingKey))),
    );
    // "St. James" in the feed is the town Saint James.
    expect(stored.filter((row) => row.town_slug === 'saint-james')).toHaveLength(PER_TOWN);

    // The OData query: 119 × 4 sales at $top=200 is three pages, linked by @odata.nextLink.
    const requests = reso.propertyRequests;
    expect(requests.map((request) => [request.status, request.skip])).toEqual([
      [200, null],
      [200, '200'],
      [200, '400'],
    ]);
    for (const request of requests) {
      expect(request.filter).toBe(
        `StandardStatus eq 'Closed' and CloseDate ge ${WINDOW_START} and ` +
          `(CountyOrParish eq 'Nassau' or CountyOrParish eq 'Suffolk')`,
      );
      expect(request.orderby).toBe('ModificationTimestamp asc');
      expect(request.top).toBe('200');
      expect(request.select?.split(',')).toEqual(
        expect.arrayContaining(['ListingKey', 'UnparsedAddress', 'City', 'PostalCode', 'ClosePrice', 'CloseDate']),
      );
      expect(request.authorization).toMatch(/^Bearer [0-9a-f]{48}$/);
    }
    expect(reso.tokenRequests).toEqual([
      { status: 200, clientAuth: 'body', grantType: 'client_credentials', scope: null },
    ]);

    // What a town page shows: its three most recent sales.
    for (const slug of ['levittown', 'bay-shore', 'montauk']) {
      const expected = feed
        .filter((record) => slugOfKey(record.ListingKey) === slug)
        .map((record) => ({ listing_key: String(record.ListingKey), sold_date: String(record.CloseDate) }))
        .sort((a, b) => b.sold_date.localeCompare(a.sold_date) || a.listing_key.localeCompare(b.listing_key))
        .slice(0, 3);
      expect(await pageSales(slug)).toEqual(expected);
    }
  });

  it('follows @odata.nextLink through many small pages when the server caps $top', async () => {
    const small = await startFakeReso({ maxTop: 7 });
    try {
      small.properties = generateClosedSales({ towns: [town('levittown'), town('huntington')], now: NOW, perTown: 15 });
      const report = await syncSoldHomes(
        test.db,
        createResoClient({ baseUrl: small.url, bearerToken: small.staticToken }),
        { now: NOW },
      );
      expect(report).toMatchObject({ rowsRead: 30, rowsUpserted: 30, townsUpdated: 2 });
      expect(small.propertyRequests.map((request) => request.skip)).toEqual([null, '7', '14', '21', '28']);
      expect(await rows()).toHaveLength(30);
    } finally {
      await small.close();
    }
  });

  it('matches a sale by City (case, "St." and "Mt." aside) or else by a ZIP only one town has', async () => {
    reso.properties = [
      closedSale({ ListingKey: 'M1', City: 'LEVITTOWN', PostalCode: '11756' }),
      closedSale({ ListingKey: 'M2', City: 'St James', PostalCode: '11780', CountyOrParish: 'Suffolk' }),
      closedSale({ ListingKey: 'M3', City: 'Saint James', PostalCode: '11780', CountyOrParish: 'Suffolk' }),
      closedSale({ ListingKey: 'M4', City: 'Mt. Sinai', PostalCode: '11766', CountyOrParish: 'Suffolk' }),
      // Not a town of ours, but its ZIP is Wantagh's alone.
      closedSale({ ListingKey: 'M5', City: 'Wantagh Woods', PostalCode: '11793' }),
      closedSale({ ListingKey: 'M6', City: null, PostalCode: '11706-4410', CountyOrParish: 'Suffolk' }),
      // 11746 is both Dix Hills and Huntington Station: the ZIP alone decides nothing.
      closedSale({ ListingKey: 'M7', City: 'South Huntington', PostalCode: '11746', CountyOrParish: 'Suffolk' }),
      closedSale({ ListingKey: 'M8', City: 'Dix Hills', PostalCode: '11746', CountyOrParish: 'Suffolk' }),
      closedSale({ ListingKey: 'M9', City: 'Brooklyn', PostalCode: '11201' }),
      // Another county: the server's filter leaves it out.
      closedSale({ ListingKey: 'M10', City: 'Levittown', CountyOrParish: 'Queens' }),
    ];
    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(report).toMatchObject({ rowsRead: 9, unmatched: 2, invalid: 0, rowsSkipped: 2, rowsUpserted: 7 });
    expect(report.unmatchedCities).toEqual(['Brooklyn', 'South Huntington']);
    expect((await rows()).map((row) => [row.listing_key, row.town_slug])).toEqual([
      ['M1', 'levittown'],
      ['M2', 'saint-james'],
      ['M3', 'saint-james'],
      ['M4', 'mount-sinai'],
      ['M5', 'wantagh'],
      ['M6', 'bay-shore'],
      ['M8', 'dix-hills'],
    ]);
  });

  it('skips and counts records with bad fields, and stores the others', async () => {
    reso.properties = [
      closedSale({ ListingKey: 'OK1' }),
      closedSale({ ListingKey: 'BAD-PRICE', ClosePrice: 'six hundred thousand' }),
      closedSale({ ListingKey: 'BAD-DATE', CloseDate: '2026-02-30' }),
      closedSale({ ListingKey: 'BAD-BEDS', BedroomsTotal: 250_000 }),
      closedSale({ ListingKey: 'BAD-TIME', ModificationTimestamp: 'yesterday' }),
      closedSale({ ListingKey: 'NO-ADDRESS', UnparsedAddress: null, StreetNumber: null, StreetName: ' ' }),
      closedSale({ ListingKey: '' }),
      closedSale({ ListingKey: 'OK2', UnparsedAddress: null, StreetNumber: 44, StreetName: 'Elm St\u0000' }),
    ];
    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(report).toMatchObject({ rowsRead: 8, invalid: 6, rowsSkipped: 6, rowsUpserted: 2, changed: true });
    expect((await rows()).map((row) => [row.listing_key, row.address])).toEqual([
      ['OK1', '12 Main St'],
      ['OK2', '44 Elm St'],
    ]);
  });

  it('then fetches only what was modified after the stored position', async () => {
    await syncSoldHomes(test.db, client(), { now: NOW });
    const before = await snapshot();
    const from = before.position?.position ?? '';
    reso.reset();

    const [first, second] = reso.properties;
    if (!first || !second) throw new Error('empty feed');
    first.ClosePrice = 1_234_567.89;
    first.ModificationTimestamp = LATER[0];
    second.ListAgentFullName = 'Grace Kim';
    second.ModificationTimestamp = LATER[1];
    const added = closedSale({
      ListingKey: 'montauk:new',
      City: 'Montauk',
      PostalCode: '11954',
      CountyOrParish: 'Suffolk',
      CloseDate: '2026-03-13',
      ModificationTimestamp: LATER[2],
    });
    reso.properties.push(added);

    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(reso.propertyRequests).toHaveLength(1);
    expect(reso.propertyRequests[0]?.filter).toBe(
      `StandardStatus eq 'Closed' and CloseDate ge ${WINDOW_START} and ` +
        `(CountyOrParish eq 'Nassau' or CountyOrParish eq 'Suffolk') and ModificationTimestamp gt ${from}`,
    );
    expect(report).toMatchObject({
      mode: 'incremental',
      since: new Date(from),
      rowsRead: 3,
      rowsUpserted: 3,
      rowsDeleted: 0,
      changed: true,
      townsUpdated: new Set([slugOfKey(first.ListingKey), slugOfKey(second.ListingKey), 'montauk']).size,
      position: '2026-03-16T14:59:30.000000Z',
    });
    const after = await rows();
    expect(after).toHaveLength(before.rows.length + 1);
    expect(after.find((row) => row.listing_key === first.ListingKey)?.price_cents).toBe(123_456_789);
    expect(after.find((row) => row.listing_key === second.ListingKey)?.listing_agent).toBe('Grace Kim');
    expect(after.find((row) => row.listing_key === 'montauk:new')?.town_slug).toBe('montauk');
    // Every other row is untouched.
    const untouched = new Set([first.ListingKey, second.ListingKey, 'montauk:new']);
    expect(after.filter((row) => !untouched.has(row.listing_key))).toEqual(
      before.rows.filter((row) => !untouched.has(row.listing_key)),
    );
    expect(await pageSales('montauk')).toContainEqual({ listing_key: 'montauk:new', sold_date: '2026-03-13' });
  });

  it('is idempotent: running again changes nothing', async () => {
    await syncSoldHomes(test.db, client(), { now: NOW });
    const first = await snapshot();

    const incremental = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(incremental).toMatchObject({
      mode: 'incremental',
      rowsRead: 0,
      rowsUpserted: 0,
      rowsDeleted: 0,
      townsUpdated: 0,
      changed: false,
    });
    const full = await syncSoldHomes(test.db, client(), { now: NOW, full: true });
    expect(full).toMatchObject({
      mode: 'full',
      rowsRead: reso.properties.length,
      rowsUpserted: 0,
      rowsDeleted: 0,
      townsUpdated: 0,
      changed: false,
    });
    const after = await snapshot();
    expect(after.rows).toEqual(first.rows);
    expect(after.position?.position).toBe(first.position?.position);
  });

  it('keeps 12 months: older sales are neither fetched nor kept', async () => {
    reso.properties = generateClosedSales({ towns: allTowns().slice(0, 20), now: NOW, perTown: 6, monthsBack: 16 });
    const inWindow = reso.properties.filter((record) => String(record.CloseDate) >= WINDOW_START);
    expect(inWindow.length).toBeLessThan(reso.properties.length);
    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(report.rowsRead).toBe(inWindow.length);
    expect((await rows()).map((row) => row.listing_key)).toEqual(
      inWindow.map((record) => String(record.ListingKey)).sort(),
    );

    // Three months on, the sales that have left the window are dropped.
    const later = new Date('2026-06-16T15:00:00Z');
    const report2 = await syncSoldHomes(test.db, client(), { now: later });
    const kept = inWindow.filter((record) => String(record.CloseDate) >= '2025-06-16');
    expect(report2).toMatchObject({
      closedOnOrAfter: '2025-06-16',
      rowsDeleted: inWindow.length - kept.length,
      changed: true,
    });
    expect((await rows()).map((row) => row.listing_key)).toEqual(
      kept.map((record) => String(record.ListingKey)).sort(),
    );
  });

  it('a full run also removes the sales the feed no longer lists', async () => {
    await syncSoldHomes(test.db, client(), { now: NOW });
    const withdrawn = reso.properties.splice(0, 2).map((record) => String(record.ListingKey));
    const report = await syncSoldHomes(test.db, client(), { now: NOW, full: true });
    expect(report).toMatchObject({
      rowsDeleted: 2,
      changed: true,
      townsUpdated: new Set(withdrawn.map(slugOfKey)).size,
    });
    const keys = new Set((await rows()).map((row) => row.listing_key));
    for (const key of withdrawn) expect(keys.has(key)).toBe(false);
  });

  describe('a failure leaves the previous rows and position as they were', () => {
    const failures: [string, ResoTrouble, TroubleOptions, ResoErrorKind][] = [
      ['500 on the first page', { kind: 'server-error' }, {}, 'http'],
      ['503 on the third page', { kind: 'server-error', status: 503 }, { afterPages: 2 }, 'http'],
      ['an HTML page mid-run', { kind: 'malformed', body: 'html' }, { afterPages: 1 }, 'malformed'],
      ['broken JSON mid-run', { kind: 'malformed', body: 'broken-json' }, { afterPages: 1 }, 'malformed'],
      ['JSON that is not OData', { kind: 'malformed', body: 'not-odata' }, { afterPages: 2 }, 'malformed'],
      ['a connection cut mid-page', { kind: 'cut' }, { afterPages: 1 }, 'network'],
      ['429 beyond the Retry-After bound', { kind: 'rate-limit', retryAfter: 3600 }, { afterPages: 1 }, 'rate-limit'],
      ['429 again and again', { kind: 'rate-limit', retryAfter: 1 }, { afterPages: 1, times: Infinity }, 'rate-limit'],
    ];

    it.each(failures)('%s', async (_label, trouble, options, kind) => {
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      // A feed that would change many rows, were the run to complete.
      for (const record of reso.properties) {
        record.ClosePrice = Number(record.ClosePrice) + 1000;
        record.ModificationTimestamp = LATER[2];
      }
      reso.reset();
      reso.trouble(trouble, options);
      expect(await failureKind(syncSoldHomes(test.db, client(), { now: NOW, full: true }))).toBe(kind);
      expect(await snapshot()).toEqual(before);
      // Once the feed answers again, the next run gets everything.
      reso.reset();
      const report = await syncSoldHomes(test.db, client(), { now: NOW });
      expect(report).toMatchObject({ mode: 'incremental', rowsUpserted: reso.properties.length, changed: true });
    });

    it('a time-out', async () => {
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      reso.properties[0] = { ...reso.properties[0], ModificationTimestamp: LATER[2] };
      reso.reset();
      reso.trouble({ kind: 'slow', ms: 1_000 });
      expect(await failureKind(syncSoldHomes(test.db, client({ timeoutMs: 200 }), { now: NOW }))).toBe('timeout');
      expect(await snapshot()).toEqual(before);
    });

    it('a server that cannot be reached', async () => {
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      const gone = await startFakeReso();
      const url = gone.url;
      await gone.close();
      expect(
        await failureKind(
          syncSoldHomes(test.db, client({ baseUrl: url, tokenUrl: undefined, bearerToken: 'x' }), { now: NOW }),
        ),
      ).toBe('network');
      expect(await snapshot()).toEqual(before);
    });

    it('a database failure inside the write rolls the whole run back', async () => {
      // Over 1,000 sales: the upsert takes two statements.
      reso.properties = allTowns().flatMap((each, index) =>
        generateClosedSales({ towns: [each], now: NOW, perTown: 9, seed: index + 1, keyPrefix: `${each.slug}:` }),
      );
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      expect(before.rows.length).toBeGreaterThan(1000);
      for (const record of reso.properties) {
        record.ClosePrice = Number(record.ClosePrice) + 1000;
        record.ModificationTimestamp = LATER[1];
      }
      // A town the database does not have: its sale (the last one) breaks the foreign key in the
      // second statement, after the first has upserted 1,000 rows.
      const atlantis: SoldTown = { slug: 'atlantis', name: 'Atlantis', county: 'Suffolk', zipCodes: ['11999'] };
      reso.properties.push(
        closedSale({
          ListingKey: 'zz-atlantis',
          City: 'Atlantis',
          CountyOrParish: 'Suffolk',
          ModificationTimestamp: LATER[2],
        }),
      );
      await expect(syncSoldHomes(test.db, client(), { now: NOW, towns: [...allTowns(), atlantis] })).rejects.toThrow(
        /foreign key/,
      );
      expect(await snapshot()).toEqual(before);
    });

    it('a bearer token the server refuses (no retry: it cannot be renewed)', async () => {
      const kind = await failureKind(
        syncSoldHomes(test.db, client({ tokenUrl: undefined, bearerToken: 'not-the-token' }), { now: NOW }),
      );
      expect(kind).toBe('auth');
      expect(reso.propertyRequests.map((request) => request.status)).toEqual([401]);
      expect(await snapshot()).toEqual({ rows: [], position: undefined });
    });

    it('client credentials the token endpoint refuses', async () => {
      expect(await failureKind(syncSoldHomes(test.db, client({ clientSecret: 'wrong' }), { now: NOW }))).toBe('auth');
      expect(reso.tokenRequests.map((request) => request.status)).toEqual([401]);
      expect(reso.propertyRequests).toEqual([]);
      expect(await snapshot()).toEqual({ rows: [], position: undefined });
    });
  });

  it('waits out a 429 whose Retry-After is within the bound, then goes on', async () => {
    reso.trouble({ kind: 'rate-limit', retryAfter: 2 }, { afterPages: 1, times: 2 });
    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(report).toMatchObject({ rowsRead: reso.properties.length, changed: true });
    expect(sleeps).toEqual([2000, 2000]);
    expect(reso.propertyRequests.map((request) => [request.status, request.skip])).toEqual([
      [200, null],
      [429, '200'],
      [429, '200'],
      [200, '200'],
      [200, '400'],
    ]);
  });

  it('renews an expired token once on 401 and goes on', async () => {
    reso.trouble({ kind: 'expire-tokens' }, { afterPages: 1 });
    const resoClient = client();
    const report = await syncSoldHomes(test.db, resoClient, { now: NOW });
    expect(report).toMatchObject({ rowsRead: reso.properties.length, rowsUpserted: reso.properties.length });
    expect(reso.propertyRequests.map((request) => [request.status, request.skip])).toEqual([
      [200, null],
      [401, '200'],
      [200, '200'],
      [200, '400'],
    ]);
    expect(reso.tokenRequests.map((request) => request.status)).toEqual([200, 200]);
    const [firstToken, , secondToken] = reso.propertyRequests.map((request) => request.authorization);
    expect(secondToken).not.toBe(firstToken);

    // The new token is kept for the next run.
    await syncSoldHomes(test.db, resoClient, { now: NOW });
    expect(reso.tokenRequests).toHaveLength(2);
  });

  it('asks for a new token when expires_in has run out, and can send the credentials as Basic', async () => {
    let clock = Date.now();
    const resoClient = client({ clientAuth: 'basic', scope: 'api', now: () => clock });
    await syncSoldHomes(test.db, resoClient, { now: NOW });
    clock += 3_600_000;
    await syncSoldHomes(test.db, resoClient, { now: NOW });
    expect(reso.tokenRequests).toEqual([
      { status: 200, clientAuth: 'basic', grantType: 'client_credentials', scope: 'api' },
      { status: 200, clientAuth: 'basic', grantType: 'client_credentials', scope: 'api' },
    ]);
  });

  it('works with a static bearer token', async () => {
    const report = await syncSoldHomes(
      test.db,
      createResoClient({ baseUrl: `${reso.url}/`, bearerToken: reso.staticToken }),
      { now: NOW },
    );
    expect(report).toMatchObject({ rowsRead: reso.properties.length, changed: true });
    expect(reso.tokenRequests).toEqual([]);
    expect(new Set(reso.propertyRequests.map((request) => request.authorization))).toEqual(
      new Set([`Bearer ${reso.staticToken}`]),
    );
  });

  it('loads the same data from a file in the RESO response shape', async () => {
    const fromApi = await syncSoldHomes(test.db, client(), { now: NOW });
    const apiRows = await rows();
    await test.db.exec('DELETE FROM town_sold_homes; DELETE FROM data_sync_state;');
    const file: unknown = JSON.parse(JSON.stringify({ '@odata.context': 'x', value: reso.properties }));
    const fromFile = await syncSoldHomes(test.db, resoFileSource(file, 'sold.json'), { now: NOW });
    expect(fromFile).toMatchObject({ rowsRead: fromApi.rowsRead, rowsUpserted: fromApi.rowsUpserted });
    expect((await rows()).map(visible)).toEqual(apiRows.map(visible));
  });
});
