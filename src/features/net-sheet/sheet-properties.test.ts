import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fees, options, quick, withoutPrice } from '../../../tests/support/net-sheet-examples.ts';
import { computeEstimate } from './public/estimate.ts';
import { computeDetailedSheet } from './detailed-sheet.ts';
import { netSheetDetailsSchema } from './details.ts';
import { netRange, rangePrices } from './range.ts';
import { netAtPrice, solveReverse, UnreachableTargetError } from './reverse.ts';

const inputs = fc.record({
  salePriceCents: fc.integer({ min: 0, max: 20_000_000_00 }),
  mortgagePayoffCents: fc.integer({ min: 0, max: 2_000_000_00 }),
  commissionPercent: fc.integer({ min: 0, max: 2000 }).map((hundredths) => hundredths / 100),
  transferTaxRatePer1000: fc.integer({ min: 0, max: 2000 }).map((hundredths) => hundredths / 100),
  attorneyFeeCents: fc.integer({ min: 0, max: 10_000_00 }),
  recordingFeeCents: fc.integer({ min: 0, max: 10_000_00 }),
});
const details = fc
  .record({
    listing_commission_percent: fc.integer({ min: 0, max: 2000 }).map((h) => h / 100),
    buyer_agent_percent: fc.integer({ min: 0, max: 2000 }).map((h) => h / 100),
    county: fc.constantFrom('Nassau', 'Suffolk'),
    property_type: fc.constantFrom('house', 'condo', 'coop'),
    closing_date: fc.constantFrom('2026-12-31', '2027-02-28', '2027-06-30', '2027-07-01'),
    liens: fc.array(
      fc.record({
        label: fc.constant('Lien'),
        payoff: fc.integer({ min: 0, max: 1_000_000 }),
        per_diem_interest: fc.integer({ min: 0, max: 20_000 }).map((c) => c / 100),
      }),
      { maxLength: 4 },
    ),
    other_lines: fc
      .array(
        fc.record({
          name: fc.constant('Line'),
          credit: fc.boolean(),
          size: fc.oneof(
            fc.integer({ min: 0, max: 50_000_00 }).map((cents) => ({ amount: cents / 100 })),
            // At most 2.5 % each: four cost lines stay within the 10 % bound.
            fc.integer({ min: 0, max: 250 }).map((h) => ({ percent: h / 100 })),
          ),
        }),
        { maxLength: 4 },
      )
      .map((lines) => lines.map(({ size, ...line }) => ({ ...line, ...size }))),
    property_taxes: fc.record({
      nassau_school: fc.record({
        annual: fc.integer({ min: 0, max: 99_999 }),
        first_half_paid: fc.boolean(),
        second_half_paid: fc.boolean(),
      }),
      suffolk: fc.record({
        annual: fc.integer({ min: 0, max: 99_999 }),
        first_half_paid: fc.boolean(),
        second_half_paid: fc.boolean(),
      }),
      village: fc.record({
        annual: fc.integer({ min: 0, max: 9_999 }),
        fiscal_year_start_month: fc.integer({ min: 1, max: 12 }),
        paid: fc.boolean(),
      }),
    }),
  })
  .chain((raw) =>
    // A co-op's flip tax in each of its three forms.
    fc
      .oneof(
        fc.integer({ min: 0, max: 1000 }).map((h) => ({ basis: 'price', percent: h / 100 })),
        fc
          .tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 5_000_000 }))
          .map(([h, paid]) => ({ basis: 'profit', percent: h / 100, purchase_price: paid })),
        fc
          .tuple(fc.integer({ min: 1, max: 100_00 }), fc.integer({ min: 1, max: 5_000 }))
          .map(([cents, shares]) => ({ basis: 'shares', dollars_per_share: cents / 100, shares })),
      )
      .map((flip_tax) => (raw.property_type === 'coop' ? { ...raw, flip_tax } : raw)),
  )
  // Only what the schema accepts (decision 0038): each county's own levies, a payoff letter's date
  // with per-diem interest, at most 0.1 % of the payoff a day; no tax bill on a co-op (decision 0044).
  .map(({ property_taxes: { nassau_school, suffolk, village }, liens, ...raw }) =>
    netSheetDetailsSchema.parse({
      ...raw,
      liens: liens.map((lien) => ({
        ...lien,
        per_diem_interest: Math.min(lien.per_diem_interest, Math.floor(lien.payoff / 10) / 100),
        payoff_date: '2026-11-20',
      })),
      property_taxes:
        raw.property_type === 'coop'
          ? undefined
          : raw.county === 'Nassau'
            ? { nassau_school, village }
            : { suffolk, village },
    }),
  );

