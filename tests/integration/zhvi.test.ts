/**
 * The ZHVI importer (and the for-sale inventory importer) on both backends, reading the generated
 * City file from the fake Zillow host over HTTP: the stored series, typical value, year-over-year
 * sentence and search URL of several towns (exact figures from the generated data), town matching
 * ("St. James" is our Saint James), unmatched towns, malformed rows skipped and counted, a second
 * run that changes nothing, for_sale_inventory kept, and every failure (bad header, a connection
 * cut mid-file, a source that throws) leaving the previous data exactly as it was.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importZillowInventory } from '../../src/features/market/zillow-inventory.server.ts';
import { importZhvi } from '../../src/features/market/zhvi.server.ts';
import { ZillowFileError, type ZillowImportReport } from '../../src/features/market/zillow-scan.server.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import {
  fakeSeries,
  INVENTORY_PATH,
  monthEnds,
  startFakeZillow,
  ZHVI_PATH,
  zhviCsvText,
  type FakePlace,
  type FakeZillow,
} from '../fakes/zillow.ts';
import { anyNumber, matching } from '../support/api-suite.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';

const MONTHS = 36;
const DATES = monthEnds(MONTHS, '2025-09-30');
const FIRST_RUN = new Date('2025-10-20T06:00:00.000Z');
const LATER_RUN = new Date('2025-10-21T06:00:00.000Z');
const EXTRA_ROWS = 300;
const MALFORMED_ROWS = 4;

/** An arbitrary series with chosen values 12 months apart at the end. */
function seriesEnding(yearAgo: number, latest: number): (number | null)[] {
  const values: (number | null)[] = Array.from({ length: MONTHS }, (_, month) => 450_000 + month * 1234.5678);
  values[MONTHS - 13] = yearAgo;
  values[MONTHS - 1] = latest;
  return values;
}

// Massapequa Park: the last two months and two in the middle are empty; values with many decimals.
const massapequaPark: (number | null)[] = Array.from({ length: MONTHS }, (_, month) => 612_345.678 + month * 100.005);
massapequaPark[MONTHS - 1] = massapequaPark[MONTHS - 2] = null;
massapequaPark[18] = massapequaPark[19] = null;

const PLACES: FakePlace[] = [
  { name: 'Bay Shore', county: 'Suffolk', values: seriesEnding(500_000, 521_000.004) }, // +4.2%
  { name: 'St. James', county: 'Suffolk', values: seriesEnding(500_000, 493_500.4) }, // -1.3%
  { name: 'Merrick', county: 'Nassau', values: seriesEnding(500_000, 500_400) }, // +0.08%
  { name: 'Massapequa Park', county: 'Nassau', values: massapequaPark },
  { name: 'Hempstead', county: 'Nassau' }, // the generator's default series
  { name: 'Bellport', county: 'Suffolk', values: [310_000, 311_000, 312_000, 313_000.5, 314_000, 315_000] }, // 6 months
  { name: 'Kings Point', county: 'Nassau' }, // on Long Island, but none of our towns
];
const anyArray = (): unknown => expect.any(Array);
const MATCHED = ['bay-shore', 'bellport', 'hempstead', 'massapequa-park', 'merrick', 'saint-james'];

const fileWith = (places: readonly FakePlace[] = PLACES, extra: Partial<Parameters<typeof zhviCsvText>[0]> = {}) =>
  zhviCsvText({ towns: places, months: MONTHS, extraRows: EXTRA_ROWS, malformedRows: MALFORMED_ROWS, ...extra });

/** The same file with Bay Shore's latest value changed. */
const changedFile = (latest: number) =>
  fileWith(
    PLACES.map((place) => (place.name === 'Bay Shore' ? { ...place, values: seriesEnding(500_000, latest) } : place)),
  );

interface MarketRow {
  town_slug: string;
  typical_home_value_cents: number | null;
  for_sale_inventory: number | null;
  description: string | null;
  search_url: string | null;
  zhvi_range: { dataValue: number; timePeriodEnd: string }[];
  last_updated_ms: number;
}
const SELECT_MARKET = `SELECT town_slug, typical_home_value_cents, for_sale_inventory, description, search_url, zhvi_range,
                              (extract(epoch FROM last_updated) * 1000)::float8 AS last_updated_ms
                         FROM town_market_data`;

/** The stored series of a town's values: the last 24 non-empty, rounded to cents, with their dates. */
function expectedRange(values: readonly (number | null)[]) {
  return values
    .flatMap((value, month) =>
      value === null ? [] : [{ dataValue: Math.round(value * 100) / 100, timePeriodEnd: DATES[month] }],
    )
    .slice(-24);
}

