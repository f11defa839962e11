/**
 * The reads of a seller-updates run (decision 0056), each ONE round trip:
 * - a batch of due subscriptions, oldest first, with everything an update needs of each (the lead,
 *   the estimate it re-prices, the agent and their current calculator settings, whether the address
 *   is suppressed), only where the site's switch, the agent's switch and the agent are on;
 * - the market, once per run: every town's ZHVI series and three latest sales, and the fee table in
 *   force (the same for every seller of the run).
 */
import * as z from 'zod';
import type { Queryable } from '../../platform/db.ts';
import { SETTINGS_COLUMNS } from '../net-sheet/public/agent-settings-row.server.ts';
import { zhviPointSchema } from '../towns/public/town-page.ts';

const county = z.enum(['Nassau', 'Suffolk']);
const count = z.coerce.number();
const nullableCents = z.coerce.number().nullable();

export const dueRowSchema = z.object({
  id: z.number(),
  lead_id: z.number(),
  email: z.string(),
  estimate_uuid: z.string().nullable(),
  town_slug: z.string().nullable(),
  county: county.nullable(),
  town_county: county.nullable(),
  next_due_at: z.date(),
  updates_sent: count,
  updates_since_click: count,
  last_price_cents: nullableCents,
  last_net_cents: nullableCents,
  lead_found: z.boolean(),
  suppressed: z.boolean(),
  estimate_found: z.boolean(),
  sale_price_cents: nullableCents,
  mortgage_payoff_cents: nullableCents,
  estimate_created_at: z.date().nullable(),
  details: z.unknown(),
  agent_id: z.number(),
  agent_first_name: z.string(),
  agent_last_name: z.string(),
  agent_email: z.string(),
  agent_phone: z.string().nullable(),
  agent_slug: z.string(),
  default_attorney_fee_cents: nullableCents,
  default_recording_fee_cents: nullableCents,
  transfer_tax_rate_per_1000: nullableCents,
  default_commission_percent: nullableCents,
  default_listing_percent: nullableCents,
  default_buyer_agent_percent: nullableCents,
  default_days_to_closing: nullableCents,
  default_title_closer_pickup: z.boolean().nullable(),
  default_payoff_bank_attorney: z.boolean().nullable(),
  default_rp5217_on_seller: z.boolean().nullable(),
});
export type DueRow = z.infer<typeof dueRowSchema>;

/** Where a batch starts: after the last row of the one before (keyset, so no row is read twice). */
export interface DueCursor {
  nextDueAt: Date;
  id: number;
}

/**
 * Due: subscribed, next_due_at reached; the site's switch on, the agent active with their switch on
 * (a switched-off agent's sellers stay due, untouched, until it is on again). `s` is agent_settings
 * (SETTINGS_COLUMNS names it so); the subscription is `u`.
 *
 * The batch is picked first (`due`): the due index (next_due_at, id), migration 0034, read from the
 * cursor in order, with the agent's and the site's switches, up to `limit` rows. Only then are its
 * lead, estimate and town looked up by key. Joined in one query, the planner hashed the whole
 * estimates and leads tables for each batch (they grow with every update sent), so a run's cost grew
 * with the tables rather than with its batches.
 */
