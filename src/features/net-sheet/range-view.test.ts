import { describe, expect, it } from 'vitest';
import { CHART, chartGeometry, currentPointIndex, phoneRowIndexes, type RangePoint } from './range-view.ts';

const points = (nets: number[]): RangePoint[] =>
  nets.map((net, index) => ({ sale_price: 700_000 + index * 10_000, net_to_seller: net }));

describe('currentPointIndex', () => {
  it('finds the point at the estimate’s price, or the nearest one when the price had cents', () => {
    const range = points([1, 2, 3, 4, 5]);
    expect(currentPointIndex(range, 720_000)).toBe(2);
    expect(currentPointIndex(range, 729_999.5)).toBe(3);
    expect(currentPointIndex(range, 1)).toBe(0);
  });
});

describe('phoneRowIndexes', () => {
  it('keeps every 4th of 41 points, both ends and the middle: 11 rows', () => {
    const rows = phoneRowIndexes(41, 20);
    expect([...rows].sort((a, b) => a - b)).toEqual([0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40]);
  });

  it('adds the seller’s row and the top end when the steps miss them', () => {
    expect([...phoneRowIndexes(11, 5)].sort((a, b) => a - b)).toEqual([0, 4, 5, 8, 10]);
  });
});

describe('chartGeometry', () => {
  it('puts the lowest price at the plot’s left, the highest at its right, and the nets top to bottom', () => {
    const chart = chartGeometry(points([100, 300, 200]));
    expect(chart.x(0)).toBe(CHART.left);
    expect(chart.x(2)).toBe(100 - CHART.right);
    expect(chart.y(300)).toBe(CHART.top);
    expect(chart.y(100)).toBe(CHART.height - CHART.bottom);
    expect(chart.y(200)).toBe(CHART.top + (CHART.height - CHART.top - CHART.bottom) / 2);
    expect(chart.line).toBe('0,156 50,0 100,78');
    expect([chart.lowNet, chart.highNet]).toEqual([100, 300]);
  });

  it('draws a flat range through the middle instead of dividing by zero', () => {
    const chart = chartGeometry(points([5, 5]));
    expect(chart.line).toBe('0,78 100,78');
    expect(chart.y(5)).toBe(CHART.top + 78);
  });
});
