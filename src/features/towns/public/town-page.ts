import * as z from 'zod';
import { formatPrice } from '../../../ui/money.ts';

/** A town as its page shows it: the town, its market data and recent sales (from the database). */
export interface TownPageData {
  slug: string;
  name: string;
  county: 'Nassau' | 'Suffolk';
  region: 'Hamptons' | 'North Shore' | null;
  zipCodes: string[];
  latitude: number;
  longitude: number;
  population: number | null;
  metaTitle: string;
  metaDescription: string;
  h1Title: string;
  description: string;
  uniqueFacts: string[];
  landmarks: string[];
  medianHomePrice: number | null;
  market: TownMarket | null;
  recentSales: RecentSale[];
}

export const zhviPointSchema = z.object({ dataValue: z.number(), timePeriodEnd: z.string() });
export type ZhviPoint = z.infer<typeof zhviPointSchema>;

export interface TownMarket {
  typicalHomeValue: number | null;
  forSaleInventory: number | null;
  description: string | null;
  searchUrl: string | null;
  lastUpdated: string;
  zhviRange: ZhviPoint[];
  /** Imported from the shipped sample files (local demo data), not real market figures. */
  sample: boolean;
}

export interface RecentSale {
  address: string;
  beds: number | null;
  baths: number | null;
  sqft: number | null;
  soldDate: string;
  listingAgent: string | null;
  listingOffice: string | null;
  price: number | null;
  propertyType: string | null;
  /** From the shipped sample files (local demo data), not a real sale. */
  sample: boolean;
}

/** The chart's height; the lowest value of the range gets the shortest bar, not zero height. */
export const CHART_HEIGHT_PX = 60;
export const SHORTEST_BAR_PX = 10;

/** The points the chart shows: the last 12. */
const chartPoints = (points: ZhviPoint[]): ZhviPoint[] => points.slice(-12);

/**
 * The lowest and highest value the chart shows, for its axis: the bars start at `min`, not at $0,
 * so the page has to say where they start.
 */
export function priceChartRange(points: ZhviPoint[]): { min: number; max: number } | null {
  const values = chartPoints(points).map((point) => point.dataValue);
  return values.length === 0 ? null : { min: Math.min(...values), max: Math.max(...values) };
}

/**
 * The 12-month price chart: the last 12 points, heights scaled between 10 and 60 px. One colour for
 * every bar: the height is the value (green, blue and red bars with no legend read as good and bad;
 * newcomer audit minor 16).
 */
export function priceChartBars(points: ZhviPoint[]): { point: ZhviPoint; heightPx: number }[] {
  const range = priceChartRange(points);
  if (!range) return [];
  const { min, max } = range;
  const span = CHART_HEIGHT_PX - SHORTEST_BAR_PX;
  return chartPoints(points).map((point) => {
    const share = max === min ? 1 : (point.dataValue - min) / (max - min);
    const heightPx = Math.round(Math.min(CHART_HEIGHT_PX, Math.max(SHORTEST_BAR_PX, SHORTEST_BAR_PX + share * span)));
    return { point, heightPx };
  });
}

const monthYear = (isoDate: string) =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The chart in one sentence, for every reader (the bars are hidden from screen readers): where the
 * value went over the charted months, by how much, and its lowest and highest month.
 */
export function priceTrendSummary(points: ZhviPoint[]): string {
  const shown = chartPoints(points);
  const first = shown[0];
  const last = shown.at(-1);
  if (!first || !last) return '';
  const change = first.dataValue === 0 ? 0 : ((last.dataValue - first.dataValue) / first.dataValue) * 100;
  const rounded = Math.round(Math.abs(change) * 10) / 10;
  const direction =
    rounded === 0
      ? `stayed at about ${formatPrice(last.dataValue)}`
      : `${change > 0 ? 'rose' : 'fell'} ${rounded}%, from ${formatPrice(first.dataValue)} to ${formatPrice(last.dataValue)}`;
  const lowest = shown.reduce((low, point) => (point.dataValue < low.dataValue ? point : low));
  const highest = shown.reduce((high, point) => (point.dataValue > high.dataValue ? point : high));
  const extremes =
    lowest.dataValue === highest.dataValue
      ? ''
      : ` Lowest ${formatPrice(lowest.dataValue)} (${monthYear(lowest.timePeriodEnd)}), highest ${formatPrice(highest.dataValue)} (${monthYear(highest.timePeriodEnd)}).`;
  return `From ${monthYear(first.timePeriodEnd)} to ${monthYear(last.timePeriodEnd)} the typical home value ${direction}.${extremes}`;
}
