/**
 * The scanning half of a Zillow Research City ("places") file, shared by the ZHVI importer
 * (zhvi.server.ts) and the for-sale inventory (zillow-inventory.server.ts), which have the same
 * layout: the header checked, the file streamed one record at a time, a row kept only if its State is
 * NY, its CountyName is Nassau or Suffolk County and its RegionName is one of our towns (other rows
 * are dropped after their first nine fields are read), and the report of what an import did.
 */
import { placeKey } from '../towns/public/place-key.ts';
import { allTowns, type County, type Town } from '../towns/public/town-data.ts';
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
