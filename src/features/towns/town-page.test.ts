import { describe, expect, it } from 'vitest';
import { formatPriceShort } from '../../ui/money.ts';
import { priceChartBars, priceChartRange } from './town-page.ts';

const points = (values: number[]) =>
  values.map((dataValue, index) => ({ dataValue, timePeriodEnd: `2025-${String(index + 1).padStart(2, '0')}-28` }));

describe('priceChartBars', () => {
  it('keeps the last 12 points', () => {
    expect(priceChartBars(points(Array.from({ length: 24 }, (_, index) => 500 + index)))).toHaveLength(12);
  });

  it('colours by the mean of the extremes with a 1% band and clamps heights to 10-60 px', () => {
    const bars = priceChartBars(points([100, 150, 200, 151, 149]));
    expect(bars.map((bar) => bar.tone)).toEqual(['down', 'flat', 'up', 'flat', 'flat']);
    expect(bars.map((bar) => bar.heightPx)).toEqual([10, 35, 60, 36, 35]);
  });

  it('draws a flat series at full height in blue', () => {
    expect(priceChartBars(points([300, 300]))).toEqual([
      expect.objectContaining({ tone: 'flat', heightPx: 60 }),
      expect.objectContaining({ tone: 'flat', heightPx: 60 }),
    ]);
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
