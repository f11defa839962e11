/**
 * A batch's updates computed in memory (decision 0056): each due subscription becomes either an
 * update to send (the re-priced estimate, its net on the agent's current terms, the e-mail) or a
 * skip with its reason. No query here: the run reads before and writes after.
 */
import type { OutgoingEmail } from '../email/public/email.server.ts';
import { repricedEstimate } from '../net-sheet/public/repriced-estimate.server.ts';
import { agentTermsOf, type AgentTerms, type SheetEstimateRow } from '../net-sheet/public/sheet-estimates.server.ts';
import type { ZhviPoint } from '../towns/public/town-page.ts';
import type { DueRow, Market, TownMarket } from './due-updates.server.ts';
import { updateUrls, type UpdateLinkSigner } from './public/update-links.server.ts';
import { sellerUpdateEmail, type RecentSaleLine, type UpdateAgent } from './public/update-emails.ts';
import { longIslandDay } from '../../ui/long-island-time.ts';
import { marketDirection, median, reprice, type IndexSource } from './value-model.ts';

/** Why a due update was not sent; recorded on the subscription (last_skip_reason). */
export const SKIP_REASONS = ['no_market_data', 'not_moved', 'no_estimate', 'suppressed', 'lead_gone'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What the run's e-mails need besides the data: the site's origin and the links' signer. */
export interface UpdateDeps {
  siteUrl: string;
  signer: UpdateLinkSigner;
}

export interface PlannedSend {
  subscriptionId: number;
  /** updates_sent as read: the statement writes only if it is still this. */
  expectedSent: number;
  priceCents: number;
  netCents: number;
  previousNetCents: number | null;
  source: IndexSource;
  estimate: SheetEstimateRow;
  email: OutgoingEmail;
}

export interface PlannedSkip {
  subscriptionId: number;
  expectedSent: number;
  reason: SkipReason;
}

export interface PreparedBatch {
  sends: PlannedSend[];
  skips: PlannedSkip[];
}

/**
 * A county's series for the direction sentence: at each month, the median of its towns' values.
 * (The re-pricing itself uses the median of each town's own move: value-model.ts.)
 */
export function countySeries(towns: readonly TownMarket[]): ZhviPoint[] {
  const byMonth = new Map<string, number[]>();
  for (const town of towns) {
    for (const point of town.zhvi)
      byMonth.set(point.timePeriodEnd, [...(byMonth.get(point.timePeriodEnd) ?? []), point.dataValue]);
  }
  return [...byMonth.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([timePeriodEnd, values]) => {
      const dataValue = median(values);
      return dataValue === undefined ? [] : [{ timePeriodEnd, dataValue }];
    });
}

export const saleLines = (town: TownMarket | undefined): RecentSaleLine[] =>
  (town?.sales ?? []).map((sale) => ({
    address: sale.address,
    priceCents: sale.price_cents,
    soldDate: sale.sold_date,
    beds: sale.beds,
    baths: sale.baths,
    sqft: sale.sqft,
  }));

/** The re-priced figures and the e-mail's market lines of one seller, or why there are none. */
export function priceOf(
  market: Market,
  place: { townSlug: string | null; county: 'Nassau' | 'Suffolk' | null },
  basePriceCents: number,
  baseDay: string,
  asOfDay: string,
) {
  const town = place.townSlug ? market.towns.get(place.townSlug) : undefined;
  const county = town?.county ?? place.county;
  const countyTowns = county ? (market.byCounty.get(county) ?? []) : [];
  const repriced = reprice(basePriceCents, baseDay, asOfDay, {
    town: town && town.zhvi.length > 0 ? town.zhvi : null,
    county: countyTowns.map((each) => each.zhvi),
  });
  if (!repriced.ok) return repriced;
  const placeName = repriced.source === 'town' && town ? town.name : `${county ?? 'Long Island'} County`;
  const series = repriced.source === 'town' && town ? town.zhvi : countySeries(countyTowns);
  return {
    ...repriced,
    placeName,
    direction: marketDirection(placeName, series, asOfDay),
    sales: saleLines(town),
  };
}

export const updateAgentOf = (
  row: Pick<DueRow, 'agent_first_name' | 'agent_last_name' | 'agent_email' | 'agent_phone' | 'agent_slug'>,
): UpdateAgent => ({
  first_name: row.agent_first_name,
  last_name: row.agent_last_name,
  email: row.agent_email,
  phone: row.agent_phone,
  slug: row.agent_slug,
});

/** Why this row gets no update, before any figure is computed. */
function skipBeforePricing(row: DueRow): SkipReason | null {
  if (!row.lead_found) return 'lead_gone';
  if (row.suppressed) return 'suppressed';
  if (!row.estimate_found || row.sale_price_cents === null || row.estimate_created_at === null) return 'no_estimate';
  return null;
}

/** Every row of a batch, as an update to send or a skip. */
export function prepareBatch(rows: readonly DueRow[], market: Market, asOf: Date, deps: UpdateDeps): PreparedBatch {
  const asOfDay = longIslandDay(asOf);
  const urls = updateUrls(deps.siteUrl, deps.signer);
  const batch: PreparedBatch = { sends: [], skips: [] };
  // One agent's terms for all their sellers of the batch: reading the fee table is most of the cost.
  const termsByAgent = new Map<number, AgentTerms>();
  const termsOf = (row: DueRow): AgentTerms => {
    let terms = termsByAgent.get(row.agent_id);
    if (!terms) {
      terms = agentTermsOf(row.agent_id, row, market.feeOverrides, asOf);
      termsByAgent.set(row.agent_id, terms);
    }
    return terms;
  };
  for (const row of rows) {
    const skip = (reason: SkipReason) =>
      batch.skips.push({ subscriptionId: row.id, expectedSent: row.updates_sent, reason });
    const early = skipBeforePricing(row);
    if (early || row.sale_price_cents === null || row.estimate_created_at === null) {
      skip(early ?? 'no_estimate');
      continue;
    }
    const baseDay = longIslandDay(row.estimate_created_at);
    const priced = priceOf(
      market,
      { townSlug: row.town_slug, county: row.town_county ?? row.county },
      row.sale_price_cents,
      baseDay,
      asOfDay,
    );
    if (!priced.ok) {
      skip(priced.reason);
      continue;
    }
    if (priced.priceCents === row.last_price_cents) {
      skip('not_moved');
      continue;
    }
    const terms = termsOf(row);
    const repriced = repricedEstimate(
      { mortgage_payoff_cents: row.mortgage_payoff_cents ?? 0, details: row.details },
      terms,
      priced.priceCents,
    );
    // The period this update will be, as the statement writes it: its links name it.
    const period = row.updates_sent + 1;
    const content = sellerUpdateEmail({
      agent: updateAgentOf(row),
      placeName: priced.placeName,
      priceCents: priced.priceCents,
      netCents: repriced.netCents,
      previousNetCents: row.last_net_cents,
      direction: priced.direction,
      sales: priced.sales,
      links: { sheet: urls.go(row.id, period, 'sheet'), agent: urls.go(row.id, period, 'agent') },
      asOf: asOfDay,
      siteUrl: deps.siteUrl,
    });
    batch.sends.push({
      subscriptionId: row.id,
      expectedSent: row.updates_sent,
      priceCents: priced.priceCents,
      netCents: repriced.netCents,
      previousNetCents: row.last_net_cents,
      source: priced.source,
      estimate: repriced.row,
      email: {
        kind: 'seller_update',
        to: { email: row.email },
        ...content,
        leadId: row.lead_id,
        estimateUuid: repriced.row.uuid,
      },
    });
  }
  return batch;
}
