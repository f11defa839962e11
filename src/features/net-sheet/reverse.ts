/**
 * The price that nets a target, and the net over a price range, without re-building whole sheets:
 * only the commissions, the transfer tax, the seller's percent lines, a flip tax and the lines of
 * withholding.ts move with the price; every other line is a constant.
 */
import { MAX_AMOUNT_CENTS, type EstimateInputs } from './public/estimate.ts';
import { commissionSplit, computeDetailedSheet, type DetailedSheet, type SheetOptions } from './detailed-sheet.ts';
import { flipTaxCents, otherPercentCents, priceLines } from './price-lines.ts';
import type { NetSheetDetails } from './details.ts';
import type { FeeTable } from './fee-table-schema.ts';
import {
  firptaCents,
  nonresidentTaxCents,
  sellerMansionTaxCents,
  sellingExpensesCents,
  STEP_LAST_DOLLARS,
} from './withholding.ts';

export type QuickWithoutPrice = Omit<EstimateInputs, 'salePriceCents'>;

export class UnreachableTargetError extends Error {
  constructor(readonly targetNetCents: number) {
    super('No sale price up to $100,000,000 nets this amount');
  }
}

/** The net at any price, for a fixed set of inputs. */
export function netAtPrice(
  quick: QuickWithoutPrice,
  details: NetSheetDetails | undefined,
  fees: FeeTable,
  options: SheetOptions,
): (priceCents: number) => number {
  const sheet = computeDetailedSheet({ ...quick, salePriceCents: 0 }, details, fees, options);
  const { listingPercent, buyerPercent, combined } = commissionSplit(quick, details, options);
  // At price 0 every price-moving line is 0 (a flip tax per share aside), so the sheet's net and its
  // selling expenses are the constant parts.
  const constant = sheet.net_cents;
  const constantExpenses = sellingExpensesCents(sheet.lines);
  const flipAtZero = flipTaxCents(0, details);
  return (priceCents) => {
    const moving = priceLines({ ...quick, salePriceCents: priceCents }, listingPercent, buyerPercent, combined);
    // The sheet at price 0 already holds a flip tax per share: only what moves with the price.
    const flip = flipTaxCents(priceCents, details) - flipAtZero;
    const mansion = sellerMansionTaxCents(priceCents, details, fees);
    // The same selling expenses as the sheet's at this price (withholding.ts: IT-2663's line 15).
    const expenses = constantExpenses + moving.listing + moving.buyer + moving.transferTax + flip + mansion;
    return (
      constant +
      priceCents -
      moving.listing -
      moving.buyer -
      moving.transferTax -
      otherPercentCents(priceCents, details) -
      flip -
      mansion -
      firptaCents(priceCents, details, fees) -
      nonresidentTaxCents(priceCents, expenses, details, fees)
    );
  };
}

const DOLLAR = 100;
const STEP_DOLLARS = 500;

/**
 * The LOWEST whole-dollar price whose net is ≥ the target.
 *
 * The net is not monotone in the price: FIRPTA's rate steps from 0 to 10 % above $300,000 and from
 * 10 to 15 % above $1,000,000, and a seller's mansion tax starts at $1,000,000 (withholding.ts). So
 * the price axis is split where those step (STEP_LAST_DOLLARS: [0, 300,000], [300,001, 999,999],
 * [1,000,000], [1,000,001, 100,000,000]) and each interval is searched in turn: the first with an
 * answer holds the lowest. Inside an interval every line is a rounded linear function of the price
 * but the transfer tax (constant on each $500 step, ((k-1)·$500, k·$500]) and IT-2663's max(0, gain).
 *
 * One more dollar (d dollars) inside a $500 step adds 100·d cents of price and, at the inputs' bounds,
 * at most: commissions 40 % (two sides of 20 %) and a flip tax 10 %, each line ±1 cent of rounding;
 * percent costs 10 % in all, 20 lines ±1 cent each (percent credits only grow); FIRPTA 15 % + 1;
 * IT-2663 10.9 % of the gain's growth, which is the price's growth LESS the commissions' and flip
 * tax's (both selling expenses), + 1. In all ≤ (1 − 0.109)·(50 % · 100·d + 3) + 10.9·d + 10·d + 20 +
 * 15·d + 1 + 1 = 80.45·d + 24.7 cents, so the net rises by ≥ 19.55·d − 24.7 cents: strictly for
 * d ≥ 2, but one dollar may dip by up to 5 cents when twenty rounded lines all round up at once.
 * Hence, inside a step: (1) the step's peak is at its top or one dollar below; (2) "p or p + 1 nets
 * the target" is monotone over the step but its top, so a binary search finds its first p, and the
 * answer is p or p + 1. Across steps (≥ 499 dollars apart in every interval here) the peaks rise:
 * 19.55 · 499 − 24.7 cents is far more than one tax step (≤ $10 at the settings' maximum $20 per
 * $1,000; a higher transfer tax only lowers IT-2663's gain). So: binary search the first step whose
 * peak reaches the target, then the dollar inside it. tests: reverse-withholding.test.ts checks it
 * against a scan of every dollar.
 */
export function solveReverse(
  targetNetCents: number,
  quick: QuickWithoutPrice,
  details: NetSheetDetails | undefined,
  fees: FeeTable,
  options: SheetOptions,
): { price_cents: number; sheet: DetailedSheet } {
  const net = netAtPrice(quick, details, fees, options);
  const reaches = (dollars: number) => net(dollars * DOLLAR) >= targetNetCents;
  /** The first index in [low, high] where `holds` is true, `holds` monotone and true at `high`. */
  const firstTrue = (low: number, high: number, holds: (index: number) => boolean) => {
    let [lo, hi] = [low, high];
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (holds(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const maxDollars = MAX_AMOUNT_CENTS / DOLLAR;
  const lasts = [...STEP_LAST_DOLLARS, maxDollars];
  for (const [index, last] of lasts.entries()) {
    const first = index === 0 ? 0 : (lasts[index - 1] ?? 0) + 1;
    const found = lowestInInterval(first, last);
    if (found !== undefined) {
      const price = found * DOLLAR;
      return {
        price_cents: price,
        sheet: computeDetailedSheet({ ...quick, salePriceCents: price }, details, fees, options),
      };
    }
  }
  throw new UnreachableTargetError(targetNetCents);

  function lowestInInterval(first: number, last: number): number | undefined {
    const top = (step: number) => Math.min(step * STEP_DOLLARS, last);
    const bottom = (step: number) => Math.max((step - 1) * STEP_DOLLARS + 1, first);
    const peakReaches = (step: number) => reaches(top(step)) || (top(step) > bottom(step) && reaches(top(step) - 1));
    const [firstStep, lastStep] = [Math.ceil(first / STEP_DOLLARS), Math.ceil(last / STEP_DOLLARS)];
    if (!peakReaches(lastStep)) return undefined;
    const step = firstTrue(firstStep, lastStep, peakReaches);
    if (top(step) === bottom(step)) return top(step);
    const start = firstTrue(bottom(step), top(step) - 1, (dollars) => reaches(dollars) || reaches(dollars + 1));
    return reaches(start) ? start : start + 1;
  }
}
