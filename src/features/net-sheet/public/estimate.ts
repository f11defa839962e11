/**
 * Net-to-seller arithmetic, in integer cents so no float drift can reach a seller's figures.
 * Shared by the server (which stores and answers estimates) and the islands (which show them).
 */

/** Used where an agent has not set their own calculator values. New York's transfer tax is $2 per
 * $500 or fractional part thereof, i.e. 4.00 per $1,000. */
export const SYSTEM_DEFAULTS = {
  attorneyFeeCents: 750_00,
  recordingFeeCents: 175_00,
  commissionPercent: 6,
  transferTaxRatePer1000: 4,
} as const;

/** The largest sale price or payoff accepted: $100,000,000. */
export const MAX_AMOUNT_CENTS = 100_000_000_00;

export interface EstimateInputs {
  salePriceCents: number;
  mortgagePayoffCents: number;
  /** Percent of the sale price, up to two decimals (6 means 6.00 %). */
  commissionPercent: number;
  /** Dollars per $1,000 of price, up to two decimals; applied per started $500. */
  transferTaxRatePer1000: number;
  attorneyFeeCents: number;
  recordingFeeCents: number;
}

/** An estimate as stored: its price, payoff and the rates and fees it was made with. */
export interface StoredEstimate {
  sale_price_cents: number;
  mortgage_payoff_cents: number;
  commission_percent: number;
  transfer_tax_rate_per_1000: number;
  attorney_fee_cents: number;
  recording_fee_cents: number;
}

/** The inputs of a stored estimate, to compute its lines again (they are not stored: decision 0001). */
export const storedEstimateInputs = (row: StoredEstimate): EstimateInputs => ({
  salePriceCents: row.sale_price_cents,
  mortgagePayoffCents: row.mortgage_payoff_cents,
  commissionPercent: row.commission_percent,
  transferTaxRatePer1000: row.transfer_tax_rate_per_1000,
  attorneyFeeCents: row.attorney_fee_cents,
  recordingFeeCents: row.recording_fee_cents,
});

export interface EstimateLines {
  salePriceCents: number;
  mortgagePayoffCents: number;
  commissionPercent: number;
  commissionCents: number;
  transferTaxCents: number;
  attorneyFeeCents: number;
  recordingFeeCents: number;
  /** Negative when the payoff and costs exceed the price: what the seller brings to closing. */
  netToSellerCents: number;
}

/** n / d rounded half-up, for non-negative safe integers. */
export function divideRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** A rate with up to two decimals as an integer count of hundredths (6.25 -> 625). */
export function hundredths(rate: number): number {
  return Math.round(rate * 100);
}

const CENTS_PER_TAX_STEP = 500_00;

export function computeEstimate(inputs: EstimateInputs): EstimateLines {
  const { salePriceCents, mortgagePayoffCents, attorneyFeeCents, recordingFeeCents } = inputs;
  for (const [name, value] of Object.entries({
    salePriceCents,
    mortgagePayoffCents,
    attorneyFeeCents,
    recordingFeeCents,
  })) {
    if (!Number.isSafeInteger(value) || value < 0 || value > MAX_AMOUNT_CENTS) {
      throw new RangeError(`${name} must be whole cents between 0 and ${MAX_AMOUNT_CENTS}`);
    }
  }
  const commissionCents = divideRoundHalfUp(salePriceCents * hundredths(inputs.commissionPercent), 100 * 100);
  // Every started $500 of price is taxed at half the per-$1,000 rate.
  const taxSteps = Math.ceil(salePriceCents / CENTS_PER_TAX_STEP);
  const transferTaxCents = divideRoundHalfUp(taxSteps * hundredths(inputs.transferTaxRatePer1000), 2);
  const netToSellerCents =
    salePriceCents - mortgagePayoffCents - commissionCents - transferTaxCents - attorneyFeeCents - recordingFeeCents;
  return {
    salePriceCents,
    mortgagePayoffCents,
    commissionPercent: inputs.commissionPercent,
    commissionCents,
    transferTaxCents,
    attorneyFeeCents,
    recordingFeeCents,
    netToSellerCents,
  };
}

/**
 * "6%", "5.25%": a percent as it was set (at most 4 decimals, no padding), in every view. One decimal
 * made 6 % read "6.0%" on the quick sheet beside "6%" on the detailed one, and rounded 5.25 % to
 * "5.3%" on a sheet charging 5.25 % (issue 22, newcomer audit M4).
 */
export function formatPercent(percent: number): string {
  return `${Number(percent.toFixed(4))}%`;
}

/**
 * The commission lines' labels, for every view of an estimate (web quick and detailed sheets,
 * offers, PDFs, e-mail, the agent page): "Commission", the word sellers and the contract of sale
 * use, not "Compensation" (decision 0044).
 */
export function commissionLabel(percent: number): string {
  return `Commission (${formatPercent(percent)})`;
}

export function listingCommissionLabel(percent: number): string {
  return `Listing commission (${formatPercent(percent)})`;
}

export function buyerAgentCommissionLabel(percent: number): string {
  return `Buyer's agent (${formatPercent(percent)})`;
}

/**
 * The transfer-tax rate in words, from the rate in force (an agent may set their own): one wording
 * for the sheet, its notes, the PDF and the pages ("$2 per $500 of the price or part of it"), so no
 * two places can disagree (issue 22, newcomer audit minor 10). A rate whose $500 step is not whole
 * cents (4.01 per $1,000) is said per $1,000.
 */
export function transferTaxRateText(ratePer1000: number): string {
  const centsPer1000 = hundredths(ratePer1000);
  const dollars = (cents: number) => `$${cents % 100 === 0 ? cents / 100 : (cents / 100).toFixed(2)}`;
  return centsPer1000 % 2 === 0
    ? `${dollars(centsPer1000 / 2)} per $500 of the price or part of it`
    : `${dollars(centsPer1000)} per $1,000 of the price, charged per $500 or part of it`;
}
