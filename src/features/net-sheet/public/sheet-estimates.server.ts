/** Detailed estimates made from a request: the agent's terms, the checks, the batched insert. */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { createBatcher } from '../../../platform/batcher.ts';
import type { Db } from '../../../platform/db.ts';
import { HttpError, parseOrThrow } from '../../../platform/http.ts';
import { enforceRateLimits, type RateCheck } from '../../../platform/rate-limit.server.ts';
import type { EstimateInputs } from './estimate.ts';
import { ESTIMATE_COLUMNS, findEstimate, toEstimate, type EstimateRow } from './estimate-row.server.ts';
import { SETTINGS_COLUMNS, toSettings, type SettingsRow } from './agent-settings-row.server.ts';
import type { AgentSettings } from './agent-settings.ts';
import { addDays, computeDetailedSheet, type SheetDefaults } from '../detailed-sheet.ts';
import type { NetSheetDetails } from '../details.ts';
import { feeTableOf } from '../fee-table.ts';
import { detailedEstimateRequestSchema } from './requests.ts';
import { type QuickWithoutPrice } from '../reverse.ts';
import { toSheetAnswer } from './sheet-answer.ts';
import { detailsProblems } from '../guard-rails.ts';
import { longIslandDate, sheetTermsOf, type SheetBasis } from '../stored-sheet.ts';
import { queueEstimateWebhooksCte } from '../../webhooks/public/webhook-events.server.ts';

export const agentNotFound = () => new HttpError(404, 'Agent not found', { agent_slug: 'Agent not found' });
export const estimateNotFound = (field?: string) =>
  new HttpError(404, 'Estimate not found', field ? { [field]: 'Estimate not found' } : {});

export const cents = (dollars: number) => Math.round(dollars * 100);

export const sheetDefaultsOf = (settings: AgentSettings): SheetDefaults => ({
  listing_commission_percent: settings.default_listing_percent,
  buyer_agent_percent: settings.default_buyer_agent_percent,
  days_to_closing: settings.default_days_to_closing,
  title_closer_pickup: settings.default_title_closer_pickup,
  payoff_bank_attorney: settings.default_payoff_bank_attorney,
  seller_pays_rp5217: settings.default_rp5217_on_seller,
});

/** An active agent's rates and the terms a new sheet is computed on. */
export interface AgentTerms {
  agentId: number;
  rates: Omit<QuickWithoutPrice, 'mortgagePayoffCents'>;
  basis: SheetBasis;
}

/** One round trip: an active agent's settings (the system's where unset) and the fee table in force. */
export async function agentTermsFor(db: Db, slug: string, now: Date): Promise<AgentTerms> {
  const [row] = await db.query<SettingsRow & { id: number; overrides: unknown }>(
    `SELECT a.id, ${SETTINGS_COLUMNS}, f.overrides
       FROM agents a
       LEFT JOIN agent_settings s ON s.agent_id = a.id
       LEFT JOIN net_sheet_fees f ON f.id = 1
      WHERE a.slug = $1 AND a.status = 'active'`,
    [slug],
  );
  if (!row) throw agentNotFound();
  return agentTermsOf(row.id, row, row.overrides, now);
}

/** An agent's terms from their settings row and the fee table's overrides as read (no query). */
export function agentTermsOf(agentId: number, row: SettingsRow, overrides: unknown, now: Date): AgentTerms {
  const settings = toSettings(row);
  return {
    agentId,
    rates: {
      commissionPercent: settings.default_commission_percent,
      transferTaxRatePer1000: settings.transfer_tax_rate_per_1000,
      attorneyFeeCents: cents(settings.default_attorney_fee),
      recordingFeeCents: cents(settings.default_recording_fee),
    },
    basis: { today: longIslandDate(now), defaults: sheetDefaultsOf(settings), fees: feeTableOf(overrides) },
  };
}

export interface NewSheetEstimate {
  agent_slug: string;
  sale_price: number;
  mortgage_payoff: number;
  recipient_name: string | null;
  /** The details as parsed and as sent; absent for a quick estimate (the reverse solve without details). */
  details?: { parsed: NetSheetDetails; sent: unknown };
}

