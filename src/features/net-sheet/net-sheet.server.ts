/**
 * The detailed net sheet's routes: a detailed estimate (POST /api/estimates with `details`, called
 * from the estimate routes), the reverse solve, an estimate's sheet and its price range, and offers
 * side by side. Every sheet is computed here, on the server, with the agent's defaults and the site's
 * fee table of the moment, and stored with what it was computed with (migration 0020).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import * as z from 'zod';
import { createBatcher } from '../../server/batcher.ts';
import type { Db } from '../../server/db.ts';
import { HttpError, jsonObject, parseOrThrow, readJson } from '../../server/http.ts';
import { apiGroup, created, json, ok } from '../../server/operation.ts';
import { centsToDollars } from '../../ui/money.ts';
import { perIpCheck } from '../auth/per-ip.server.ts';
import { enforceRateLimits, type RateCheck } from '../auth/rate-limit.server.ts';
import { MIN_SALE_PRICE_DOLLARS } from '../estimate/amount.ts';
import { ESTIMATE_LIMITS } from '../estimate/estimate-limits.server.ts';
import type { Estimate } from '../estimate/estimate-request.ts';
import type { EstimateInputs } from '../estimate/estimate.ts';
import {
  ESTIMATE_COLUMNS,
  estimateParams,
  findEstimate,
  toEstimate,
  type EstimateRow,
} from '../estimate/estimate-row.server.ts';
import { SETTINGS_COLUMNS, toSettings, type SettingsRow } from '../settings/agent-settings.server.ts';
import type { AgentSettings } from '../settings/agent-settings.ts';
import { addDays, commissionSplit, computeDetailedSheet, type SheetDefaults } from './detailed-sheet.ts';
import type { NetSheetDetails } from './details.ts';
import { feeTableOf } from './fee-table.ts';
import { compareOffers } from './offers.ts';
import { netRange, rangePrices } from './range.ts';
import {
  detailedEstimateRequestSchema,
  offersRequestSchema,
  rangeQuerySchema,
  reverseRequestSchema,
} from './requests.ts';
import { solveReverse, UnreachableTargetError, type QuickWithoutPrice } from './reverse.ts';
import {
  comparisonAnswerSchema,
  rangeAnswerSchema,
  reverseAnswerSchema,
  sheetAnswerSchema,
  toSheetAnswer,
} from './sheet-answer.ts';
import { FIRST_RANGE_PERCENT } from './range-view.ts';
import { closingDateProblem, detailsProblems } from './guard-rails.ts';
import { longIslandDate, sheetTermsOf, storedOfferSchema, type SheetBasis, type StoredOffer } from './stored-sheet.ts';

const agentNotFound = () => new HttpError(404, 'Agent not found', { agent_slug: 'Agent not found' });
const estimateNotFound = (field?: string) =>
  new HttpError(404, 'Estimate not found', field ? { [field]: 'Estimate not found' } : {});

const cents = (dollars: number) => Math.round(dollars * 100);

export const sheetDefaultsOf = (settings: AgentSettings): SheetDefaults => ({
  listing_commission_percent: settings.default_listing_percent,
  buyer_agent_percent: settings.default_buyer_agent_percent,
  days_to_closing: settings.default_days_to_closing,
  title_closer_pickup: settings.default_title_closer_pickup,
  payoff_bank_attorney: settings.default_payoff_bank_attorney,
  seller_pays_rp5217: settings.default_rp5217_on_seller,
});

/** An active agent's rates and the terms a new sheet is computed on. */
interface AgentTerms {
  agentId: number;
  rates: Omit<QuickWithoutPrice, 'mortgagePayoffCents'>;
  basis: SheetBasis;
}

/** One round trip: an active agent's settings (the system's where unset) and the fee table in force. */
async function agentTermsFor(db: Db, slug: string, now: Date): Promise<AgentTerms> {
  const [row] = await db.query<SettingsRow & { id: number; overrides: unknown }>(
    `SELECT a.id, ${SETTINGS_COLUMNS}, f.overrides
       FROM agents a
       LEFT JOIN agent_settings s ON s.agent_id = a.id
       LEFT JOIN net_sheet_fees f ON f.id = 1
      WHERE a.slug = $1 AND a.status = 'active'`,
    [slug],
  );
  if (!row) throw agentNotFound();
  const settings = toSettings(row);
  return {
    agentId: row.id,
    rates: {
      commissionPercent: settings.default_commission_percent,
      transferTaxRatePer1000: settings.transfer_tax_rate_per_1000,
      attorneyFeeCents: cents(settings.default_attorney_fee),
      recordingFeeCents: cents(settings.default_recording_fee),
    },
    basis: { today: longIslandDate(now), defaults: sheetDefaultsOf(settings), fees: feeTableOf(row.overrides) },
  };
}

