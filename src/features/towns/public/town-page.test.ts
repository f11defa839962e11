import { describe, expect, it } from 'vitest';
import { formatPriceShort } from '../../../ui/money.ts';
import { priceChartBars, priceChartRange, priceTrendSummary } from './town-page.ts';

const points = (values: number[]) =>
  values.map((dataValue, index) => ({ dataValue, timePeriodEnd: `2025-${String(index + 1).padStart(2, '0')}-28` }));

describe('priceChartBars', () => {
  it('keeps the last 12 points', () => {
    expect(priceChartBars(points(Array.from({ length: 24 }, (_, index) => 500 + index)))).toHaveLength(12);
  });

  it('clamps heights to 10-60 px, in one colour: bars carry no tone (minor 16)', () => {
    const bars = priceChartBars(points([100, 150, 200, 151, 149]));
    expect(bars.map((bar) => bar.heightPx)).toEqual([10, 35, 60, 36, 35]);
    expect(bars.every((bar) => !('tone' in bar))).toBe(true);
  });

  it('draws a flat series at full height', () => {
    expect(priceChartBars(points([300, 300])).map((bar) => bar.heightPx)).toEqual([60, 60]);
  });
});

describe('priceTrendSummary', () => {
  it('says in words where the value went and its lowest and highest month', () => {
    expect(priceTrendSummary(points([600_000, 590_000, 612_000, 630_000]))).toBe(
      'From January 2025 to April 2025 the typical home value rose 5%, from $600,000 to $630,000. ' +
        'Lowest $590,000 (February 2025), highest $630,000 (April 2025).',
    );
    expect(priceTrendSummary(points([500_000, 480_000]))).toBe(
      'From January 2025 to February 2025 the typical home value fell 4%, from $500,000 to $480,000. ' +
        'Lowest $480,000 (February 2025), highest $500,000 (January 2025).',
    );
  });

  it('says a flat series is flat, and nothing without data', () => {
    expect(priceTrendSummary(points([300_000, 300_000]))).toBe(
      'From January 2025 to February 2025 the typical home value stayed at about $300,000.',
    );
    expect(priceTrendSummary([])).toBe('');
  });
});

describe('priceChartRange', () => {
  it('is the lowest and highest of the charted 12 months, for the axis labels', () => {
    const values = [100, ...Array.from({ length: 12 }, (_, index) => 612_000 + index * 8_000)];
    const range = priceChartRange(points(values));
    expect(range).toEqual({ min: 612_000, max: 700_000 });
    expect([formatPriceShort(700_000), formatPriceShort(1_207_893)]).toEqual(['$700K', '$1.21M']);
    expect(priceChartRange([])).toBeNull();
  });
});
