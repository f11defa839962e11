/**
 * Sold homes from the RESO Web API into town_sold_homes, against the local fake of a RESO server
 * (tests/fakes/reso.ts), on both backends: the full load (right rows in the right towns, paging,
 * the OData query sent), town matching, records with bad fields, and the same data from a file.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResoClient } from '../../src/features/market/reso-client.server.ts';
import { resoFileSource } from '../../src/features/market/reso-file-source.server.ts';
import { syncSoldHomes } from '../../src/features/market/sold-sync.server.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { closedSale, generateClosedSales, startFakeReso, type FakeReso } from '../fakes/reso.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import {
  NOW,
  WINDOW_START,
  PER_TOWN,
  town,
  feedForAllTowns,
  slugOfKey,
  visible,
  expectedRow,
  soldSyncHelpers,
} from '../support/sold-sync-suite.ts';

describe.each(BACKENDS)('sold homes sync on %s', (backend) => {
  let test: TestDatabase;
  let reso: FakeReso;
  let sleeps: number[];
  const { rows, position, pageSales, client } = soldSyncHelpers({
    test: () => test,
    reso: () => reso,
    sleeps: () => sleeps,
  });

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
