/**
 * The price that nets a target, and the net over a price range, without re-building whole sheets:
 * only the commissions and the transfer tax move with the price; every other line is a constant.
 */
import { MAX_AMOUNT_CENTS, type EstimateInputs } from '../estimate/estimate.ts';
import {
  commissionSplit,
  computeDetailedSheet,
  flipTaxCents,
  otherPercentCents,
  priceLines,
  type DetailedSheet,
  type SheetOptions,
} from './detailed-sheet.ts';
import type { NetSheetDetails } from './details.ts';
import type { FeeTable } from './li-fees.ts';

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
  // At price 0 every price-moving line is 0, so the sheet's net is the constant part.
  const constant = sheet.net_cents;
  return (priceCents) => {
    const moving = priceLines({ ...quick, salePriceCents: priceCents }, listingPercent, buyerPercent, combined);
    return (
      constant +
      priceCents -
      moving.listing -
      moving.buyer -
      moving.transferTax -
      otherPercentCents(priceCents, details) -
      // The sheet at price 0 already holds a flip tax per share: only what moves with the price.
      (flipTaxCents(priceCents, details) - flipTaxCents(0, details))
    );
  };
}

const DOLLAR = 100;
const STEP = 500 * DOLLAR;

/**
 * The LOWEST whole-dollar price whose net is ≥ the target.
 * Why this is exact: within one transfer-tax step (price in ((k-1)·$500, k·$500]) the tax is constant
 * and one more dollar adds 100 cents of price but at most 2 × (20 % × 100 + 1) = 42 cents of
 * commissions, 10 % × 100 + 20 = 30 cents of the seller's percent-based costs (at most 10 % in all,
 * 20 lines each rounded; percent credits only grow with the price) and 11 cents of a co-op's flip tax
 * (at most 10 %), so the net strictly rises. Across steps, the net at the step tops k·$500 rises too:
 * +$500 of price against at most 40 % ($200 + 2 cents) of commissions, 10 % ($50 + 20 cents) of
 * percent costs, 10 % ($50 + 1 cent) of flip tax and one tax step (≤ $10 at the settings' maximum
 * rate of $20 per $1,000). So: binary search the first step whose top reaches the
 * target (every earlier step peaks below it), then binary search inside that step.
 */
export function solveReverse(
  targetNetCents: number,
  quick: QuickWithoutPrice,
  details: NetSheetDetails | undefined,
  fees: FeeTable,
  options: SheetOptions,
): { price_cents: number; sheet: DetailedSheet } {
  const net = netAtPrice(quick, details, fees, options);
  const firstAtLeast = (low: number, high: number, priceOf: (index: number) => number) => {
    let [lo, hi] = [low, high];
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (net(priceOf(mid)) >= targetNetCents) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const steps = MAX_AMOUNT_CENTS / STEP;
  if (net(MAX_AMOUNT_CENTS) < targetNetCents) throw new UnreachableTargetError(targetNetCents);
  const step = firstAtLeast(0, steps, (k) => k * STEP);
  const dollars =
    step === 0
      ? 0
      : firstAtLeast(((step - 1) * STEP) / DOLLAR + 1, (step * STEP) / DOLLAR, (dollarsValue) => dollarsValue * DOLLAR);
  const price = dollars * DOLLAR;
  return {
    price_cents: price,
    sheet: computeDetailedSheet({ ...quick, salePriceCents: price }, details, fees, options),
  };
}