/** One estimate to store with its sheet: the row's values, computed before the statement. */
export interface SheetEstimateRow {
  uuid: string;
  agentId: number;
  quick: EstimateInputs;
  recipientName: string | null;
  /** details, sheet and sheet_basis as JSON; all null for a quick estimate. */
  stored: [string, string, string] | [null, null, null];
}

/**
 * The INSERT of `insertSheetEstimates` with its parameters numbered from `$firstParam`, to run alone or
 * as a CTE of a larger statement; with `keep` (an SQL condition on `r`, the row to insert, e.g. on an
 * earlier CTE) only the rows it holds for are written.
 */
export function insertSheetEstimatesStatement(
  rows: readonly SheetEstimateRow[],
  { firstParam = 1, keep }: { firstParam?: number; keep?: string } = {},
): { sql: string; params: unknown[] } {
  const column = <T>(pick: (row: SheetEstimateRow) => T) => rows.map(pick);
  const p = (offset: number) => `$${firstParam + offset}`;
  const sql = `INSERT INTO estimates (uuid, agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                            transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, recipient_name,
                            details, sheet, sheet_basis)
     SELECT r.uuid, a.id, r.sale, r.payoff, r.commission, r.tax_rate, r.attorney, r.recording, r.recipient,
            r.details, r.sheet, r.basis
       FROM unnest(${p(0)}::uuid[], ${p(1)}::int[], ${p(2)}::bigint[], ${p(3)}::bigint[], ${p(4)}::numeric[],
                   ${p(5)}::numeric[], ${p(6)}::bigint[], ${p(7)}::bigint[], ${p(8)}::text[], ${p(9)}::jsonb[],
                   ${p(10)}::jsonb[], ${p(11)}::jsonb[])
              AS r (uuid, agent_id, sale, payoff, commission, tax_rate, attorney, recording, recipient, details,
                    sheet, basis)
       JOIN agents a ON a.id = r.agent_id AND a.status = 'active'
      ${keep ? `WHERE ${keep}` : ''}
     RETURNING ${ESTIMATE_COLUMNS}`;
  return {
    sql,
    params: [
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
  };
}

/**
 * One INSERT for any number of estimates with their sheets (as the quick ones are, decision 0005):
 * concurrent requests share a statement, a commit and the agent's daily-count rows. The agent is
 * checked again in the statement: one deactivated since the read gets no estimate (null).
 */
export async function insertSheetEstimates(
  db: Db,
  rows: SheetEstimateRow[],
): Promise<(Omit<EstimateRow, 'agent_slug'> | null)[]> {
  const { sql, params } = insertSheetEstimatesStatement(rows);
  // A visitor's estimate is an event an agent's (or the site's) webhooks may ask for (issue 26).
  const inserted = await db.query<Omit<EstimateRow, 'agent_slug'>>(
    `WITH inserted AS (${sql}), ${queueEstimateWebhooksCte('hooks', 'inserted')}
     SELECT * FROM inserted`,
    params,
  );
  const byUuid = new Map(inserted.map((row) => [row.uuid, row]));
  return rows.map((row) => byUuid.get(row.uuid) ?? null);
}

/** One batcher per database, shared by the estimate routes (detailed POST) and the reverse solve. */
export const writers = new WeakMap<Db, (row: SheetEstimateRow) => Promise<Omit<EstimateRow, 'agent_slug'> | null>>();
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
export async function createSheetEstimate(db: Db, terms: AgentTerms, request: NewSheetEstimate) {
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
export function refuseUnusable(problems: Record<string, string>, prefix: string): void {
  const fields = Object.fromEntries(Object.entries(problems).map(([key, message]) => [`${prefix}${key}`, message]));
  const [first] = Object.values(fields);
  if (first !== undefined) throw new HttpError(400, first, fields);
}

/** The details' dates against the day the sheet is made (a closing years off, a payoff letter a year old). */
export function refuseUnusableDetails(details: NetSheetDetails | undefined, basis: SheetBasis): void {
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
export async function estimateTerms(db: Db, uuid: string) {
  const row = await findEstimate(db, uuid.toLowerCase());
  if (!row) throw estimateNotFound();
  return { row, terms: sheetTermsOf(row) };
}
