/**
 * The Zillow Home Value Index importer: Zillow Research's City ("places") CSV,
 * `City_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv`, streamed into `town_market_data`.
 *
 * The file is large (over 100 MB, ~26k US places × one column per month since 2000), so it is read
 * as a stream, one record at a time: a row is kept only if its State is NY, its CountyName is
 * Nassau or Suffolk County and its RegionName is one of our towns; other rows are dropped after
 * their first nine fields are read. What is kept per town is small (the last 24 points and the
 * year-ago value). Everything is written at the end, in one transaction and one statement, so a
 * source that fails part-way (network, a bad header, a cut connection) leaves every town's previous
 * data as it was.
 *
 * The scanning half (header checks, row filtering, town matching) is shared with the for-sale
 * inventory file, which has the same layout (see zillow-inventory.server.ts).
 */
import { placeKey } from '../towns/place-key.ts';
import type { Db } from '../../server/db.ts';
import { allTowns, townSlug, type County, type Town } from '../towns/town-data.ts';
import type { ZhviPoint } from '../towns/town-page.ts';
import { CsvError, CsvRecordReader, parseCsvFields, type CsvReaderOptions } from './csv.ts';

/** The columns before the dates, in Zillow's order. */
export const ZILLOW_ID_COLUMNS = [
  'RegionID',
  'SizeRank',
  'RegionName',
  'RegionType',
  'StateName',
  'State',
  'City',
  'Metro',
  'CountyName',
] as const;
const ID_COLUMN_COUNT = ZILLOW_ID_COLUMNS.length;
const REGION_NAME = 2;
const STATE = 5;
const COUNTY_NAME = 8;

/** Zillow's CountyName of each of our counties. */
const COUNTY_OF_ZILLOW: ReadonlyMap<string, County> = new Map([
  ['Nassau County', 'Nassau'],
  ['Suffolk County', 'Suffolk'],
]);

/** Points of the series stored per town (the page charts the last 12). */
export const ZHVI_POINTS_KEPT = 24;

/** `{city}`: Zillow's place name as a slug ("st-james"); `{slug}`: our town's slug; `{state}`: "ny". */
export const DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE = 'https://www.zillow.com/{city}-ny/';

/** Rows whose problems are listed in a report (all of them are counted). */
const SKIPPED_LISTED = 20;

/** The file cannot be used at all (bad header, broken CSV structure): nothing was written. */
export class ZillowFileError extends Error {
  override name = 'ZillowFileError';
}

export interface SkippedRow {
  /** Record number in the file, the header being 1. */
  record: number;
  reason: string;
}

/** What a scan of a Zillow file found, before anything is written. */
export interface ZillowScan {
  /** Data rows read (the header is not counted). */
  rowsRead: number;
  /** Rows of Nassau and Suffolk County, NY. */
  rowsKept: number;
  /** Malformed rows: not valid CSV, or (for a row of one of our towns) the wrong number of columns or a value that is not a number. */
  rowsSkipped: number;
  /** The first few of them, with the reason. */
  skipped: SkippedRow[];
  /** Our towns found in the file, by slug. */
  matches: Map<string, TownSeries>;
  /** Slugs of our towns with no usable row in the file. */
  unmatchedTowns: string[];
  /** Nassau and Suffolk places in the file that are none of our towns (RegionName, county). */
  unmatchedPlaces: string[];
  /** The file's last date column. */
  latestPeriod: string | null;
}

/** One town's row, reduced to what is stored. */
export interface TownSeries {
  town: Town;
  /** Zillow's name for the place (e.g. "St. James" for our "Saint James"). */
  regionName: string;
  /** The last `pointsKept` non-empty values, oldest first, as written in the file (not rounded). */
  points: { value: number; date: string }[];
  /** The value 12 months before the latest point, when the file has one. */
  yearAgo: number | null;
}

