/** The net over a range of prices in one call (one sheet's constants, then only the price lines). */
import { MAX_AMOUNT_CENTS } from './public/estimate.ts';
import type { SheetOptions } from './detailed-sheet.ts';
import type { NetSheetDetails } from './details.ts';
import type { FeeTable } from './fee-table-schema.ts';
import { netAtPrice, type QuickWithoutPrice } from './reverse.ts';

const DOLLAR = 100;

/**
 * Prices from `percent` below to `percent` above a price, in `points` even steps on whole dollars,
 * and the price itself in place of the grid point nearest it (the middle one for an odd count): a
 * price with cents ($999,999.99) is a point of its own range, on its own side of the mansion-tax
 * line (audit 2026-11-26, M7).
 */
export function rangePrices(priceCents: number, percent = 10, points = 41): number[] {
  const low = priceCents - (priceCents * percent) / 100;
  const width = (2 * priceCents * percent) / 100;
  const exactAt = (index: number) => low + (width * index) / (points - 1);
  const nearest = Math.round(((priceCents - low) * (points - 1)) / width) || 0;
  return Array.from({ length: points }, (_, index) =>
    index === nearest
      ? priceCents
      : Math.min(Math.max(Math.round(exactAt(index) / DOLLAR) * DOLLAR, 0), MAX_AMOUNT_CENTS),
  );
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
