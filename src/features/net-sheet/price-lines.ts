/**
 * The lines of a sheet that move with the sale price: the commission's sides and the transfer tax,
 * the seller's percent lines and a co-op's flip tax (shared by the sheet, the reverse solve and the
 * range). Integer cents, rounded half-up once each.
 */
import { computeEstimate, divideRoundHalfUp, hundredths, type EstimateInputs } from './public/estimate.ts';
import type { NetSheetDetails } from './details.ts';

/** The lines of a sale price that move with the price (shared with the reverse solve and the range). */
export function priceLines(
  quick: EstimateInputs,
  listingPercent: number,
  buyerPercent: number,
  combined = false,
): { listing: number; buyer: number; transferTax: number } {
  // Combined: the quick estimate's own commission line (the whole total, rounded once) in `listing`.
  if (combined) {
    const estimate = computeEstimate(quick);
    return { listing: estimate.commissionCents, buyer: 0, transferTax: estimate.transferTaxCents };
  }
  const estimate = computeEstimate({ ...quick, commissionPercent: listingPercent });
  const buyer = divideRoundHalfUp(quick.salePriceCents * hundredths(buyerPercent), 100 * 100);
  return { listing: estimate.commissionCents, buyer, transferTax: estimate.transferTaxCents };
}

/** A seller's line in signed cents at a price: a percent of it rounded half-up, a credit negative. */
export function otherLineCents(priceCents: number, line: NonNullable<NetSheetDetails['other_lines']>[number]): number {
  const size =
    line.percent === undefined
      ? (line.amount ?? 0)
      : divideRoundHalfUp(priceCents * hundredths(line.percent), 100 * 100);
  return line.credit ? -size : size;
}

/** The seller's percent-based lines at a price, summed (they move with the price, for the reverse solve). */
export const otherPercentCents = (priceCents: number, details: NetSheetDetails | undefined): number =>
  (details?.other_lines ?? [])
    .filter((line) => line.percent !== undefined)
    .reduce((sum, line) => sum + otherLineCents(priceCents, line), 0);

/** A co-op's flip tax at a price, rounded half-up (0 unless the sale is a co-op's with one). */
export function flipTaxCents(priceCents: number, details: NetSheetDetails | undefined): number {
  const flip = details?.property_type === 'coop' ? details.flip_tax : undefined;
  if (!flip) return 0;
  if (flip.basis === 'shares') return (flip.dollars_per_share ?? 0) * (flip.shares ?? 0);
  const base = flip.basis === 'price' ? priceCents : Math.max(priceCents - (flip.purchase_price ?? 0), 0);
  return divideRoundHalfUp(base * hundredths(flip.percent ?? 0), 100 * 100);
}