let zillow: FakeZillow;
beforeAll(async () => {
  zillow = await startFakeZillow({ [ZHVI_PATH]: fileWith() });
});
afterAll(async () => {
  await zillow?.close();
});
afterEach(() => {
  zillow.reset();
});

/** Fetches a path of the fake host and returns its body as the importer's source. */
async function download(path: string): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(zillow.urlOf(path));
  if (!response.ok || !response.body) throw new Error(`GET ${path}: ${response.status}`);
  return response.body;
}

describe.each(BACKENDS)('ZHVI import on %s', (backend) => {
  let test: TestDatabase;
  const market = () => test.db.query<MarketRow>(`${SELECT_MARKET} ORDER BY town_slug COLLATE "C"`);
  const marketOf = async (slug: string) => {
    const [row] = await test.db.query<MarketRow>(`${SELECT_MARKET} WHERE town_slug = $1`, [slug]);
    if (!row) throw new Error(`no market data for ${slug}`);
    return row;
  };
  const importFromHost = async (now: Date): Promise<ZillowImportReport> =>
    importZhvi(test.db, await download(ZHVI_PATH), { towns: allTowns(), now, originLabel: zillow.urlOf(ZHVI_PATH) });

  beforeAll(async () => {
    test = await openTestDatabase(backend, 'zhvi');
  });
  afterAll(async () => {
    await test?.close();
  });

  it('stores each matched town’s series, typical value, year-over-year sentence and search URL', async () => {
    zillow.serve(ZHVI_PATH, fileWith());
    // Bay Shore already has market data, with an inventory figure from the inventory file.
    await test.db.query(
      `INSERT INTO town_market_data (town_slug, typical_home_value_cents, for_sale_inventory, description)
       VALUES ('bay-shore', 100, 42, 'old')`,
    );
    const report = await importFromHost(FIRST_RUN);
    expect(report).toEqual({
      origin: zillow.urlOf(ZHVI_PATH),
      rowsRead: PLACES.length + EXTRA_ROWS + MALFORMED_ROWS,
      rowsKept: anyNumber(),
      rowsSkipped: MALFORMED_ROWS,
      skipped: [
        { record: anyNumber(), reason: matching(/^Bay Shore: 42 columns, the header has 45$/) },
        { record: anyNumber(), reason: matching(/^St\. James: 46 columns/) },
        { record: anyNumber(), reason: matching(/^Merrick: "n\/a" in column 2025-05-31/) },
        { record: anyNumber(), reason: 'Text after the closing quote of field 3' },
      ],
      townsMatched: MATCHED.length,
      townsUpdated: MATCHED.length,
      updatedTowns: [...MATCHED].sort(),
      unmatchedTowns: allTowns()
        .map((town) => town.slug)
        .filter((slug) => !MATCHED.includes(slug)),
      unmatchedPlaces: anyArray(),
      latestPeriod: '2025-09-30',
      changed: true,
    });
    expect(report.rowsKept).toBeGreaterThanOrEqual(PLACES.length);
    expect(report.unmatchedPlaces).toContain('Kings Point (Nassau County)');

    const rows = await market();
    expect(rows.map((row) => row.town_slug)).toEqual(MATCHED);
    const first = FIRST_RUN.getTime();

    expect(await marketOf('bay-shore')).toEqual({
      town_slug: 'bay-shore',
      typical_home_value_cents: 52_100_000,
      for_sale_inventory: 42, // kept: the inventory file sets it
      description: 'Home values in Bay Shore are up 4.2% over the past year.',
      search_url: 'https://www.zillow.com/bay-shore-ny/',
      zhvi_range: expectedRange(seriesEnding(500_000, 521_000)),
      last_updated_ms: first,
    });
    expect((await marketOf('bay-shore')).zhvi_range.slice(-1)).toEqual([
      { dataValue: 521_000, timePeriodEnd: '2025-09-30' },
    ]);

    expect(await marketOf('saint-james')).toEqual({
      town_slug: 'saint-james',
      typical_home_value_cents: 49_350_040,
      for_sale_inventory: null,
      description: 'Home values in Saint James are down 1.3% over the past year.',
      search_url: 'https://www.zillow.com/st-james-ny/',
      zhvi_range: expectedRange(seriesEnding(500_000, 493_500.4)),
      last_updated_ms: first,
    });

    expect((await marketOf('merrick')).description).toBe('Home values in Merrick are about the same as a year ago.');
    expect((await marketOf('merrick')).typical_home_value_cents).toBe(50_040_000);

    // Gaps (Apr and May 2024, Aug and Sep 2025): the last 24 non-empty points, from June 2023 to
    // July 2025, rounded to cents; July 2025 is the typical value and July 2024 the year-ago one.
    const park = await marketOf('massapequa-park');
    expect(park.zhvi_range).toEqual(expectedRange(massapequaPark));
    expect(park.zhvi_range).toHaveLength(24);
    expect(park.zhvi_range[0]).toEqual({ dataValue: 613_145.72, timePeriodEnd: '2023-06-30' });
    expect(park.zhvi_range.map((point) => point.timePeriodEnd)).not.toContain('2024-04-30');
    expect(park.zhvi_range.at(-1)).toEqual({ dataValue: 615_645.84, timePeriodEnd: '2025-07-31' });
    expect(park.typical_home_value_cents).toBe(61_564_584);
    // (615645.84 - 614445.78) / 614445.78 = +0.195%
    expect(park.description).toBe('Home values in Massapequa Park are up 0.2% over the past year.');

    // Six months of data: all six stored, no year-ago value so no sentence.
    expect(await marketOf('bellport')).toMatchObject({
      typical_home_value_cents: 31_500_000,
      description: null,
      zhvi_range: [
        { dataValue: 310_000, timePeriodEnd: '2025-04-30' },
        { dataValue: 311_000, timePeriodEnd: '2025-05-31' },
        { dataValue: 312_000, timePeriodEnd: '2025-06-30' },
        { dataValue: 313_000.5, timePeriodEnd: '2025-07-31' },
        { dataValue: 314_000, timePeriodEnd: '2025-08-31' },
        { dataValue: 315_000, timePeriodEnd: '2025-09-30' },
      ],
    });

    const hempstead = fakeSeries('Hempstead', MONTHS);
    const hempsteadRow = await marketOf('hempstead');
    expect(hempsteadRow.zhvi_range).toEqual(expectedRange(hempstead));
    expect(hempsteadRow.typical_home_value_cents).toBe(Math.round((hempstead.at(-1) ?? 0) * 100));
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await market();
    const report = await importFromHost(LATER_RUN);
    expect(report).toMatchObject({ changed: false, townsUpdated: 0, townsMatched: MATCHED.length });
    expect(await market()).toEqual(before); // last_updated too
  });

  it('rewrites only the towns whose values changed', async () => {
    zillow.serve(ZHVI_PATH, changedFile(520_000));
    const report = await importFromHost(LATER_RUN);
    expect(report).toMatchObject({ changed: true, townsUpdated: 1 });
    const bayShore = await marketOf('bay-shore');
    expect(bayShore).toMatchObject({
      typical_home_value_cents: 52_000_000,
      description: 'Home values in Bay Shore are up 4.0% over the past year.',
      for_sale_inventory: 42,
      last_updated_ms: LATER_RUN.getTime(),
    });
    expect((await marketOf('merrick')).last_updated_ms).toBe(FIRST_RUN.getTime());
  });

  it('leaves every town’s data as it was when the header is bad', async () => {
    const before = await market();
    const good = changedFile(530_000);
    const badHeader = good.replace('CountyName,', 'County,');
    zillow.serve(ZHVI_PATH, badHeader);
    await expect(importFromHost(new Date())).rejects.toThrow(ZillowFileError);
    await expect(importFromHost(new Date())).rejects.toThrow(/column 9 is "County", expected "CountyName"/);
    expect(await market()).toEqual(before);
  });

  it('leaves every town’s data as it was when the connection is cut mid-file, and imports it on the next try', async () => {
    const before = await market();
    zillow.serve(ZHVI_PATH, changedFile(530_000));
    zillow.trouble({ kind: 'cut' });
    await expect(importFromHost(new Date())).rejects.toThrow('terminated');
    expect(await market()).toEqual(before);

    // The same file, whole, does change Bay Shore: the cut import would have written it.
    const report = await importFromHost(LATER_RUN);
    expect(report).toMatchObject({ changed: true, townsUpdated: 1 });
    expect((await marketOf('bay-shore')).typical_home_value_cents).toBe(53_000_000);
  });

  it('leaves every town’s data as it was when the source fails after the last row', async () => {
    const before = await market();
    const text = changedFile(540_000);
    async function* failingAtTheEnd() {
      for (let at = 0; at < text.length; at += 4096) {
        await Promise.resolve();
        yield text.slice(at, at + 4096);
      }
      throw new Error('socket hang up');
    }
    await expect(importZhvi(test.db, failingAtTheEnd(), { towns: allTowns() })).rejects.toThrow('socket hang up');
    expect(await market()).toEqual(before);
  });

  it('stores the for-sale inventory of the towns a City-level inventory file covers, and only that', async () => {
    const before = await market();
    zillow.serve(
      INVENTORY_PATH,
      zhviCsvText({
        towns: [
          { name: 'Bay Shore', county: 'Suffolk', values: [40, 38, null] },
          { name: 'Merrick', county: 'Nassau', values: [12, 15, 17] },
          { name: 'Lindenhurst', county: 'Suffolk', values: [9] },
        ],
        months: 3,
        integers: true,
        extraRows: 50,
      }),
    );
    const report = await importZillowInventory(test.db, await download(INVENTORY_PATH), { now: LATER_RUN });
    expect(report).toMatchObject({ townsMatched: 3, townsUpdated: 3, rowsSkipped: 0, changed: true });
    const after = await market();
    expect(after.find((row) => row.town_slug === 'bay-shore')?.for_sale_inventory).toBe(38);
    expect(after.find((row) => row.town_slug === 'merrick')?.for_sale_inventory).toBe(17);
    // A town without ZHVI data gets a row with only its inventory.
    expect(after.find((row) => row.town_slug === 'lindenhurst')).toMatchObject({
      for_sale_inventory: 9,
      typical_home_value_cents: null,
      zhvi_range: [],
    });
    // The ZHVI fields are untouched.
    const strip = (row: MarketRow) => {
      const { for_sale_inventory: inventory, last_updated_ms: updated, ...rest } = row;
      void inventory;
      void updated;
      return rest;
    };
    expect(after.filter((row) => row.town_slug !== 'lindenhurst').map(strip)).toEqual(before.map(strip));

    // The next ZHVI import keeps the inventory.
    zillow.serve(ZHVI_PATH, changedFile(545_000));
    await importFromHost(LATER_RUN);
    expect((await marketOf('merrick')).for_sale_inventory).toBe(17);
    expect((await marketOf('bay-shore')).for_sale_inventory).toBe(38);
  });

  it('refuses a Metro-level inventory file, which covers no town', async () => {
    const before = await market();
    const metro =
      'RegionID,SizeRank,RegionName,RegionType,StateName,2025-08-31,2025-09-30\n394913,1,"New York, NY",msa,NY,1,2\n';
    await expect(importZillowInventory(test.db, [metro])).rejects.toThrow(/Metro- or national-level file/);
    expect(await market()).toEqual(before);
  });
});

