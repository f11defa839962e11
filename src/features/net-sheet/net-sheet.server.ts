/**
 * The detailed net sheet's routes: a detailed estimate (POST /api/estimates with `details`, called
 * from the estimate routes), the reverse solve, an estimate's sheet and its price range, and offers
 * side by side. Every sheet is computed here, on the server, with the agent's defaults and the site's
 * fee table of the moment, and stored with what it was computed with (migration 0020).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { HttpError, jsonObject, parseOrThrow, readJson } from '../../platform/http.ts';
import { apiGroup, created, json, ok } from '../../platform/operation.ts';
import { centsToDollars } from '../../ui/money.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';
import { enforceRateLimits } from '../../platform/rate-limit.server.ts';
import { MIN_SALE_PRICE_DOLLARS } from './amount.ts';
import { ESTIMATE_LIMITS } from './public/estimate-limits.server.ts';
import type { Estimate } from './public/estimate-request.ts';
import { ESTIMATE_COLUMNS, estimateParams, toEstimate, type EstimateRow } from './public/estimate-row.server.ts';
import { SETTINGS_COLUMNS, toSettings, type SettingsRow } from './public/agent-settings-row.server.ts';
import type { AgentSettings } from './public/agent-settings.ts';
import { addDays, commissionSplit } from './detailed-sheet.ts';
import { compareOffers } from './offers.ts';
import { netRange, rangePrices } from './range.ts';
import { offersRequestSchema, rangeQuerySchema, reverseRequestSchema } from './public/requests.ts';
import { solveReverse, UnreachableTargetError } from './reverse.ts';
import {
  comparisonAnswerSchema,
  rangeAnswerSchema,
  reverseAnswerSchema,
  sheetAnswerSchema,
  toSheetAnswer,
} from './public/sheet-answer.ts';
import { FIRST_RANGE_PERCENT } from './range-view.ts';
import { closingDateProblem } from './guard-rails.ts';
import { longIslandDate, sheetTermsOf, type StoredOffer } from './stored-sheet.ts';
import {
  estimateNotFound,
  sheetDefaultsOf,
  agentTermsFor,
  createSheetEstimate,
  refuseUnusable,
  refuseUnusableDetails,
  estimateTerms,
} from './public/sheet-estimates.server.ts';
import {
  comparisonParams,
  findComparison,
  toComparisonAnswer,
  type ComparisonRow,
} from './offer-comparisons.server.ts';
/** The net at `points` prices within `percent` of the estimate's price (GET /api/estimates/{uuid}/range). */
function rangeAnswerOf(
  row: EstimateRow,
  terms: ReturnType<typeof sheetTermsOf>,
  { percent, points }: z.output<typeof rangeQuerySchema>,
): z.infer<typeof rangeAnswerSchema> {
  const prices = rangePrices(row.sale_price_cents, percent, points);
  return {
    success: true,
    points: netRange(prices, terms.quick, terms.details, terms.fees, terms.options).map((point) => ({
      sale_price: centsToDollars(point.price_cents),
      net_to_seller: centsToDollars(point.net_cents),
    })),
  };
}

/** The agent's transfer-tax rate, read beside the estimate's own. */
interface AgentRate {
  agent_transfer_tax_rate_per_1000: number | null;
}

/**
 * One round trip: an estimate and its agent's settings (the split of a quick estimate's commission).
 * The agent's transfer-tax rate is read under its own name: the estimate's own column of the same
 * name is the rate the estimate was made with, and a later setting must not change the estimate.
 */
async function findEstimateWithSettings(
  db: Db,
  uuid: string,
): Promise<{ row: EstimateRow; settings: AgentSettings } | undefined> {
  const [row] = await db.query<EstimateRow & Omit<SettingsRow, 'transfer_tax_rate_per_1000'> & AgentRate>(
    `SELECT ${ESTIMATE_COLUMNS.replace(/(\w+)/g, 'e.$1')}, a.slug AS agent_slug,
            ${SETTINGS_COLUMNS.replace('s.transfer_tax_rate_per_1000', 's.transfer_tax_rate_per_1000 AS agent_transfer_tax_rate_per_1000')}
       FROM estimates e JOIN agents a ON a.id = e.agent_id LEFT JOIN agent_settings s ON s.agent_id = a.id
      WHERE e.uuid = $1`,
    [uuid.toLowerCase()],
  );
  if (!row) return undefined;
  return { row, settings: toSettings({ ...row, transfer_tax_rate_per_1000: row.agent_transfer_tax_rate_per_1000 }) };
}

