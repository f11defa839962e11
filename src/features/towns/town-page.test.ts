import { describe, expect, it } from 'vitest';
import { priceChartBars } from './town-page.ts';

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