describe('the fake Zillow host', () => {
  it('serves the file with its length and ETag, and 304 to a matching If-None-Match', async () => {
    const first = await fetch(zillow.urlOf(ZHVI_PATH));
    const text = await first.text();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/csv');
    expect(Number(first.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(text.startsWith('RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName,')).toBe(
      true,
    );
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(zillow.urlOf(ZHVI_PATH), { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect((await fetch(zillow.urlOf(ZHVI_PATH), { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(zillow.urlOf('/research/public_csvs/zhvi/nothing.csv'))).status).toBe(404);
  });

  it('answers 404, 500 and 429 with Retry-After for the next requests, then recovers', async () => {
    zillow.trouble({ kind: 'not-found' });
    expect((await fetch(zillow.urlOf(ZHVI_PATH))).status).toBe(404);
    zillow.trouble({ kind: 'server-error' }, 2);
    expect((await fetch(zillow.urlOf(ZHVI_PATH))).status).toBe(500);
    expect((await fetch(zillow.urlOf(ZHVI_PATH))).status).toBe(500);
    zillow.trouble({ kind: 'server-error', status: 503 });
    expect((await fetch(zillow.urlOf(ZHVI_PATH))).status).toBe(503);
    zillow.trouble({ kind: 'rate-limit', retryAfter: 2 });
    const limited = await fetch(zillow.urlOf(ZHVI_PATH));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    const recovered = await fetch(zillow.urlOf(ZHVI_PATH));
    expect(recovered.status).toBe(200);
    await recovered.arrayBuffer();
    expect(zillow.requests.map((request) => request.status)).toEqual([404, 500, 500, 503, 429, 200]);
  });

  it('cuts the connection mid-body', async () => {
    zillow.trouble({ kind: 'cut', afterBytes: 1000 });
    const response = await fetch(zillow.urlOf(ZHVI_PATH));
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});