const DUE_SQL = `
WITH due AS MATERIALIZED (
  SELECT u.id, u.lead_id, u.email, u.estimate_uuid, u.town_slug, u.county, u.next_due_at, u.updates_sent,
         u.updates_since_click, u.last_price_cents, u.last_net_cents, u.agent_id
    FROM seller_updates u
   WHERE u.state = 'subscribed' AND u.next_due_at <= $1
     AND ($2::timestamptz IS NULL OR (u.next_due_at, u.id) > ($2::timestamptz, $3::integer))
     AND EXISTS (SELECT 1 FROM site_settings ss WHERE ss.id = 1 AND ss.seller_updates_enabled)
     AND EXISTS (SELECT 1 FROM agents a LEFT JOIN agent_settings s ON s.agent_id = a.id
                  WHERE a.id = u.agent_id AND a.status = 'active' AND coalesce(s.seller_updates_enabled, true))
   ORDER BY u.next_due_at, u.id
   LIMIT $4
)
SELECT u.id, u.lead_id, u.email, u.estimate_uuid, u.town_slug, u.county, t.county AS town_county, u.next_due_at,
       u.updates_sent, u.updates_since_click, u.last_price_cents, u.last_net_cents,
       l.id IS NOT NULL AS lead_found,
       EXISTS (SELECT 1 FROM email_suppressions x WHERE x.email = u.email) AS suppressed,
       e.uuid IS NOT NULL AS estimate_found, e.sale_price_cents, e.mortgage_payoff_cents,
       e.created_at AS estimate_created_at, e.details,
       a.id AS agent_id, a.first_name AS agent_first_name, a.last_name AS agent_last_name, a.email AS agent_email,
       a.phone AS agent_phone, a.slug AS agent_slug, ${SETTINGS_COLUMNS}
  FROM due u
  JOIN agents a ON a.id = u.agent_id
  LEFT JOIN agent_settings s ON s.agent_id = a.id
  LEFT JOIN leads l ON l.id = u.lead_id
  LEFT JOIN estimates e ON e.uuid = u.estimate_uuid
  LEFT JOIN towns t ON t.slug = u.town_slug
 ORDER BY u.next_due_at, u.id`;

/** One round trip: up to `limit` due subscriptions after `cursor`, oldest first. */
export async function readDueBatch(
  db: Queryable,
  asOf: Date,
  limit: number,
  cursor: DueCursor | null,
): Promise<DueRow[]> {
  const rows = await db.query(DUE_SQL, [asOf, cursor?.nextDueAt ?? null, cursor?.id ?? 0, limit]);
  return z.array(dueRowSchema).parse(rows);
}

const saleSchema = z.object({
  address: z.string(),
  price_cents: nullableCents,
  sold_date: z.string(),
  beds: nullableCents,
  baths: nullableCents,
  sqft: nullableCents,
});

const townMarketSchema = z.object({
  slug: z.string(),
  name: z.string(),
  county,
  zhvi: z.array(zhviPointSchema),
  sales: z.array(saleSchema),
});
export type TownMarket = z.infer<typeof townMarketSchema>;

const marketSchema = z.object({ fees: z.unknown(), towns: z.array(townMarketSchema).nullable() });

export interface Market {
  /** The fee table's overrides (net_sheet_fees), as agentTermsOf takes them. */
  feeOverrides: unknown;
  towns: Map<string, TownMarket>;
  /** Each county's towns having a series. */
  byCounty: Map<'Nassau' | 'Suffolk', TownMarket[]>;
}

/** Every town with its series and three latest sales (newest first), and the fee table: ONE round trip. */
const MARKET_SQL = `
SELECT (SELECT overrides FROM net_sheet_fees WHERE id = 1) AS fees,
       (SELECT json_agg(json_build_object(
                 'slug', t.slug, 'name', t.name, 'county', t.county,
                 'zhvi', coalesce(m.zhvi_range, '[]'::jsonb),
                 'sales', coalesce((SELECT json_agg(h) FROM (
                            SELECT address, price_cents, to_char(sold_date, 'YYYY-MM-DD') AS sold_date, beds, baths, sqft
                              FROM town_sold_homes WHERE town_slug = t.slug
                             ORDER BY sold_date DESC, listing_key LIMIT 3) h), '[]'::json))
                 ORDER BY t.slug)
          FROM towns t LEFT JOIN town_market_data m ON m.town_slug = t.slug
         WHERE $1::text[] IS NULL OR t.slug = ANY($1::text[]) OR t.county = ANY($2::text[])) AS towns`;

/** The market of the named towns and counties (every town when `only` is absent). */
export async function readMarket(
  db: Queryable,
  only?: { towns: readonly string[]; counties: readonly string[] },
): Promise<Market> {
  const [row] = await db.query(MARKET_SQL, [only ? [...only.towns] : null, only ? [...only.counties] : []]);
  const { fees, towns } = marketSchema.parse(row);
  const market: Market = { feeOverrides: fees, towns: new Map(), byCounty: new Map() };
  for (const town of towns ?? []) {
    market.towns.set(town.slug, town);
    if (town.zhvi.length === 0) continue;
    market.byCounty.set(town.county, [...(market.byCounty.get(town.county) ?? []), town]);
  }
  return market;
}
