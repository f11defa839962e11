/**
 * The detailed sheet as stored with its estimate (migration 0020), read back through schemas: a
 * jsonb column is whatever was written, so nothing is trusted by a cast.
 */
import * as z from 'zod';
import { storedEstimateInputs, type StoredEstimate } from './public/estimate.ts';
import { computeDetailedSheet, type DetailedSheet, type SheetDefaults, type SheetOptions } from './detailed-sheet.ts';
import { storedDetailsSchema, type NetSheetDetails } from './details.ts';
import { defaultFeeTable, feeTableSchema, type FeeTable } from './fee-table-schema.ts';
import type { QuickWithoutPrice } from './reverse.ts';
import { longIslandDay } from '../../ui/long-island-time.ts';

export const storedSheetSchema = z.object({
  lines: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      amount_cents: z.number().int(),
      why: z.string(),
      group: z.enum(['sale', 'commission', 'payoff', 'tax', 'fee', 'proration', 'other', 'withholding']),
    }),
  ),
  net_cents: z.number().int(),
  closing_date: z.string(),
  notes: z.array(z.object({ key: z.string(), text: z.string() })),
  // Sheets stored before the guard rails (decision 0038) have none.
  warnings: z.array(z.object({ key: z.string(), field: z.string(), text: z.string() })).default([]),
}) satisfies z.ZodType<DetailedSheet>;

/** A compared offer as stored: cents, and the sheet as the engine made it. */
export const storedOfferSchema = z.object({
  price_cents: z.number().int(),
  concessions_cents: z.number().int(),
  buyer_agent_percent: z.number(),
  closing_date: z.string(),
  financing: z.enum(['cash', 'conventional', 'fha', 'va', 'other']).nullable(),
  net_cents: z.number().int(),
  behind_best_cents: z.number().int(),
  best: z.boolean(),
  sheet: storedSheetSchema,
});
export type StoredOffer = z.infer<typeof storedOfferSchema>;

const sheetDefaultsSchema = z.object({
  listing_commission_percent: z.number(),
  buyer_agent_percent: z.number(),
  days_to_closing: z.number().int(),
  title_closer_pickup: z.boolean(),
  payoff_bank_attorney: z.boolean(),
  seller_pays_rp5217: z.boolean(),
}) satisfies z.ZodType<SheetDefaults>;

/** What a sheet was computed with besides the estimate's columns (the sheet_basis column). */
export const sheetBasisSchema = z.object({
  today: z.iso.date(),
  defaults: sheetDefaultsSchema,
  // A sheet stored before a fee existed (the co-op fees, decision 0039) never used it: the default fills it.
  fees: z.preprocess(
    (fees) =>
      typeof fees === 'object' && fees !== null && !Array.isArray(fees) ? { ...defaultFeeTable(), ...fees } : fees,
    feeTableSchema,
  ),
});
export type SheetBasis = z.infer<typeof sheetBasisSchema>;

/** An estimate row with the net-sheet columns (null for a quick estimate). */
export interface EstimateWithSheet extends StoredEstimate {
  created_at: Date;
  details: unknown;
  sheet: unknown;
  sheet_basis: unknown;
}

/** Everything needed to weigh other prices or offers on an estimate's terms. */
export interface SheetTerms {
  quick: QuickWithoutPrice;
  details: NetSheetDetails | undefined;
  fees: FeeTable;
  options: SheetOptions;
  sheet: DetailedSheet;
}

/** The day an estimate was made, on Long Island's calendar. */
export const longIslandDate = longIslandDay;

/**
 * The stored sheet and its terms; a quick estimate's are its quick lines as a sheet (the same net),
 * with none of the per-lien extras it never had, and its commission split in the proportion of the
 * agent's defaults when an offer changes one side (decision 0037; all on the listing side without them).
 * Throws when a stored column no longer reads (a hand-edited row): a 500, never a different sheet.
 */
export function sheetTermsOf(row: EstimateWithSheet, agentDefaults?: SheetDefaults): SheetTerms {
  const { salePriceCents, ...quick } = storedEstimateInputs(row);
  if (row.sheet === null) {
    const options: SheetOptions = {
      today: longIslandDate(row.created_at),
      defaults: {
        ...agentDefaults,
        title_closer_pickup: false,
        payoff_bank_attorney: false,
        seller_pays_rp5217: false,
      },
    };
    const fees = defaultFeeTable();
    const sheet = computeDetailedSheet({ ...quick, salePriceCents }, undefined, fees, options);
    return { quick, details: undefined, fees, options, sheet };
  }
  const basis = sheetBasisSchema.parse(row.sheet_basis);
  return {
    quick,
    details: storedDetailsSchema.parse(row.details),
    fees: basis.fees,
    options: { today: basis.today, defaults: basis.defaults },
    sheet: storedSheetSchema.parse(row.sheet),
  };
}
