/**
 * What the sold-homes sync's test files share (sold-sync-*.test.ts): the moment of the runs, a feed
 * with sales in every town, the stored row and what a record should be stored as, and the helpers
 * that read the database and make a RESO client of the file's fake.
 */
import { createResoClient, type ResoClientConfig } from '../../src/features/market/reso-client.server.ts';
import { ResoError, type ResoErrorKind } from '../../src/features/market/reso-error.server.ts';
import { SOLD_SOURCE } from '../../src/features/market/sold-sync.server.ts';
import { allTowns, townBySlug, type Town } from '../../src/features/towns/public/town-data.ts';
import { generateClosedSales, type FakeReso, type ResoRecord } from '../fakes/reso.ts';
import { type TestDatabase } from './backends.ts';

/** The moment of the first run: the window starts on 2025-03-16 (New York). */
export const NOW = new Date('2026-03-16T15:00:00Z');
export const WINDOW_START = '2025-03-16';
export const PER_TOWN = 4;
/** Modification times after every generated one (those are at most a minute before NOW). */
export const LATER = ['2026-03-16T14:59:10.000Z', '2026-03-16T14:59:20.000Z', '2026-03-16T14:59:30.000Z'] as const;

export function town(slug: string): Town {
  const found = townBySlug(slug);
  if (!found) throw new Error(`no town ${slug}`);
  return found;
}

/** Four sales in every town, keyed `{slug}:{n}` so a test knows each sale's town. */
export function feedForAllTowns(): ResoRecord[] {
  return allTowns().flatMap((each, index) =>
    generateClosedSales({ towns: [each], now: NOW, perTown: PER_TOWN, seed: index + 1, keyPrefix: `${each.slug}:` }),
  );
}

export const slugOfKey = (key: unknown): string => String(key).split(':')[0] ?? '';

export interface StoredRow {
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
export function visible(row: StoredRow): Omit<StoredRow, 'updated_at'> {
  const { updated_at: updatedAt, ...rest } = row;
  void updatedAt;
  return rest;
}

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** What a feed record should be stored as (written out here, not taken from the module). */
export function expectedRow(record: ResoRecord, townSlug: string) {
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

/** What the helpers read, as each file's hooks set it: its database, its fake server, the sleeps. */
export interface SoldSyncRun {
  test: () => TestDatabase;
  reso: () => FakeReso;
  sleeps: () => number[];
}

/** The stored rows, the stored position, a snapshot of both, a town page's sales, a client, a failure's kind. */
export function soldSyncHelpers(current: SoldSyncRun) {
  const rows = () =>
    current.test().db.query<StoredRow>(
      `SELECT listing_key, town_slug, address, beds, baths::float8 AS baths, sqft, sold_date::text AS sold_date,
              listing_agent, listing_office, price_cents, property_type,
              to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                AS modification_timestamp,
              updated_at::text AS updated_at
         FROM town_sold_homes ORDER BY listing_key`,
    );
  const position = async () => {
    const [row] = await current.test().db.query<{ position: string | null; updated_at: string }>(
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
    current.test().db.query<{ listing_key: string; sold_date: string }>(
      `SELECT listing_key, sold_date::text AS sold_date FROM town_sold_homes
        WHERE town_slug = $1 ORDER BY sold_date DESC, listing_key LIMIT 3`,
      [slug],
    );

  const client = (config: Partial<ResoClientConfig> = {}) =>
    createResoClient({
      baseUrl: current.reso().url,
      tokenUrl: current.reso().tokenUrl,
      clientId: current.reso().clientId,
      clientSecret: current.reso().clientSecret,
      timeoutMs: 5_000,
      maxRetryAfterSeconds: 5,
      sleep: (ms) => {
        current.sleeps().push(ms);
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

  return { rows, position, snapshot, pageSales, client, failureKind };
}
