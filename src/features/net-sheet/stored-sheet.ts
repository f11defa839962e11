/**
 * The detailed sheet as stored with its estimate (migration 0020), read back through schemas: a
 * jsonb column is whatever was written, so nothing is trusted by a cast.
 */
import * as z from 'zod';
import { storedEstimateInputs, type StoredEstimate } from '../estimate/estimate.ts';
import { computeDetailedSheet, type DetailedSheet, type SheetDefaults, type SheetOptions } from './detailed-sheet.ts';
import { netSheetDetailsSchema, type NetSheetDetails } from './details.ts';
import { defaultFeeTable, feeTableSchema, type FeeTable } from './li-fees.ts';
import type { QuickWithoutPrice } from './reverse.ts';
import { onFirstUse } from '../../ui/on-first-use.ts';

export const storedSheetSchema = z.object({
  lines: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      amount_cents: z.number().int(),
      why: z.string(),
      group: z.enum(['sale', 'commission', 'payoff', 'tax', 'fee', 'proration', 'other']),
    }),
  ),
  net_cents: z.number().int(),
  closing_date: z.string(),
  notes: z.array(z.object({ key: z.string(), text: z.string() })),
}) satisfies z.ZodType<DetailedSheet>;

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

/** en-CA writes YYYY-MM-DD. Made once: a formatter costs tens of µs to build, per request otherwise. */
const LONG_ISLAND_DAY = onFirstUse(() => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }));

/** The day an estimate was made, on Long Island's calendar. */
export const longIslandDate = (at: Date): string => LONG_ISLAND_DAY().format(at);

/**
 * The stored sheet and its terms; a quick estimate's are its quick lines as a sheet (the same net).
 * Throws when a stored column no longer reads (a hand-edited row): a 500, never a different sheet.
 */
export function sheetTermsOf(row: EstimateWithSheet): SheetTerms {
  const { salePriceCents, ...quick } = storedEstimateInputs(row);
  if (row.sheet === null) {
    const options = { today: longIslandDate(row.created_at) };
    const fees = defaultFeeTable();
    const sheet = computeDetailedSheet({ ...quick, salePriceCents }, undefined, fees, options);
    return { quick, details: undefined, fees, options, sheet };
  }
  const basis = sheetBasisSchema.parse(row.sheet_basis);
  return {
    quick,
    details: netSheetDetailsSchema.parse(row.details),
    fees: basis.fees,
    options: { today: basis.today, defaults: basis.defaults },
    sheet: storedSheetSchema.parse(row.sheet),
  };
}
