/** Two to four offers side by side: each one's sheet and net, how far each is from the best. */
import * as z from 'zod';
import { dollarAmount } from './amount.ts';
import { computeDetailedSheet, type DetailedSheet, type SheetOptions } from './detailed-sheet.ts';
import { netSheetDetailsSchema, type NetSheetDetails } from './details.ts';
import type { FeeTable } from './fee-table-schema.ts';
import type { QuickWithoutPrice } from './reverse.ts';

/** The financing an offer may name, in the form's order. */
export const FINANCING_TYPES = ['cash', 'conventional', 'fha', 'va', 'other'] as const;

export const offerSchema = z.strictObject({
  price: dollarAmount('Offer price', { minimumDollars: 0 }),
  concessions: dollarAmount('Concessions', { minimumDollars: 0 }),
  buyer_agent_percent: netSheetDetailsSchema.shape.buyer_agent_percent,
  closing_date: z.iso.date({
    // The form's date picker sends '' when nothing is picked.
    error: (issue) =>
      issue.input === '' || issue.input === undefined
        ? 'Closing date is required'
        : 'Closing date must be a date (YYYY-MM-DD)',
  }),
  // Optional: it changes no figure (decision 0037). The form's empty choice sends ''.
  financing: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z.enum(FINANCING_TYPES, { error: 'Choose a financing type' }).optional(),
  ),
});
/** An offer whose concessions are more than its price is a slip (newcomer audit M5), refused. */
const checkedOfferSchema = offerSchema.superRefine((offer, ctx) => {
  if (offer.concessions > offer.price)
    ctx.addIssue({
      code: 'custom',
      path: ['concessions'],
      message: 'Concessions cannot be more than the offer price',
    });
});
export const offersSchema = z
  .array(checkedOfferSchema)
  .min(2, 'Compare at least 2 offers')
  .max(4, 'Compare at most 4 offers');
export type Offer = z.output<typeof offerSchema>;

export interface ComparedOffer {
  offer: Offer;
  sheet: DetailedSheet;
  net_cents: number;
  /** The best net minus this one's (0 for the best). */
  behind_best_cents: number;
  best: boolean;
}

export function compareOffers(
  offers: readonly Offer[],
  quick: QuickWithoutPrice,
  details: NetSheetDetails | undefined,
  fees: FeeTable,
  options: SheetOptions,
): ComparedOffer[] {
  const sheets = offers.map((offer) => {
    const merged: NetSheetDetails = {
      ...(details ?? netSheetDetailsSchema.parse({})),
      seller_concessions: offer.concessions,
      closing_date: offer.closing_date,
      ...(offer.buyer_agent_percent === undefined ? {} : { buyer_agent_percent: offer.buyer_agent_percent }),
    };
    return { offer, sheet: computeDetailedSheet({ ...quick, salePriceCents: offer.price }, merged, fees, options) };
  });
  // Highest net wins; on a tie the earliest closing (ISO dates compare as text).
  const best = sheets.reduce((winner, candidate) =>
    candidate.sheet.net_cents > winner.sheet.net_cents ||
    (candidate.sheet.net_cents === winner.sheet.net_cents && candidate.offer.closing_date < winner.offer.closing_date)
      ? candidate
      : winner,
  );
  return sheets.map(({ offer, sheet }) => ({
    offer,
    sheet,
    net_cents: sheet.net_cents,
    behind_best_cents: best.sheet.net_cents - sheet.net_cents,
    best: offer === best.offer,
  }));
}
