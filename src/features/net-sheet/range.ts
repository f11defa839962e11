/** The net over a range of prices in one call (one sheet's constants, then only the price lines). */
import { MAX_AMOUNT_CENTS } from '../estimate/estimate.ts';
import type { SheetOptions } from './detailed-sheet.ts';
import type { NetSheetDetails } from './details.ts';
import type { FeeTable } from './li-fees.ts';
import { netAtPrice, type QuickWithoutPrice } from './reverse.ts';

const DOLLAR = 100;

/** Whole-dollar prices from `percent` below to `percent` above a price, in `points` even steps. */
export function rangePrices(priceCents: number, percent = 10, points = 41): number[] {
  const low = priceCents - (priceCents * percent) / 100;
  const width = (2 * priceCents * percent) / 100;
  return Array.from({ length: points }, (_, index) => {
    const exact = low + (width * index) / (points - 1);
    return Math.min(Math.max(Math.round(exact / DOLLAR) * DOLLAR, 0), MAX_AMOUNT_CENTS);
  });
}

/** The net at each price, in one call. */
export function netRange(
  prices: readonly number[],
  quick: QuickWithoutPrice,
  details: NetSheetDetails | undefined,
  fees: FeeTable,
  options: SheetOptions,
): { price_cents: number; net_cents: number }[] {
  const net = netAtPrice(quick, details, fees, options);
  return prices.map((price) => ({ price_cents: price, net_cents: net(price) }));
}
