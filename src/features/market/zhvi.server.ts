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
 * inventory file, which has the same layout (zillow-scan.server.ts, zillow-inventory.server.ts).
 */
import type { Db } from '../../platform/db.ts';
import { townSlug, type Town } from '../towns/public/town-data.ts';
import type { ZhviPoint } from '../towns/public/town-page.ts';
import type { CsvReaderOptions } from './csv.ts';
import {
  importReport,
  scanZillowCsv,
  ZHVI_POINTS_KEPT,
  type TownSeries,
  type ZillowImportReport,
} from './zillow-scan.server.ts';

/** `{city}`: Zillow's place name as a slug ("st-james"); `{slug}`: our town's slug; `{state}`: "ny". */
export const DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE = 'https://www.zillow.com/{city}-ny/';

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
