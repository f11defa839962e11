/**
 * A stored estimate as the database holds it and the API answers it: shared by the estimate routes,
 * the net sheet, the PDF, the e-mails, the CRM sync and the shell pages.
 */
import * as z from 'zod';
import type { Db } from '../../../platform/db.ts';
import { centsToDollars } from '../../../ui/money.ts';
import { computeEstimate, storedEstimateInputs, type StoredEstimate } from './estimate.ts';
import { UUID_PATTERN, type Estimate } from './estimate-request.ts';
import { toSheetAnswer } from './sheet-answer.ts';
import { storedSheetSchema } from '../stored-sheet.ts';
import type { DetailedSheet } from '../detailed-sheet.ts';

/** The quick estimate's columns (all an estimate's figures in the API need). */
export interface EstimateFields extends StoredEstimate {
  uuid: string;
  agent_id: number;
  agent_slug: string;
  recipient_name: string | null;
  created_at: Date;
}

export interface EstimateRow extends EstimateFields {
  /** The detailed sheet's columns (migration 0020), NULL for a quick estimate; read by stored-sheet.ts. */
  details: unknown;
  sheet: unknown;
  sheet_basis: unknown;
}

export const ESTIMATE_COLUMNS = `uuid, agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
  transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, recipient_name, created_at,
  details, sheet, sheet_basis`;

export async function findEstimate(db: Db, uuid: string): Promise<EstimateRow | undefined> {
  const [row] = await db.query<EstimateRow>(
    `SELECT ${ESTIMATE_COLUMNS.replace(/(\w+)/g, 'e.$1')}, a.slug AS agent_slug
       FROM estimates e JOIN agents a ON a.id = e.agent_id
      WHERE e.uuid = $1`,
    [uuid],
  );
  return row;
}

/**
 * An estimate as the API answers it. A detailed one (a stored `sheet`) carries its sheet, and its
 * net is the sheet's: every reader of net_to_seller (e-mails, lead summaries) tells the seller's net.
 */
export function toEstimate(row: EstimateFields & { sheet?: unknown }): Estimate {
  const quick = computeEstimate(storedEstimateInputs(row));
  const sheet = row.sheet === undefined || row.sheet === null ? undefined : storedSheetSchema.parse(row.sheet);
  const lines = sheet ? { ...quick, ...sheetFigures(sheet, quick.salePriceCents) } : quick;
  return {
    uuid: row.uuid,
    agent_id: row.agent_id,
    agent_slug: row.agent_slug,
    sale_price: centsToDollars(lines.salePriceCents),
    mortgage_payoff: centsToDollars(lines.mortgagePayoffCents),
    commission: centsToDollars(lines.commissionCents),
    commission_percent: lines.commissionPercent,
    transfer_tax: centsToDollars(lines.transferTaxCents),
    transfer_tax_rate_per_1000: row.transfer_tax_rate_per_1000,
    lawyer_fee: centsToDollars(lines.attorneyFeeCents),
    recording_fee: centsToDollars(lines.recordingFeeCents),
    net_to_seller: centsToDollars(sheet ? sheet.net_cents : lines.netToSellerCents),
    recipient_name: row.recipient_name,
    created_at: row.created_at.toISOString(),
    ...(sheet ? { sheet: toSheetAnswer(sheet) } : {}),
  };
}

/**
 * A stored estimate's price, payoff and net as toEstimate answers them (a detailed one's net is its
 * sheet's, `sheetNetCents`), without parsing the sheet: the leads CSV gives them for every lead.
 */
export function estimateFigures(
  row: StoredEstimate,
  sheetNetCents: number | null,
): { salePriceCents: number; mortgagePayoffCents: number; netCents: number } {
  const quick = computeEstimate(storedEstimateInputs(row));
  return {
    salePriceCents: quick.salePriceCents,
    mortgagePayoffCents: quick.mortgagePayoffCents,
    netCents: sheetNetCents ?? quick.netToSellerCents,
  };
}

/**
 * A detailed estimate's top-level figures read off its sheet (audit 2026-11-26, M8): the commission
 * is its commission lines, its percent their rate (each side's rounding is under 0.0001 % of a
 * price of $10,000 or more, so the rate rounded to hundredths is the sides' sum), the recording fee
 * every fee line but the attorney's (the itemised costs that replace the quick estimate's one fee).
 */
function sheetFigures(sheet: DetailedSheet, salePriceCents: number) {
  const sum = (keep: (line: DetailedSheet['lines'][number]) => boolean) =>
    sheet.lines.filter(keep).reduce((total, line) => total + line.amount_cents, 0);
  const commissionCents = sum((line) => line.group === 'commission');
  return {
    commissionCents,
    commissionPercent: salePriceCents > 0 ? Math.round((commissionCents * 10_000) / salePriceCents) / 100 : 0,
    transferTaxCents: sum((line) => line.key === 'transfer_tax'),
    attorneyFeeCents: sum((line) => line.key === 'attorney_fee'),
    recordingFeeCents: sum((line) => line.group === 'fee' && line.key !== 'attorney_fee'),
  };
}

export const estimateParams = z.object({
  uuid: z.string().regex(UUID_PATTERN, 'Estimate id is not valid'),
});
