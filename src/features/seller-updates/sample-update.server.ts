/**
 * The agent's "Send me a sample" (POST /api/dashboard/updates/sample): a real update about a sample
 * seller (a $650,000 sale with a $300,000 payoff) in the town of the agent's latest lead (or the lead
 * they name, which must be theirs), else a town with market data; sent ONLY to the agent's own
 * address, marked SAMPLE, its links straight to a real estimate (written with it) and to the agent's
 * page, untracked. Without market data it still goes, at the sample's price. Round trips: the rate limit, the agent and town, the market, one statement for
 * the estimate and its e-mail.
 */
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { enforceRateLimits, rateCheck } from '../../platform/rate-limit.server.ts';
import { estimateUrl } from '../email/public/templates.ts';
import { queueEmailsStatement } from '../email/public/email.server.ts';
import { repricedEstimate } from '../net-sheet/public/repriced-estimate.server.ts';
import { agentTermsOf, insertSheetEstimatesStatement } from '../net-sheet/public/sheet-estimates.server.ts';
import { dueRowSchema, readMarket } from './due-updates.server.ts';
import { longIslandDay } from '../../ui/long-island-time.ts';
import { priceOf, updateAgentOf } from './prepare-updates.server.ts';
import { sellerUpdateEmail } from './public/update-emails.ts';
import { agentPageUrl } from './update-email-parts.ts';
import { SETTINGS_COLUMNS } from '../net-sheet/public/agent-settings-row.server.ts';

export const SAMPLE_PRICE_CENTS = 650_000_00;
export const SAMPLE_PAYOFF_CENTS = 300_000_00;
/** Samples one agent may ask for in an hour: each is an e-mail to their own inbox. */
export const SAMPLES_PER_HOUR = { limit: 5, windowSeconds: 60 * 60 };
export const LEAD_NOT_FOUND = 'Lead not found';
/** The place a sample names when no town has market data yet (a new site): the figures still show. */
const NO_MARKET_PLACE = 'Long Island';

const agentRowSchema = dueRowSchema
  .pick({
    agent_id: true,
    agent_first_name: true,
    agent_last_name: true,
    agent_email: true,
    agent_phone: true,
    agent_slug: true,
    default_attorney_fee_cents: true,
    default_recording_fee_cents: true,
    transfer_tax_rate_per_1000: true,
    default_commission_percent: true,
    default_listing_percent: true,
    default_buyer_agent_percent: true,
    default_days_to_closing: true,
    default_title_closer_pickup: true,
    default_payoff_bank_attorney: true,
    default_rp5217_on_seller: true,
  })
  .extend({ lead_found: z.boolean(), town_slug: z.string().nullable() });

/**
 * The agent, their settings and the sample's town: the named lead's (only if it is theirs) or the
 * latest lead's town (its subscription's, else the town page it came from), else the first town
 * with a series.
 */
const AGENT_SQL = `
WITH lead AS (
  SELECT l.id, coalesce(su.town_slug, l.page_town) AS town_slug
    FROM leads l LEFT JOIN seller_updates su ON su.lead_id = l.id
   WHERE l.agent_id = $1 AND ($2::int IS NULL OR l.id = $2)
   ORDER BY l.created_at DESC, l.id DESC LIMIT 1
)
SELECT a.id AS agent_id, a.first_name AS agent_first_name, a.last_name AS agent_last_name, a.email AS agent_email,
       a.phone AS agent_phone, a.slug AS agent_slug, ${SETTINGS_COLUMNS},
       $2::int IS NULL OR EXISTS (SELECT 1 FROM lead) AS lead_found,
       coalesce((SELECT t.slug FROM lead JOIN towns t ON t.slug = lead.town_slug
                   JOIN town_market_data m ON m.town_slug = t.slug WHERE jsonb_array_length(m.zhvi_range) > 0),
                (SELECT m.town_slug FROM town_market_data m WHERE jsonb_array_length(m.zhvi_range) > 0
                  ORDER BY m.town_slug LIMIT 1)) AS town_slug
  FROM agents a LEFT JOIN agent_settings s ON s.agent_id = a.id
 WHERE a.id = $1 AND a.status = 'active'`;

