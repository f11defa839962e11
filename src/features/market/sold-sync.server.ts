/**
 * Recently sold homes per town, from a RESO Web API feed (or a file in its shape) into
 * `town_sold_homes`.
 *
 * A run reads first and writes after: every page is fetched and checked before the database is
 * touched (twelve months of closed sales in Nassau and Suffolk is some tens of thousands of small
 * records), then ONE transaction upserts the sales by ListingKey, drops sales older than the window
 * and advances the feed's position in `data_sync_state`. Whatever fails before the commit (the
 * feed, a page, the database) leaves the previous rows and position exactly as they were.
 *
 * The first run (no position yet) and a run with `full` load the whole window and, being complete,
 * also remove stored sales of the towns concerned that the feed no longer lists (withdrawn or
 * corrected records). Later runs ask only for records with `ModificationTimestamp gt` the position.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { placeKey } from '../towns/public/place-key.ts';
import type { Db, Queryable } from '../../platform/db.ts';
import { allTowns, type Town } from '../towns/public/town-data.ts';
import type { ClosedSalesSource, ResoProperty } from './reso-records.server.ts';
import { LONG_ISLAND_TIME_ZONE } from '../../ui/long-island-time.ts';

/** The key of the feed's row in `data_sync_state` (and its `source` in `data_runs`). */
export const SOLD_SOURCE = 'sold';
/** Sales are kept this many months after their close date. */
export const SOLD_WINDOW_MONTHS = 12;
/** The calendar the close dates are in. */
const SOLD_TIME_ZONE = LONG_ISLAND_TIME_ZONE;
/** Rows per upsert statement (one jsonb parameter each). */
const UPSERT_BATCH = 1_000;
/** Distinct unmatched city names kept in the report. */
const MAX_UNMATCHED_CITIES = 50;

/** What matching a sale to a town needs of a town. */
export type SoldTown = Pick<Town, 'slug' | 'name' | 'county' | 'zipCodes'>;

export interface SoldSyncOptions {
  /** The clock of the 12-month window. Default the current time. */
  now?: Date;
  /** The towns sales are matched to (they must be rows of `towns`). Default allTowns(). */
  towns?: readonly SoldTown[];
  /** Load the whole window even when a position is stored. */
  full?: boolean;
  /**
   * The shipped sample file (local demo data): rows are marked as sample and no position is kept,
   * so the first real sync is a full load, which removes them.
   */
  sample?: boolean;
}

export interface SoldSyncReport {
  mode: 'full' | 'incremental';
  /** The position the run asked from (incremental runs), as stored before it. */
  since: Date | null;
  /** The first close date of the window (YYYY-MM-DD). */
  closedOnOrAfter: string;
  /** Records received, valid or not. */
  rowsRead: number;
  /** Records not stored: invalid + unmatched + outside the window. */
  rowsSkipped: number;
  /** Records that failed the schema. */
  invalid: number;
  /** Valid records that belong to none of the towns. */
  unmatched: number;
  /** Their city names (distinct, sorted, at most 50), to extend the matching with. */
  unmatchedCities: string[];
  /** Rows inserted or changed. */
  rowsUpserted: number;
  /** Rows deleted: past the window, or (full runs) no longer in the feed. */
  rowsDeleted: number;
  /** Towns whose sold homes changed. */
  townsUpdated: number;
  /** Their slugs, sorted. */
  updatedTowns: string[];
  /** Did stored sales change (the town pages need a rebuild)? */
  changed: boolean;
  /** The stored position after the run (ISO), null while no record was ever seen. */
  position: string | null;
}

/** A row of `town_sold_homes` as the upsert sends it. */
export interface SoldHomeRow {
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
  modification_timestamp: string;
  sample: boolean;
}

/** The five-digit ZIP of a postal code ("11706", "11706-1234", "11706 1234"), if it has one. */
const zip5 = (postalCode: string | null): string | null => /^(\d{5})(?:\D|$)/.exec(postalCode ?? '')?.[1] ?? null;

/**
 * Which town a sale belongs to: its City, as a town's name; otherwise its ZIP, when exactly one
 * town has that ZIP (11746 is both Dix Hills and Huntington Station, so it alone decides nothing).
 */
export function createTownMatcher(
  towns: readonly SoldTown[],
): (sale: { City: string | null; PostalCode: string | null }) => SoldTown | undefined {
  const byName = new Map(towns.map((town) => [placeKey(town.name), town]));
  const byZip = new Map<string, SoldTown | null>();
  for (const town of towns) {
    for (const zip of town.zipCodes) byZip.set(zip, byZip.has(zip) ? null : town);
  }
  return ({ City, PostalCode }) => {
    const named = City === null ? undefined : byName.get(placeKey(City));
    if (named) return named;
    const zip = zip5(PostalCode);
    return (zip === null ? undefined : byZip.get(zip)) ?? undefined;
  };
}