export interface ZillowScanOptions extends CsvReaderOptions {
  towns?: readonly Town[];
  /** How many of the latest non-empty points to keep per town (default 24). */
  pointsKept?: number;
  /** Named in error messages (a URL or a file path). */
  originLabel?: string;
}

interface HeaderLayout {
  columns: number;
  /** The date of each date column, in order (column ID_COLUMN_COUNT + i). */
  dates: string[];
  /** For each date column, the index of the column 12 months earlier, or -1. */
  yearAgoOf: Int32Array;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER_PATTERN = /^\d+(?:\.\d+)?$/;

export function parseHeader(record: string, origin: string): HeaderLayout {
  let fields: string[];
  try {
    fields = parseCsvFields(record);
  } catch (error) {
    throw new ZillowFileError(`${origin}: the header is not valid CSV (${errorMessage(error)})`);
  }
  const names = fields.map((field) => field.trim());
  if (names.slice(0, 5).join() === ZILLOW_ID_COLUMNS.slice(0, 5).join() && DATE_PATTERN.test(names[5] ?? '')) {
    throw new ZillowFileError(
      `${origin}: a Metro- or national-level file (no State, City, Metro and CountyName columns) covers no town: ` +
        'use the City-level file',
    );
  }
  ZILLOW_ID_COLUMNS.forEach((expected, index) => {
    if (names[index] !== expected) {
      throw new ZillowFileError(
        `${origin}: not a Zillow City file: column ${index + 1} is "${names[index] ?? ''}", expected "${expected}" ` +
          `(the header must start ${ZILLOW_ID_COLUMNS.join(',')})`,
      );
    }
  });
  const dates = names.slice(ID_COLUMN_COUNT);
  if (dates.length === 0) throw new ZillowFileError(`${origin}: the header has no date columns`);
  const monthIndex = new Map<number, number>();
  let previous = '';
  dates.forEach((date, index) => {
    const match = DATE_PATTERN.exec(date);
    const parsed = new Date(`${date}T00:00:00Z`);
    if (!match || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
      throw new ZillowFileError(
        `${origin}: column ${ID_COLUMN_COUNT + index + 1} is "${date}", not a date (YYYY-MM-DD)`,
      );
    }
    if (date <= previous) throw new ZillowFileError(`${origin}: the date columns are not in order at "${date}"`);
    previous = date;
    monthIndex.set(parsed.getUTCFullYear() * 12 + parsed.getUTCMonth(), index);
  });
  const yearAgoOf = new Int32Array(dates.length).fill(-1);
  dates.forEach((date, index) => {
    const parsed = new Date(`${date}T00:00:00Z`);
    yearAgoOf[index] = monthIndex.get(parsed.getUTCFullYear() * 12 + parsed.getUTCMonth() - 12) ?? -1;
  });
  return { columns: names.length, dates, yearAgoOf };
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Reads one of our towns' rows: every value checked, the last `pointsKept` non-empty ones kept. */
function seriesOf(
  fields: readonly string[],
  layout: HeaderLayout,
  pointsKept: number,
): { points: TownSeries['points']; yearAgo: number | null } | string {
  if (fields.length !== layout.columns) return `${fields.length} columns, the header has ${layout.columns}`;
  const values: (number | null)[] = new Array<number | null>(layout.dates.length);
  let latest = -1;
  for (let index = 0; index < layout.dates.length; index += 1) {
    const text = fields[ID_COLUMN_COUNT + index] ?? '';
    if (text === '') {
      values[index] = null;
      continue;
    }
    if (!NUMBER_PATTERN.test(text)) return `"${text.slice(0, 40)}" in column ${layout.dates[index]} is not a number`;
    values[index] = Number(text);
    latest = index;
  }
  const points: TownSeries['points'] = [];
  for (let index = latest; index >= 0 && points.length < pointsKept; index -= 1) {
    const value = values[index];
    const date = layout.dates[index];
    if (value !== null && value !== undefined && date !== undefined) points.push({ value, date });
  }
  points.reverse();
  const yearAgoIndex = latest === -1 ? -1 : (layout.yearAgoOf[latest] ?? -1);
  const yearAgo = yearAgoIndex === -1 ? null : (values[yearAgoIndex] ?? null);
  return { points, yearAgo };
}

/**
 * Streams a Zillow City file (ZHVI, for-sale inventory, …) and returns our towns' series. Reads
 * the source to its end; throws {@link ZillowFileError} on a bad header or an empty file, and
 * passes on the source's own error (a cut connection). Rows of other places cost only their first
 * nine fields.
 */
export async function scanZillowCsv(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ZillowScanOptions = {},
): Promise<ZillowScan> {
  const towns = options.towns ?? allTowns();
  const pointsKept = options.pointsKept ?? ZHVI_POINTS_KEPT;
  const origin = options.originLabel ?? 'Zillow file';
  const townsByKey = new Map<string, Town[]>();
  for (const town of towns) {
    const key = placeKey(town.name);
    townsByKey.set(key, [...(townsByKey.get(key) ?? []), town]);
  }

  const scan: ZillowScan = {
    rowsRead: 0,
    rowsKept: 0,
    rowsSkipped: 0,
    skipped: [],
    matches: new Map(),
    unmatchedTowns: [],
    unmatchedPlaces: [],
    latestPeriod: null,
  };
  /** A row found in the other Long Island county than ours: used only when our county has none. */
  const otherCounty = new Map<string, TownSeries>();
  const unmatchedPlaces = new Set<string>();
  let layout: HeaderLayout | undefined;
  let record = 0;
  const skip = (reason: string) => {
    scan.rowsSkipped += 1;
    if (scan.skipped.length < SKIPPED_LISTED) scan.skipped.push({ record, reason });
  };

  const onRecord = (text: string) => {
    record += 1;
    if (!layout) {
      layout = parseHeader(text, origin);
      scan.latestPeriod = layout.dates.at(-1) ?? null;
      return;
    }
    if (text === '') return; // a blank line is not a row
    scan.rowsRead += 1;
    let head: string[];
    try {
      head = parseCsvFields(text, ID_COLUMN_COUNT);
    } catch (error) {
      skip(errorMessage(error));
      return;
    }
    if (head[STATE] !== 'NY') return;
    const county = COUNTY_OF_ZILLOW.get(head[COUNTY_NAME] ?? '');
    if (!county) return;
    scan.rowsKept += 1;
    const regionName = head[REGION_NAME] ?? '';
    const candidates = townsByKey.get(placeKey(regionName));
    if (!candidates) {
      unmatchedPlaces.add(`${regionName} (${county} County)`);
      return;
    }
    const sameCounty = candidates.find((town) => town.county === county);
    const town = sameCounty ?? candidates[0];
    if (!town) return;
    let fields: string[];
    try {
      fields = parseCsvFields(text);
    } catch (error) {
      skip(errorMessage(error));
      return;
    }
    const series = seriesOf(fields, layout, pointsKept);
    if (typeof series === 'string') {
      skip(`${regionName}: ${series}`);
      return;
    }
    if (series.points.length === 0) return; // no values at all: the town stays unmatched
    // The file is sorted by SizeRank: the first usable row of a place is its main one.
    const found = sameCounty ? scan.matches : otherCounty;
    if (!found.has(town.slug)) found.set(town.slug, { town, regionName, ...series });
  };

  const reader = new CsvRecordReader(options);
  try {
    for await (const chunk of source) reader.push(chunk, onRecord);
    reader.end(onRecord);
  } catch (error) {
    if (error instanceof CsvError) throw new ZillowFileError(`${origin}: ${error.message} (record ${record + 1})`);
    throw error;
  }
  if (!layout) throw new ZillowFileError(`${origin}: the file is empty`);

  for (const [slug, series] of otherCounty) if (!scan.matches.has(slug)) scan.matches.set(slug, series);
  scan.unmatchedTowns = towns.filter((town) => !scan.matches.has(town.slug)).map((town) => town.slug);
  scan.unmatchedPlaces = [...unmatchedPlaces].sort();
  return scan;
}

/** Rounds to cents (as a number of dollars). */
const toCents = (value: number): number => Math.round(value * 100);

/**
 * The year-over-year sentence of the town page: "Home values in Bay Shore are up 4.2% over the
 * past year.", "… are down 1.3% …", or "… are about the same as a year ago." when the change is
 * under 0.1% either way. Null without a value a year before.
 */
export function yearOverYearText(townName: string, latest: number, yearAgo: number | null): string | null {
  if (yearAgo === null || yearAgo <= 0) return null;
  const percent = ((latest - yearAgo) / yearAgo) * 100;
  if (Math.abs(percent) < 0.1) return `Home values in ${townName} are about the same as a year ago.`;
  return `Home values in ${townName} are ${percent > 0 ? 'up' : 'down'} ${Math.abs(percent).toFixed(1)}% over the past year.`;
}

/** The town's Zillow search page from a template (see {@link DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE}). */
export function zillowSearchUrl(template: string, town: Town, regionName: string): string {
  return template
    .replaceAll('{city}', encodeURIComponent(townSlug(regionName) || town.slug))
    .replaceAll('{slug}', town.slug)
    .replaceAll('{state}', 'ny');
}

/** The row `importZhvi` stores for a town. */
export interface ZhviMarketRow {
  town_slug: string;
  typical_home_value_cents: number;
  description: string | null;
  search_url: string;
  zhvi_range: ZhviPoint[];
}

export function zhviMarketRow(series: TownSeries, searchUrlTemplate: string): ZhviMarketRow {
  const { town, points } = series;
  const last = points.at(-1);
  if (!last) throw new Error(`no points for ${town.slug}`);
  const latestCents = toCents(last.value);
  const yearAgoCents = series.yearAgo === null ? null : toCents(series.yearAgo);
  return {
    town_slug: town.slug,
    typical_home_value_cents: latestCents,
    description: yearOverYearText(town.name, latestCents, yearAgoCents),
    search_url: zillowSearchUrl(searchUrlTemplate, town, series.regionName),
    zhvi_range: points.map((point) => ({ dataValue: toCents(point.value) / 100, timePeriodEnd: point.date })),
  };
}

export interface ZhviImportOptions extends CsvReaderOptions {
  /** Our towns (default: all of towns.data.json); each must be in the `towns` table. */
  towns?: readonly Town[];
  /** Stored as last_updated of the towns whose data changed (default: now). */
  now?: Date;
  /** Where the file came from (a URL or a path), for the report and error messages. */
  originLabel?: string;
  /** The Zillow search page of a town (default {@link DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE}). */
  searchUrlTemplate?: string;
  /** The shipped sample file (local demo data): the rows are marked as sample; a real import clears the mark. */
  sample?: boolean;
}

/** What an import of a Zillow file did (ZHVI or for-sale inventory). */
export interface ZillowImportReport {
  origin: string;
  /** Data rows read (the header is not counted). */
  rowsRead: number;
  /** Nassau and Suffolk County, NY rows. */
  rowsKept: number;
  /** Malformed rows skipped (see {@link ZillowScan.rowsSkipped}). */
  rowsSkipped: number;
  /** The first few skipped rows and why. */
  skipped: SkippedRow[];
  /** Our towns found in the file. */
  townsMatched: number;
  /** Towns whose stored data changed (a town whose values are already stored is not rewritten). */
  townsUpdated: number;
  /** Their slugs, sorted. */
  updatedTowns: string[];
  /** Slugs of our towns with no usable row in the file (their data is left as it was). */
  unmatchedTowns: string[];
  /** Nassau and Suffolk places of the file that are none of our towns. */
  unmatchedPlaces: string[];
  /** The file's latest month. */
  latestPeriod: string | null;
  /** Did any stored value change (so the town pages need a rebuild)? */
  changed: boolean;
}

/**
 * Imports the ZHVI City file from `source` (a file stream, a fetch body, any chunks of bytes or
 * text). Per matched town it stores the last 24 points (cents precision, oldest first), the latest
 * value as the typical home value, the year-over-year sentence, the Zillow search URL, and
 * last_updated = `now` when any of these changed; for_sale_inventory is kept (the inventory file
 * sets it).
 *
 * Nothing is written until the whole source has been read, then every town is written in one
 * transaction (one statement): a bad header, broken CSV structure ({@link ZillowFileError}) or a
 * source that fails part-way throws and leaves every town's data as it was. Malformed rows of our
 * towns are skipped and counted; towns without a row are reported and left alone.
 */
export async function importZhvi(
  db: Db,
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ZhviImportOptions = {},
): Promise<ZillowImportReport> {
  const origin = options.originLabel ?? 'Zillow ZHVI file';
  const scan = await scanZillowCsv(source, { ...options, originLabel: origin, pointsKept: ZHVI_POINTS_KEPT });
  const template = options.searchUrlTemplate ?? DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE;
  const rows = [...scan.matches.values()]
    .map((series) => zhviMarketRow(series, template))
    .sort((a, b) => (a.town_slug < b.town_slug ? -1 : 1));
  const updated =
    rows.length === 0 ? [] : await writeZhvi(db, rows, options.now ?? new Date(), options.sample ?? false);
  return importReport(origin, scan, updated);
}

/** The report of a Zillow import from its scan and the slugs of the towns it wrote. */
export function importReport(origin: string, scan: ZillowScan, updated: readonly string[]): ZillowImportReport {
  const townsUpdated = updated.length;
  return {
    origin,
    rowsRead: scan.rowsRead,
    rowsKept: scan.rowsKept,
    rowsSkipped: scan.rowsSkipped,
    skipped: scan.skipped,
    townsMatched: scan.matches.size,
    townsUpdated,
    updatedTowns: [...updated].sort(),
    unmatchedTowns: scan.unmatchedTowns,
    unmatchedPlaces: scan.unmatchedPlaces,
    latestPeriod: scan.latestPeriod,
    changed: townsUpdated > 0,
  };
}

/**
 * Upserts the towns' rows in one statement; a row whose values are already
 * stored is left untouched (its last_updated too). Returns the slugs of the rows written.
 */
async function writeZhvi(db: Db, rows: readonly ZhviMarketRow[], now: Date, sample: boolean): Promise<string[]> {
  // One statement: atomic on its own, so no BEGIN/COMMIT round trips around it.
  const written = await db.query<{ town_slug: string }>(
    `INSERT INTO town_market_data AS m
              (town_slug, typical_home_value_cents, description, search_url, zhvi_range, last_updated, sample)
       SELECT town_slug, typical_home_value_cents, description, search_url, zhvi_range, $2::timestamptz, $3::boolean
         FROM jsonb_to_recordset($1::jsonb) AS t(
                town_slug text, typical_home_value_cents bigint, description text, search_url text, zhvi_range jsonb)
       ON CONFLICT (town_slug) DO UPDATE SET
         typical_home_value_cents = EXCLUDED.typical_home_value_cents,
         description = EXCLUDED.description,
         search_url = EXCLUDED.search_url,
         zhvi_range = EXCLUDED.zhvi_range,
         last_updated = EXCLUDED.last_updated,
         sample = EXCLUDED.sample
       WHERE (m.typical_home_value_cents, m.description, m.search_url, m.zhvi_range, m.sample)
             IS DISTINCT FROM
             (EXCLUDED.typical_home_value_cents, EXCLUDED.description, EXCLUDED.search_url, EXCLUDED.zhvi_range,
              EXCLUDED.sample)
       RETURNING town_slug`,
    [JSON.stringify(rows), now.toISOString(), sample],
  );
  return written.map((row) => row.town_slug);
}
