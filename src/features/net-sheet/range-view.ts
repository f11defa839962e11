/** What the price-range panel (RangePanel.tsx) draws and lists, as pure functions of the answer. */

export interface RangePoint {
  sale_price: number;
  net_to_seller: number;
}

/** The ranges a seller may pick, in percent either side of their price. */
export const RANGE_PERCENTS = [5, 10, 20] as const;
export type RangePercent = (typeof RANGE_PERCENTS)[number];
/** The range the panel shows first (and the page is rendered with). */
export const FIRST_RANGE_PERCENT: RangePercent = 10;

/** The point nearest the estimate's price (the range is centred on it, in whole dollars). */
export function currentPointIndex(points: readonly RangePoint[], salePrice: number): number {
  let best = 0;
  points.forEach((point, index) => {
    const bestPoint = points[best];
    if (bestPoint && Math.abs(point.sale_price - salePrice) < Math.abs(bestPoint.sale_price - salePrice)) best = index;
  });
  return best;
}

/**
 * The rows a phone shows before "show all": every `every`-th point from the lowest, the highest and
 * the seller's own price, so the short table still spans the whole range and holds their row.
 */
export function phoneRowIndexes(count: number, current: number, every = 4): Set<number> {
  const picked = new Set<number>();
  for (let index = 0; index < count; index += every) picked.add(index);
  if (count > 0) picked.add(count - 1);
  picked.add(current);
  return picked;
}

/** The chart's frame: pixels vertically, percent of the width horizontally (see RangePanel). */
export const CHART = { height: 200, top: 14, bottom: 30, left: 14, right: 4 } as const;
const PLOT_HEIGHT = CHART.height - CHART.top - CHART.bottom;
const PLOT_WIDTH = 100 - CHART.left - CHART.right;

/**
 * Where each point sits: `x` in percent of the chart's width, `y` in pixels from its top, the highest
 * net at the plot's top and the lowest at its bottom (a flat range is drawn through the middle).
 * `line` is the polyline in a plot-sized box 100 wide, stretched to the plot's width by the SVG.
 */
export function chartGeometry(points: readonly RangePoint[]) {
  const nets = points.map((point) => point.net_to_seller);
  const low = Math.min(...nets);
  const high = Math.max(...nets);
  const span = high - low;
  const plotY = (net: number) => (span === 0 ? PLOT_HEIGHT / 2 : ((high - net) / span) * PLOT_HEIGHT);
  const plotX = (index: number) => (points.length < 2 ? 50 : (index / (points.length - 1)) * 100);
  return {
    lowNet: low,
    highNet: high,
    x: (index: number) => CHART.left + (plotX(index) * PLOT_WIDTH) / 100,
    y: (net: number) => CHART.top + plotY(net),
    line: points.map((point, index) => `${round(plotX(index))},${round(plotY(point.net_to_seller))}`).join(' '),
    plot: { x: CHART.left, y: CHART.top, width: PLOT_WIDTH, height: PLOT_HEIGHT },
  };
}

const round = (value: number) => Math.round(value * 100) / 100;
