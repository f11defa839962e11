/**
 * Seller updates under a simulated clock: sellers made in bulk (one statement for any number of
 * estimates, leads and subscriptions), ZHVI series that gain a point at each month's end, and a run
 * at 14:00 Long Island time on a given day (the `asOf` the run is given is the clock).
 */
import type { Db } from '../../src/platform/db.ts';
import { updateLinkSigner } from '../../src/features/seller-updates/public/update-links.server.ts';
import {
  runSellerUpdates,
  type RunOptions,
  type UpdateDeps,
} from '../../src/features/seller-updates/public/digest-run.server.ts';
import { longIslandHour } from '../../src/ui/long-island-time.ts';

export const UPDATE_DEPS: UpdateDeps = {
  siteUrl: 'https://homes.example.com',
  signer: updateLinkSigner(new Uint8Array(32).fill(7)),
};

const DAY_MS = 86_400_000;

/** YYYY-MM-DD `days` after `day`. */
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** `day` at `hour` o'clock Long Island time (EST or EDT, whichever is in force). */
export function onLongIsland(day: string, hour = 14): Date {
  for (const utcOffset of [4, 5]) {
    const at = new Date(Date.parse(`${day}T00:00:00Z`) + (hour + utcOffset) * 3_600_000);
    if (longIslandHour(at) === hour) return at;
  }
  throw new Error(`no ${hour}:00 on Long Island on ${day}`);
}

/** A run at 14:00 Long Island time on `day`, as the scheduled job makes it. */
export const runOn = (db: Db, day: string, options: Partial<RunOptions> = {}) =>
  runSellerUpdates(db, UPDATE_DEPS, { asOf: onLongIsland(day), ...options });

/** The month ends from January 2025 to `day` (inclusive). */
function monthEndsThrough(day: string): string[] {
  const ends: string[] = [];
  for (let month = 1; ; month += 1) {
    const end = new Date(Date.UTC(2025, month, 0)).toISOString().slice(0, 10);
    if (end > day) return ends;
    ends.push(end);
  }
}

/**
 * Each town's series through `day`: a point per month end, from `base` up `monthlyPercent` a month,
 * so every month's new point moves the sellers' prices.
 */
export async function setSeries(
  db: Db,
  towns: readonly { slug: string; base: number; monthlyPercent: number }[],
  day: string,
): Promise<void> {
  const ends = monthEndsThrough(day);
  const series = towns.map(({ base, monthlyPercent }) =>
    JSON.stringify(
      ends.map((timePeriodEnd, index) => ({
        timePeriodEnd,
        dataValue: Math.round(base * (1 + monthlyPercent / 100) ** index * 100) / 100,
      })),
    ),
  );
  await db.query(
    `INSERT INTO town_market_data (town_slug, zhvi_range)
     SELECT slug, series FROM unnest($1::text[], $2::jsonb[]) AS t (slug, series)
     ON CONFLICT (town_slug) DO UPDATE SET zhvi_range = excluded.zhvi_range`,
    [towns.map((town) => town.slug), series],
  );
}

export interface NewSellers {
  agentId: number;
  count: number;
  /** Distinguishes the addresses of groups: seller-{tag}-{n}@example.com. */
  tag: string;
  townSlug: string | null;
  county?: 'Nassau' | 'Suffolk' | null;
  state?: 'pending' | 'subscribed' | 'paused';
  /** When the estimates were made (their base day). */
  estimateAt: Date;
  /** The first update of seller n is due `firstDue` + (n mod spreadDays) days. */
  firstDue: Date;
  spreadDays?: number;
  /** Details stored with each estimate (a detailed estimate); none: a quick one. */
  details?: unknown;
}

/** Estimates, leads and subscriptions for `count` sellers in ONE statement; answers the subscriptions' ids. */
export async function addSellers(db: Db, sellers: NewSellers): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `WITH n AS (SELECT i FROM generate_series(1, $2::int) AS i),
     e AS (
       INSERT INTO estimates (uuid, agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                              transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, created_at, details)
       SELECT md5($3 || '-estimate-' || i)::uuid, $1, 60000000 + i * 100000, 30000000, 5, 4, 150000, 25000, $4, $10::jsonb
         FROM n
       RETURNING uuid, sale_price_cents
     ),
     l AS (
       INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing, estimate_uuid, created_at)
       SELECT $1, 'Seller', i::text, 'seller-' || $3 || '-' || i || '@example.com', 'calculator', true,
              md5($3 || '-estimate-' || i)::uuid, $4
         FROM n
       RETURNING id, email, estimate_uuid
     )
     INSERT INTO seller_updates (lead_id, agent_id, email, estimate_uuid, town_slug, county, state, confirmed_at,
                                 next_due_at, last_price_cents)
     SELECT l.id, $1, l.email, l.estimate_uuid, $5, $6, $7,
            CASE WHEN $7 = 'pending' THEN NULL ELSE $4::timestamptz END,
            CASE WHEN $7 = 'subscribed' THEN $8::timestamptz + make_interval(days => (l.id % $9::int)) END,
            e.sale_price_cents
       FROM l JOIN e ON e.uuid = l.estimate_uuid
     RETURNING id`,
    [
      sellers.agentId,
      sellers.count,
      sellers.tag,
      sellers.estimateAt,
      sellers.townSlug,
      sellers.county ?? null,
      sellers.state ?? 'subscribed',
      sellers.firstDue,
      sellers.spreadDays ?? 1,
      sellers.details === undefined ? null : JSON.stringify(sellers.details),
    ],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

export interface SendRow {
  subscription_id: number;
  period: number;
  sent_at: Date;
  delivery_id: number | null;
  price_cents: number;
  net_cents: number;
}

export const sendsOf = (db: Db, ids: readonly number[]) =>
  db.query<SendRow>(
    `SELECT subscription_id, period, sent_at, delivery_id, price_cents, net_cents
       FROM seller_update_sends WHERE subscription_id = ANY($1::int[]) ORDER BY subscription_id, period`,
    [[...ids]],
  );

/** The seeded towns of a county, for sellers and series. */
export const townsOf = async (db: Db, county: 'Nassau' | 'Suffolk', count: number) =>
  (
    await db.query<{ slug: string; name: string }>(
      'SELECT slug, name FROM towns WHERE county = $1 ORDER BY slug LIMIT $2',
      [county, count],
    )
  ).map((town) => town);