/**
 * One round trip: the estimate as GET /api/estimates/{uuid} answers it, its sheet as GET
 * /api/estimates/{uuid}/sheet does (with the agent's settings for what the form's empty fields mean)
 * and the first range the page shows as GET /api/estimates/{uuid}/range does.
 */
export async function findEstimateSheet(
  db: Db,
  uuid: string,
): Promise<
  { estimate: Estimate; sheet: z.infer<typeof sheetAnswerSchema>; range: z.infer<typeof rangeAnswerSchema> } | undefined
> {
  const found = await findEstimateWithSettings(db, uuid);
  if (!found) return undefined;
  const { row } = found;
  const agentDefaults = sheetDefaultsOf(found.settings);
  const terms = sheetTermsOf(row, agentDefaults);
  const { days_to_closing, ...rest } = agentDefaults;
  const split = commissionSplit(terms.quick, terms.details, terms.options);
  return {
    estimate: toEstimate(row),
    range: rangeAnswerOf(row, terms, rangeQuerySchema.parse({ percent: FIRST_RANGE_PERCENT })),
    sheet: {
      success: true,
      sheet: toSheetAnswer(terms.sheet),
      details: jsonObject.nullable().parse(row.details),
      defaults: {
        ...rest,
        closing_date: addDays(longIslandDate(new Date()), days_to_closing),
        attorney_fee: found.settings.default_attorney_fee,
      },
      terms: {
        sale_price: centsToDollars(row.sale_price_cents),
        concessions: centsToDollars(terms.details?.seller_concessions ?? 0),
        listing_commission_percent: split.listingPercent,
        buyer_agent_percent: split.buyerPercent,
        closing_date: terms.sheet.closing_date,
      },
    },
  };
}

/**
 * The net sheet's operations. `/api/estimates/reverse` is a static path, so it is never taken for an
 * estimate's uuid (whose route answers 405 to a POST). The writes count per IP (a round trip more for
 * a client with an address of its own): the reverse solve stores an estimate, so it shares their counter.
 */
