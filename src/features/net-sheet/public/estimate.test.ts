import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commissionLabel, computeEstimate, formatPercent, MAX_AMOUNT_CENTS, SYSTEM_DEFAULTS } from './estimate.ts';

const withDefaults = (salePriceCents: number, mortgagePayoffCents: number) =>
  computeEstimate({ salePriceCents, mortgagePayoffCents, ...SYSTEM_DEFAULTS });

describe('computeEstimate', () => {
  it('gives the worked example of the issue with the system defaults', () => {
    expect(withDefaults(780_200_00, 450_000_00)).toEqual({
      salePriceCents: 780_200_00,
      mortgagePayoffCents: 450_000_00,
      commissionPercent: 6,
      commissionCents: 46_812_00,
      transferTaxCents: 3_122_00,
      attorneyFeeCents: 750_00,
      recordingFeeCents: 175_00,
      netToSellerCents: 279_341_00,
    });
  });

  it('taxes every started $500 of price ("or fractional part thereof")', () => {
    expect(withDefaults(500_000_00, 0).transferTaxCents).toBe(2_000_00);
    expect(withDefaults(500_000_01, 0).transferTaxCents).toBe(2_002_00);
    expect(withDefaults(500_499_99, 0).transferTaxCents).toBe(2_002_00);
    expect(withDefaults(1, 0).transferTaxCents).toBe(2_00);
  });

  it('rounds half-up to the cent', () => {
    // 5.5 % of $100.09 is $5.50495 -> $5.50; of $100.10 is $5.5055 -> $5.51
    const at = (cents: number) =>
      computeEstimate({ ...SYSTEM_DEFAULTS, salePriceCents: cents, mortgagePayoffCents: 0, commissionPercent: 5.5 });
    expect(at(100_09).commissionCents).toBe(5_50);
    expect(at(100_10).commissionCents).toBe(5_51);
    // 1.15 per $1,000 is $0.575 per $500 step: 1 step -> $0.58 (half-up), 3 steps -> $1.725 -> $1.73
    const tax = (cents: number) =>
      computeEstimate({
        ...SYSTEM_DEFAULTS,
        salePriceCents: cents,
        mortgagePayoffCents: 0,
        transferTaxRatePer1000: 1.15,
      });
    expect(tax(100_00).transferTaxCents).toBe(58);
    expect(tax(1_500_00).transferTaxCents).toBe(1_73);
  });

  it('gives a negative net when the payoff exceeds the proceeds: what the seller brings to closing', () => {
    const lines = withDefaults(300_000_00, 320_000_00);
    expect(lines.netToSellerCents).toBe(300_000_00 - 320_000_00 - 18_000_00 - 1_200_00 - 750_00 - 175_00);
    expect(lines.netToSellerCents).toBeLessThan(0);
  });

  it('reports zero lines as zero', () => {
    const lines = computeEstimate({
      salePriceCents: 400_000_00,
      mortgagePayoffCents: 0,
      commissionPercent: 0,
      transferTaxRatePer1000: 0,
      attorneyFeeCents: 0,
      recordingFeeCents: 0,
    });
    expect(lines).toMatchObject({ commissionCents: 0, transferTaxCents: 0, attorneyFeeCents: 0, recordingFeeCents: 0 });
    expect(Object.is(lines.commissionCents, -0)).toBe(false);
    expect(lines.netToSellerCents).toBe(400_000_00);
  });

  it('refuses amounts that are not whole cents within the bounds', () => {
    expect(() => withDefaults(MAX_AMOUNT_CENTS + 1, 0)).toThrow(RangeError);
    expect(() => withDefaults(100.5, 0)).toThrow(RangeError);
    expect(() => withDefaults(100_00, -1)).toThrow(RangeError);
  });
});

const cents = (max: number) => fc.integer({ min: 0, max });
const rate = (maxHundredths: number) => fc.integer({ min: 0, max: maxHundredths }).map((h) => h / 100);
const inputs = fc.record({
  salePriceCents: fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }),
  mortgagePayoffCents: cents(MAX_AMOUNT_CENTS),
  commissionPercent: rate(100_00),
  transferTaxRatePer1000: rate(100_00),
  attorneyFeeCents: cents(100_000_00),
  recordingFeeCents: cents(100_000_00),
});

describe('computeEstimate properties', () => {
  it('lines always add up to the sale price', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const l = computeEstimate(input);
        const sum =
          l.mortgagePayoffCents +
          l.commissionCents +
          l.transferTaxCents +
          l.attorneyFeeCents +
          l.recordingFeeCents +
          l.netToSellerCents;
        expect(sum).toBe(input.salePriceCents);
      }),
    );
  });

  it('every line is a whole number of cents (no float drift)', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        for (const value of Object.values(computeEstimate(input))) {
          if (value === input.commissionPercent) continue;
          expect(Number.isSafeInteger(value)).toBe(true);
        }
      }),
    );
  });

  it('commission is the exact product rounded half-up to the cent (checked with BigInt)', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const exactTimes10000 = BigInt(input.salePriceCents) * BigInt(Math.round(input.commissionPercent * 100));
        const got = BigInt(computeEstimate(input).commissionCents) * 10000n;
        const diff = got - exactTimes10000;
        // Half-up: the rounded value is at most half a cent above, and less than half a cent below.
        expect(diff > -5000n && diff <= 5000n).toBe(true);
      }),
    );
  });
});

describe('formatPercent', () => {
  // Issue 22: 6 % read "6.0%" on the quick sheet and "6%" on the detailed one; 5.75 % read "5.8%".
  it('shows the percent as set, without padding or rounding', () => {
    expect(formatPercent(6)).toBe('6%');
    expect(formatPercent(5.75)).toBe('5.75%');
    expect(formatPercent(2.5)).toBe('2.5%');
    expect(formatPercent(2.125)).toBe('2.125%');
    expect(formatPercent(0.1 + 0.2)).toBe('0.3%');
  });
  it('labels the commission the same in every view', () => {
    expect(commissionLabel(6)).toBe('Commission (6%)');
    expect(commissionLabel(5.25)).toBe('Commission (5.25%)');
  });
});

describe('half-up at exactly half a cent', () => {
  it('rounds up', () => {
    // 0.5 % of $1.01 is 0.505 cents -> 1 cent; 0.5 % of $1.00 is 0.5 cents -> 1 cent
    const at = (cents: number) =>
      computeEstimate({ ...SYSTEM_DEFAULTS, salePriceCents: cents, mortgagePayoffCents: 0, commissionPercent: 0.5 });
    expect(at(1_00).commissionCents).toBe(1);
    expect(at(3_00).commissionCents).toBe(2);
  });
});