interface NewSheetEstimate {
  agent_slug: string;
  sale_price: number;
  mortgage_payoff: number;
  recipient_name: string | null;
  /** The details as parsed and as sent; absent for a quick estimate (the reverse solve without details). */
  details?: { parsed: NetSheetDetails; sent: unknown };
}

/** One estimate to store with its sheet: the row's values, computed before the statement. */
interface SheetEstimateRow {
  uuid: string;
  agentId: number;
  quick: EstimateInputs;
  recipientName: string | null;
  /** details, sheet and sheet_basis as JSON; all null for a quick estimate. */
  stored: [string, string, string] | [null, null, null];
}

/**
 * One INSERT for any number of estimates with their sheets (as the quick ones are, decision 0005):
 * concurrent requests share a statement, a commit and the agent's daily-count rows. The agent is
 * checked again in the statement: one deactivated since the read gets no estimate (null).
 */
async function insertSheetEstimates(
  db: Db,
  rows: SheetEstimateRow[],
): Promise<(Omit<EstimateRow, 'agent_slug'> | null)[]> {
  const column = <T>(pick: (row: SheetEstimateRow) => T) => rows.map(pick);
  const inserted = await db.query<Omit<EstimateRow, 'agent_slug'>>(
    `INSERT INTO estimates (uuid, agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                            transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, recipient_name,
                            details, sheet, sheet_basis)
     SELECT r.uuid, a.id, r.sale, r.payoff, r.commission, r.tax_rate, r.attorney, r.recording, r.recipient,
            r.details, r.sheet, r.basis
       FROM unnest($1::uuid[], $2::int[], $3::bigint[], $4::bigint[], $5::numeric[], $6::numeric[], $7::bigint[],
                   $8::bigint[], $9::text[], $10::jsonb[], $11::jsonb[], $12::jsonb[])
              AS r (uuid, agent_id, sale, payoff, commission, tax_rate, attorney, recording, recipient, details,
                    sheet, basis)
       JOIN agents a ON a.id = r.agent_id AND a.status = 'active'
     RETURNING ${ESTIMATE_COLUMNS}`,
    [
      column((row) => row.uuid),
      column((row) => row.agentId),
      column((row) => row.quick.salePriceCents),
      column((row) => row.quick.mortgagePayoffCents),
      column((row) => row.quick.commissionPercent),
      column((row) => row.quick.transferTaxRatePer1000),
      column((row) => row.quick.attorneyFeeCents),
      column((row) => row.quick.recordingFeeCents),
      column((row) => row.recipientName),
      column((row) => row.stored[0]),
      column((row) => row.stored[1]),
      column((row) => row.stored[2]),
    ],
  );
  const byUuid = new Map(inserted.map((row) => [row.uuid, row]));
  return rows.map((row) => byUuid.get(row.uuid) ?? null);
}

/** One batcher per database, shared by the estimate routes (detailed POST) and the reverse solve. */
const writers = new WeakMap<Db, (row: SheetEstimateRow) => Promise<Omit<EstimateRow, 'agent_slug'> | null>>();
const writerFor = (db: Db) => {
  let writer = writers.get(db);
  if (!writer) {
    writer = createBatcher((rows: SheetEstimateRow[]) => insertSheetEstimates(db, rows));
    writers.set(db, writer);
  }
  return writer;
};

/**
 * Stores an estimate with its sheet and answers both. The liens, when the seller lists them, are the
 * payoff: the estimate's mortgage payoff becomes their sum, so its quick figures agree with the sheet.
 */