/** `now` as a calendar day in New York, minus SOLD_WINDOW_MONTHS (29 February becomes the 28th). */
export function soldWindowStart(now: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: SOLD_TIME_ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(now);
  const part = (type: string): number => Number(parts.find((candidate) => candidate.type === type)?.value);
  const months = part('year') * 12 + (part('month') - 1) - SOLD_WINDOW_MONTHS;
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(part('day'), lastDay);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The address shown for a sale: UnparsedAddress, else the street number and name. */
export function saleAddress(sale: Pick<ResoProperty, 'UnparsedAddress' | 'StreetNumber' | 'StreetName'>): string {
  return sale.UnparsedAddress ?? [sale.StreetNumber, sale.StreetName].filter(Boolean).join(' ');
}

/** The row a sale is stored as, in `townSlug`. */
export function soldHomeRow(sale: ResoProperty, townSlug: string, sample = false): SoldHomeRow {
  return {
    listing_key: sale.ListingKey,
    town_slug: townSlug,
    address: saleAddress(sale),
    beds: sale.BedroomsTotal,
    baths: sale.BathroomsTotalInteger,
    sqft: sale.LivingArea,
    sold_date: sale.CloseDate,
    listing_agent: sale.ListAgentFullName,
    listing_office: sale.ListOfficeName,
    price_cents: sale.ClosePrice === null ? null : Math.round(sale.ClosePrice * 100),
    property_type: sale.PropertyType,
    modification_timestamp: sale.ModificationTimestamp,
    sample,
  };
}

/** Later of two RESO timestamps (ISO strings, any offset). */
const later = (a: string | null, b: string): string => (a === null || Date.parse(b) > Date.parse(a) ? b : a);

/** The stored position, truncated to milliseconds (so `gt` never passes over a record). */
async function storedPosition(db: Queryable): Promise<Date | null> {
  const [row] = await db.query<{ position: Date | null }>(
    `SELECT date_trunc('milliseconds', last_modification_timestamp) AS position
       FROM data_sync_state WHERE source = $1`,
    [SOLD_SOURCE],
  );
  return row?.position ?? null;
}

interface WriteResult {
  upserted: number;
  deleted: number;
  towns: Set<string>;
  position: string | null;
}

/** Upserts `rows` in batches; answers the towns they changed (an old town too, when a sale moved). */
async function upsertRows(tx: Queryable, rows: readonly SoldHomeRow[], towns: Set<string>): Promise<number> {
  let upserted = 0;
  for (let start = 0; start < rows.length; start += UPSERT_BATCH) {
    // Between statements the event loop runs: the embedded database works in this process.
    if (start > 0) await nextTurn();
    const batch = rows.slice(start, start + UPSERT_BATCH);
    const written = await tx.query<{ town_slug: string; previous_town_slug: string | null }>(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(
           listing_key text, town_slug text, address text, beds integer, baths numeric, sqft integer,
           sold_date date, listing_agent text, listing_office text, price_cents bigint, property_type text,
           modification_timestamp timestamptz, sample boolean)
       ), previous AS (
         SELECT s.listing_key, s.town_slug FROM town_sold_homes s JOIN input i ON i.listing_key = s.listing_key
       ), written AS (
         INSERT INTO town_sold_homes (listing_key, town_slug, address, beds, baths, sqft, sold_date, listing_agent,
                                      listing_office, price_cents, property_type, modification_timestamp, sample)
         SELECT listing_key, town_slug, address, beds, baths, sqft, sold_date, listing_agent, listing_office,
                price_cents, property_type, modification_timestamp, sample
           FROM input
         ON CONFLICT (listing_key) DO UPDATE SET
           town_slug = EXCLUDED.town_slug, address = EXCLUDED.address, beds = EXCLUDED.beds,
           baths = EXCLUDED.baths, sqft = EXCLUDED.sqft, sold_date = EXCLUDED.sold_date,
           listing_agent = EXCLUDED.listing_agent, listing_office = EXCLUDED.listing_office,
           price_cents = EXCLUDED.price_cents, property_type = EXCLUDED.property_type,
           modification_timestamp = EXCLUDED.modification_timestamp, sample = EXCLUDED.sample, updated_at = now()
         WHERE (town_sold_homes.town_slug, town_sold_homes.address, town_sold_homes.beds, town_sold_homes.baths,
                town_sold_homes.sqft, town_sold_homes.sold_date, town_sold_homes.listing_agent,
                town_sold_homes.listing_office, town_sold_homes.price_cents, town_sold_homes.property_type,
                town_sold_homes.sample)
               IS DISTINCT FROM
               (EXCLUDED.town_slug, EXCLUDED.address, EXCLUDED.beds, EXCLUDED.baths, EXCLUDED.sqft,
                EXCLUDED.sold_date, EXCLUDED.listing_agent, EXCLUDED.listing_office, EXCLUDED.price_cents,
                EXCLUDED.property_type, EXCLUDED.sample)
         RETURNING listing_key, town_slug
       )
       SELECT w.town_slug, p.town_slug AS previous_town_slug
         FROM written w LEFT JOIN previous p ON p.listing_key = w.listing_key`,
      [JSON.stringify(batch)],
    );
    for (const row of written) {
      towns.add(row.town_slug);
      if (row.previous_town_slug !== null) towns.add(row.previous_town_slug);
    }
    upserted += written.length;
  }
  return upserted;
}

async function write(
  db: Db,
  rows: readonly SoldHomeRow[],
  {
    full,
    townSlugs,
    windowStart,
    maxSeen,
  }: { full: boolean; townSlugs: string[]; windowStart: string; maxSeen: string | null },
): Promise<WriteResult> {
  return db.transaction(async (tx) => {
    const towns = new Set<string>();
    const upserted = await upsertRows(tx, rows, towns);
    const deleted: { town_slug: string }[] = [];
    if (full) {
      // A full load is the whole truth for its towns: what it no longer lists goes.
      deleted.push(
        ...(await tx.query<{ town_slug: string }>(
          `DELETE FROM town_sold_homes
            WHERE town_slug IN (SELECT jsonb_array_elements_text($1::jsonb))
              AND listing_key NOT IN (SELECT jsonb_array_elements_text($2::jsonb))
           RETURNING town_slug`,
          [JSON.stringify(townSlugs), JSON.stringify(rows.map((row) => row.listing_key))],
        )),
      );
    }
    deleted.push(
      ...(await tx.query<{ town_slug: string }>(
        'DELETE FROM town_sold_homes WHERE sold_date < $1::date RETURNING town_slug',
        [windowStart],
      )),
    );
    for (const row of deleted) towns.add(row.town_slug);
    // Never backwards: GREATEST ignores a null on either side.
    const [state] = await tx.query<{ position: string | null }>(
      `INSERT INTO data_sync_state (source, last_modification_timestamp, updated_at)
       VALUES ($1, $2::timestamptz, now())
       ON CONFLICT (source) DO UPDATE SET
         last_modification_timestamp = GREATEST(data_sync_state.last_modification_timestamp,
                                                EXCLUDED.last_modification_timestamp),
         updated_at = now()
       RETURNING to_char(last_modification_timestamp AT TIME ZONE 'UTC',
                         'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position`,
      [SOLD_SOURCE, maxSeen],
    );
    return { upserted, deleted: deleted.length, towns, position: state?.position ?? null };
  });
}