export const netSheetApi = apiGroup(
  (deps: { db: Db; clientIp: (c: Context) => string }) => deps,
  (op) => [
    op({
      method: 'POST',
      path: '/api/estimates/reverse',
      access: 'public',
      summary: 'The lowest whole-dollar price that nets the seller `target_net`, stored as an estimate',
      tag: 'Net sheet',
      body: json(reverseRequestSchema),
      success: created('The price and the stored estimate with its sheet', reverseAnswerSchema),
      errors: [404, 422],
      handler: async (c, { db, clientIp }) => {
        const body = await readJson(c, jsonObject);
        const request = parseOrThrow(reverseRequestSchema, body);
        await enforceRateLimits(db, perIpCheck(clientIp(c), ESTIMATE_LIMITS.estimatesPerIp, 'estimate'));
        const terms = await agentTermsFor(db, request.agent_slug, new Date());
        refuseUnusableDetails(request.details, terms.basis);
        const quick = { ...terms.rates, mortgagePayoffCents: request.mortgage_payoff };
        const options = { today: terms.basis.today, defaults: terms.basis.defaults };
        let price: number;
        try {
          ({ price_cents: price } = solveReverse(
            request.target_net,
            quick,
            request.details,
            terms.basis.fees,
            options,
          ));
        } catch (error) {
          if (!(error instanceof UnreachableTargetError)) throw error;
          throw new HttpError(422, error.message, { target_net: error.message });
        }
        // Below the smallest price the calculator takes, that smallest price (it nets more than the target).
        const salePrice = Math.max(price, MIN_SALE_PRICE_DOLLARS * 100);
        const details = request.details ? { parsed: request.details, sent: body.details } : undefined;
        const created = await createSheetEstimate(db, terms, { ...request, sale_price: salePrice, details });
        return c.json({ success: true, sale_price: centsToDollars(salePrice), ...created }, 201);
      },
    }),
    op({
      method: 'GET',
      path: '/api/estimates/:uuid/sheet',
      access: 'public',
      summary: "An estimate's net sheet, the details it was computed from and the form's defaults",
      tag: 'Net sheet',
      params: estimateParams,
      success: ok('The sheet', sheetAnswerSchema),
      errors: [404],
      handler: async (c, { db }, input) => {
        const { uuid } = input.params();
        const found = await findEstimateSheet(db, uuid);
        if (!found) throw estimateNotFound();
        return c.json(found.sheet);
      },
    }),
    op({
      method: 'GET',
      path: '/api/estimates/:uuid/range',
      access: 'public',
      summary: "The net to seller at prices from `percent` below to `percent` above the estimate's",
      tag: 'Net sheet',
      params: estimateParams,
      query: rangeQuerySchema,
      success: ok('The points', rangeAnswerSchema),
      errors: [404],
      handler: async (c, { db }, input) => {
        const { uuid } = input.params();
        const { percent, points } = input.query();
        const { row, terms } = await estimateTerms(db, uuid);
        return c.json(rangeAnswerOf(row, terms, { percent, points }));
      },
    }),
    op({
      method: 'POST',
      path: '/api/offers',
      access: 'public',
      summary: "Two to four offers weighed on an estimate's terms, stored as one link",
      tag: 'Net sheet',
      json: offersRequestSchema,
      success: created('The comparison', comparisonAnswerSchema),
      errors: [404],
      handler: async (c, { db, clientIp }, input) => {
        const request = await input.body();
        await enforceRateLimits(db, perIpCheck(clientIp(c), ESTIMATE_LIMITS.offersPerIp, 'offers'));
        // Offers are weighed today, whenever their estimate was made: their dates are judged against today.
        const today = longIslandDate(new Date());
        refuseUnusable(
          Object.fromEntries(
            request.offers.flatMap((offer, index) => {
              const problem = closingDateProblem(offer.closing_date, today);
              return problem ? [[`offers.${index}.closing_date`, problem]] : [];
            }),
          ),
          '',
        );
        const found = await findEstimateWithSettings(db, request.estimate_uuid);
        if (!found) throw estimateNotFound('estimate_uuid');
        const { row } = found;
        const terms = sheetTermsOf(row, sheetDefaultsOf(found.settings));
        const { buyerPercent } = commissionSplit(terms.quick, terms.details, terms.options);
        // Every offer has its own closing date, so `today` moves nothing but what is said of a past one.
        const options = { ...terms.options, today };
        const compared = compareOffers(request.offers, terms.quick, terms.details, terms.fees, options);
        const stored: StoredOffer[] = compared.map(({ offer, sheet, net_cents, behind_best_cents, best }) => ({
          price_cents: offer.price,
          concessions_cents: offer.concessions,
          buyer_agent_percent: offer.buyer_agent_percent ?? buyerPercent,
          closing_date: offer.closing_date,
          financing: offer.financing ?? null,
          net_cents,
          behind_best_cents,
          best,
          sheet,
        }));
        const [saved] = await db.query<ComparisonRow>(
          // An estimate deleted since the read (its agent removed) stores nothing: 404, not a broken key.
          `INSERT INTO offer_comparisons (uuid, estimate_uuid, offers, comparison)
           SELECT $1, e.uuid, $3::jsonb, $4::jsonb FROM estimates e WHERE e.uuid = $2
           RETURNING uuid, estimate_uuid, $5::text AS agent_slug, comparison, created_at`,
          [randomUUID(), row.uuid, JSON.stringify(request.offers), JSON.stringify(stored), row.agent_slug],
        );
        if (!saved) throw estimateNotFound('estimate_uuid');
        return c.json({ success: true, comparison: toComparisonAnswer(saved) }, 201);
      },
    }),
    op({
      method: 'GET',
      path: '/api/offers/:uuid',
      access: 'public',
      summary: 'A stored offer comparison',
      tag: 'Net sheet',
      params: comparisonParams,
      success: ok('The comparison', comparisonAnswerSchema),
      errors: [404],
      handler: async (c, { db }, input) => {
        const { uuid } = input.params();
        const row = await findComparison(db, uuid);
        if (!row) throw new HttpError(404, 'Offers not found');
        return c.json({ success: true, comparison: toComparisonAnswer(row) });
      },
    }),
  ],
);
