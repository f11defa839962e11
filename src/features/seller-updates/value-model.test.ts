import { describe, expect, it } from 'vitest';
import { marketDirection, median, pointOn, reprice, threeMonthsBefore } from './value-model.ts';

const series = (...values: [string, number][]) =>
  values.map(([timePeriodEnd, dataValue]) => ({ timePeriodEnd, dataValue }));

// Worked examples, by hand:
// A: $650,000 on 2026-02-10 in a town whose ZHVI was 600,000 (Jan 31) and 612,000 (Apr 30):
//    650,000 × 612,000 / 600,000 = 663,000 exactly.
// B: $487,250 with 500,000 → 497,000: 487,250 × 0.994 = 484,326.50 → $484,300 (nearest $100).
// C: a town without a series, county towns moving ×1.02, ×1.05, ×0.99: median ×1.02;
//    $700,000 × 1.02 = $714,000, from the county.
const townA = series(
  ['2025-12-31', 590_000],
  ['2026-01-31', 600_000],
  ['2026-02-28', 606_000],
  ['2026-03-31', 609_000],
  ['2026-04-30', 612_000],
);

describe('the value model', () => {
  it('takes the latest point on or before a day', () => {
    expect(pointOn(townA, '2026-02-10')?.timePeriodEnd).toBe('2026-01-31');
    expect(pointOn(townA, '2026-01-31')?.timePeriodEnd).toBe('2026-01-31');
    expect(pointOn(townA, '2025-12-30')).toBeUndefined();
  });

  it('re-prices by the town (worked example A)', () => {
    expect(reprice(650_000_00, '2026-02-10', '2026-05-12', { town: townA, county: [] })).toEqual({
      ok: true,
      priceCents: 663_000_00,
      source: 'town',
      ratio: 1.02,
      basePeriod: '2026-01-31',
      nowPeriod: '2026-04-30',
    });
  });

  it('rounds to the nearest $100 (worked example B)', () => {
    const town = series(['2026-01-31', 500_000], ['2026-02-28', 497_000]);
    const result = reprice(487_250_00, '2026-02-01', '2026-03-15', { town, county: [] });
    expect(result.ok && result.priceCents).toBe(484_300_00);
  });

  it('falls back to the median move of the county (worked example C)', () => {
    const county = [1.02, 1.05, 0.99].map((ratio) => series(['2026-01-31', 400_000], ['2026-02-28', 400_000 * ratio]));
    const result = reprice(700_000_00, '2026-02-05', '2026-03-20', { town: null, county });
    expect(result).toMatchObject({ ok: true, source: 'county', priceCents: 714_000_00, nowPeriod: '2026-02-28' });
  });

  it('uses the county when the town series does not reach back to the estimate', () => {
    const town = series(['2026-03-31', 500_000]);
    const county = [series(['2026-01-31', 100], ['2026-03-31', 110])];
    expect(reprice(100_000_00, '2026-02-05', '2026-04-20', { town, county })).toMatchObject({
      source: 'county',
      priceCents: 110_000_00,
    });
  });

  it('says no market data when neither covers both days', () => {
    expect(reprice(100_000_00, '2026-02-05', '2026-04-20', { town: null, county: [] })).toEqual({
      ok: false,
      reason: 'no_market_data',
    });
    const late = series(['2026-03-31', 100]);
    expect(reprice(100_000_00, '2026-02-05', '2026-04-20', { town: late, county: [late] }).ok).toBe(false);
  });

  it('takes the middle of an even count as the mean of the two', () => {
    expect(median([1, 4, 2, 3])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });

  it('tells the direction of the last three months in one sentence', () => {
    expect(threeMonthsBefore('2026-04-30')).toBe('2026-01-31');
    expect(threeMonthsBefore('2026-03-31')).toBe('2025-12-31');
    expect(marketDirection('Massapequa', townA, '2026-05-01')).toBe(
      'Home values in Massapequa rose 2.0% over the last three months.',
    );
    const down = series(['2026-01-31', 500_000], ['2026-04-30', 494_000]);
    expect(marketDirection('Hempstead', down, '2026-05-01')).toBe(
      'Home values in Hempstead fell 1.2% over the last three months.',
    );
    const flat = series(['2026-01-31', 500_000], ['2026-04-30', 500_200]);
    expect(marketDirection('Islip', flat, '2026-05-01')).toBe(
      'Home values in Islip held steady over the last three months.',
    );
    expect(marketDirection('Islip', series(['2026-04-30', 1]), '2026-05-01')).toBeNull();
  });
});