describe('computeDetailedSheet, properties', () => {
  it('gives integer lines that sum to minus the net', () => {
    fc.assert(
      fc.property(inputs, details, (quickInputs, refined) => {
        const sheet = computeDetailedSheet(quickInputs, refined, fees, options);
        expect(sheet.lines.every((line) => Number.isSafeInteger(line.amount_cents))).toBe(true);
        expect(-sheet.lines.reduce((sum, line) => sum + line.amount_cents, 0)).toBe(sheet.net_cents);
      }),
    );
  });

  it("without details nets exactly computeEstimate's net with the same lines", () => {
    fc.assert(
      fc.property(inputs, (quickInputs) => {
        const estimate = computeEstimate(quickInputs);
        const sheet = computeDetailedSheet(quickInputs, undefined, fees, options);
        expect(sheet.net_cents).toBe(estimate.netToSellerCents);
        const expected = {
          sale_price: -estimate.salePriceCents,
          commission: estimate.commissionCents,
          lien_1_payoff: estimate.mortgagePayoffCents,
          transfer_tax: estimate.transferTaxCents,
          attorney_fee: estimate.attorneyFeeCents,
          recording_fee: estimate.recordingFeeCents,
        };
        const nonZero = Object.entries(expected).filter(([key, value]) => key === 'sale_price' || value !== 0);
        expect(sheet.lines.map((line) => [line.key, line.amount_cents])).toEqual(nonZero);
      }),
    );
  });

  it('solves the lowest whole-dollar price that nets at least the target', () => {
    fc.assert(
      fc.property(
        inputs,
        details,
        fc.integer({ min: -1_000_000_00, max: 5_000_000_00 }),
        (quickInputs, refined, target) => {
          const rest = withoutPrice(quickInputs);
          const { price_cents, sheet } = solveReverse(target, rest, refined, fees, options);
          expect(price_cents % 100).toBe(0);
          expect(sheet.net_cents).toBeGreaterThanOrEqual(target);
          if (price_cents > 0) {
            const lower = computeDetailedSheet({ ...rest, salePriceCents: price_cents - 100 }, refined, fees, options);
            expect(lower.net_cents).toBeLessThan(target);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a target no price up to $100,000,000 reaches', () => {
    const rest = withoutPrice(quick(0));
    expect(() => solveReverse(100_000_000_00, rest, undefined, fees, options)).toThrow(UnreachableTargetError);
  });

  it('gives range points equal to single computations', () => {
    fc.assert(
      fc.property(inputs, details, (quickInputs, refined) => {
        const { salePriceCents, ...rest } = quickInputs;
        const prices = rangePrices(salePriceCents);
        expect(prices).toHaveLength(41);
        for (const point of netRange(prices, rest, refined, fees, options)) {
          expect(point.net_cents).toBe(
            computeDetailedSheet({ ...rest, salePriceCents: point.price_cents }, refined, fees, options).net_cents,
          );
        }
        expect(netAtPrice(rest, refined, fees, options)(salePriceCents)).toBe(
          computeDetailedSheet(quickInputs, refined, fees, options).net_cents,
        );
      }),
      { numRuns: 50 },
    );
  });
});