const MONTH_MS = 30 * 86_400_000;

/** Queues the sample; answers the agent's address and the delivery to send. */
export async function queueSample(
  db: Db,
  { agentId, leadId, siteUrl, now }: { agentId: number; leadId: number | null; siteUrl: string; now: Date },
): Promise<{ to: string; deliveryIds: number[] }> {
  await enforceRateLimits(db, [rateCheck(SAMPLES_PER_HOUR, `update-sample:agent:${agentId}`)]);
  const [found] = await db.query(AGENT_SQL, [agentId, leadId]);
  if (!found) throw new HttpError(401, 'Please log in');
  const agent = agentRowSchema.parse(found);
  if (!agent.lead_found) throw new HttpError(404, LEAD_NOT_FOUND, { lead_id: LEAD_NOT_FOUND });
  const market = await readMarket(db, {
    towns: agent.town_slug === null ? [] : [agent.town_slug],
    counties: ['Nassau', 'Suffolk'],
  });
  const town = agent.town_slug === null ? undefined : market.towns.get(agent.town_slug);
  const today = longIslandDay(now);
  const monthAgo = longIslandDay(new Date(now.getTime() - MONTH_MS));
  // The sample's "last update" a month ago: its price then, by the same index moved back.
  const place = { townSlug: agent.town_slug, county: town?.county ?? null };
  const current = priceOf(market, place, SAMPLE_PRICE_CENTS, today, today);
  const then = priceOf(market, place, SAMPLE_PRICE_CENTS, today, monthAgo);
  // Without market data (a site before its first import) the sample still shows the agent the
  // message: the price as it is, no direction, no sales and no change, as a seller's first would.
  const shown = current.ok ? current : { placeName: NO_MARKET_PLACE, direction: null, sales: [] };
  const terms = agentTermsOf(agent.agent_id, agent, market.feeOverrides, now);
  const sample = repricedEstimate(
    { mortgage_payoff_cents: SAMPLE_PAYOFF_CENTS, details: null },
    terms,
    SAMPLE_PRICE_CENTS,
  );
  const previous =
    current.ok && then.ok
      ? repricedEstimate({ mortgage_payoff_cents: SAMPLE_PAYOFF_CENTS, details: null }, terms, then.priceCents).netCents
      : null;
  const content = sellerUpdateEmail({
    agent: updateAgentOf(agent),
    placeName: shown.placeName,
    priceCents: SAMPLE_PRICE_CENTS,
    netCents: sample.netCents,
    previousNetCents: previous,
    direction: shown.direction,
    sales: shown.sales,
    // Straight to the pages: a sample's clicks are the agent's, not a seller's signal.
    links: { sheet: estimateUrl(siteUrl, sample.row.uuid), agent: agentPageUrl(siteUrl, agent.agent_slug) },
    asOf: today,
    sample: true,
    siteUrl,
  });
  const estimate = insertSheetEstimatesStatement([sample.row]);
  const email = queueEmailsStatement(
    [{ kind: 'seller_update', to: { email: agent.agent_email }, ...content, estimateUuid: sample.row.uuid }],
    { firstParam: 1 + estimate.params.length, keep: 'm.estimate_uuid IN (SELECT uuid FROM new_estimate)' },
  );
  // The estimate and its e-mail in one statement: the e-mail names an estimate that exists.
  const queued = await db.query<{ id: number }>(
    `WITH new_estimate AS (${estimate.sql}), queued AS (${email.sql}) SELECT id FROM queued`,
    [...estimate.params, ...email.params],
  );
  if (queued.length === 0) throw new HttpError(401, 'Please log in');
  return { to: agent.agent_email, deliveryIds: queued.map((row) => row.id) };
}