/**
 * Brings `town_sold_homes` up to date from `source` (see the module comment). Rejects, with
 * nothing written, when the source cannot be read to the end; the caller records the failure.
 */
export async function syncSoldHomes(
  db: Db,
  source: ClosedSalesSource,
  options: SoldSyncOptions = {},
): Promise<SoldSyncReport> {
  const { now = new Date(), towns = allTowns(), sample = false } = options;
  const windowStart = soldWindowStart(now);
  const stored = await storedPosition(db);
  const since = options.full === true || stored === null ? undefined : stored;
  const full = since === undefined;
  const counties = [...new Set(towns.map((town) => town.county))].sort();
  const match = createTownMatcher(towns);

  let invalid = 0;
  let unmatched = 0;
  let outsideWindow = 0;
  let rowsRead = 0;
  let maxSeen: string | null = null;
  const unmatchedCities = new Set<string>();
  const byKey = new Map<string, SoldHomeRow>();

  for await (const sale of source.closedSales({
    counties,
    closedOnOrAfter: windowStart,
    since,
    onSkip: () => {
      invalid += 1;
      rowsRead += 1;
    },
  })) {
    rowsRead += 1;
    maxSeen = later(maxSeen, sale.ModificationTimestamp);
    if (sale.CloseDate < windowStart) {
      outsideWindow += 1;
      continue;
    }
    const town = match(sale);
    if (!town) {
      unmatched += 1;
      if (sale.City !== null) unmatchedCities.add(sale.City);
      continue;
    }
    // Offset paging can hand out a record twice when it changes mid-run: the newest version wins.
    const previous = byKey.get(sale.ListingKey);
    if (!previous || Date.parse(sale.ModificationTimestamp) >= Date.parse(previous.modification_timestamp)) {
      byKey.set(sale.ListingKey, soldHomeRow(sale, town.slug, sample));
    }
  }

  const result = await write(db, [...byKey.values()], {
    full,
    townSlugs: towns.map((town) => town.slug),
    windowStart,
    maxSeen: sample ? null : maxSeen,
  });
  return {
    mode: full ? 'full' : 'incremental',
    since: since ?? null,
    closedOnOrAfter: windowStart,
    rowsRead,
    rowsSkipped: invalid + unmatched + outsideWindow,
    invalid,
    unmatched,
    unmatchedCities: [...unmatchedCities].sort().slice(0, MAX_UNMATCHED_CITIES),
    rowsUpserted: result.upserted,
    rowsDeleted: result.deleted,
    townsUpdated: result.towns.size,
    updatedTowns: [...result.towns].sort(),
    changed: result.upserted > 0 || result.deleted > 0,
    position: result.position,
  };
}