async function createSheetEstimate(db: Db, terms: AgentTerms, request: NewSheetEstimate) {
  const liens = request.details?.parsed.liens;
  const payoff = liens?.length ? liens.reduce((sum, lien) => sum + lien.payoff, 0) : request.mortgage_payoff;
  const quick = { ...terms.rates, mortgagePayoffCents: payoff, salePriceCents: request.sale_price };
  const options = { today: terms.basis.today, defaults: terms.basis.defaults };
  const sheet = computeDetailedSheet(quick, request.details?.parsed, terms.basis.fees, options);
  const row = await writerFor(db)({
    uuid: randomUUID(),
    agentId: terms.agentId,
    quick,
    recipientName: request.recipient_name,
    stored: request.details
      ? [JSON.stringify(request.details.sent), JSON.stringify(sheet), JSON.stringify(terms.basis)]
      : [null, null, null],
  });
  if (!row) throw agentNotFound();
  return { estimate: toEstimate({ ...row, agent_slug: request.agent_slug }), sheet: toSheetAnswer(sheet) };
}

/** 400 with each field, by its path in the request, that no sheet can be computed on (guard-rails.ts). */
function refuseUnusable(problems: Record<string, string>, prefix: string): void {
  const fields = Object.fromEntries(Object.entries(problems).map(([key, message]) => [`${prefix}${key}`, message]));
  const [first] = Object.values(fields);
  if (first !== undefined) throw new HttpError(400, first, fields);
}

/** The details' dates against the day the sheet is made (a closing years off, a payoff letter a year old). */
function refuseUnusableDetails(details: NetSheetDetails | undefined, basis: SheetBasis): void {
  if (!details) return;
  const closing = details.closing_date ?? addDays(basis.today, basis.defaults.days_to_closing);
  refuseUnusable(detailsProblems(details, closing, basis.today), 'details.');
}

/**
 * POST /api/estimates with `details` (the estimate routes hand the raw body over, with the client's
 * per-IP counter, shared with the quick estimates): a new estimate with its detailed sheet.
 */
export async function postDetailedEstimate(
  c: Context,
  db: Db,
  body: Record<string, unknown>,
  ipCheck: RateCheck | undefined,
): Promise<Response> {
  const request = parseOrThrow(detailedEstimateRequestSchema, body);
  await enforceRateLimits(db, ipCheck ? [ipCheck] : []);
  const terms = await agentTermsFor(db, request.agent_slug, new Date());
  refuseUnusableDetails(request.details, terms.basis);
  const details = request.details ? { parsed: request.details, sent: body.details } : undefined;
  const created = await createSheetEstimate(db, terms, { ...request, details });
  return c.json({ success: true, ...created }, 201);
}

/** The estimate named in the path with its sheet's terms, or 404. */
async function estimateTerms(db: Db, uuid: string) {
  const row = await findEstimate(db, uuid.toLowerCase());
  if (!row) throw estimateNotFound();
  return { row, terms: sheetTermsOf(row) };
}

const toOfferAnswer = ({ sheet, ...offer }: StoredOffer) => ({
  price: centsToDollars(offer.price_cents),
  concessions: centsToDollars(offer.concessions_cents),
  buyer_agent_percent: offer.buyer_agent_percent,
  closing_date: offer.closing_date,
  financing: offer.financing,
  net_to_seller: centsToDollars(offer.net_cents),
  behind_best: centsToDollars(offer.behind_best_cents),
  best: offer.best,
  sheet: toSheetAnswer(sheet),
});

interface ComparisonRow {
  uuid: string;
  estimate_uuid: string;
  agent_slug: string;
  comparison: unknown;
  created_at: Date;
}

const toComparisonAnswer = (row: ComparisonRow) => ({
  uuid: row.uuid,
  estimate_uuid: row.estimate_uuid,
  agent_slug: row.agent_slug,
  created_at: row.created_at.toISOString(),
  offers: z.array(storedOfferSchema).parse(row.comparison).map(toOfferAnswer),
});

/** A stored comparison by its (lower-case) uuid, as GET /api/offers/{uuid} and the /offers/{uuid} page find it. */
export async function findComparison(db: Db, uuid: string): Promise<ComparisonRow | undefined> {
  const [row] = await db.query<ComparisonRow>(
    `SELECT o.uuid, o.estimate_uuid, a.slug AS agent_slug, o.comparison, o.created_at
       FROM offer_comparisons o JOIN estimates e ON e.uuid = o.estimate_uuid JOIN agents a ON a.id = e.agent_id
      WHERE o.uuid = $1`,
    [uuid],
  );
  return row;
}

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

export const comparisonParams = z.object({
  uuid: estimateParams.shape.uuid.transform((uuid) => uuid.toLowerCase()),
});

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
