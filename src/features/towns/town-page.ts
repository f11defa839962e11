import * as z from 'zod';

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

export type BarTone = 'up' | 'down' | 'flat';

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
 * The 12-month price chart: the last 12 points; a bar is green ("up") when its value is more than
 * 1% above the mean of the range's extremes, red ("down") when more than 1% below, blue otherwise;
 * heights scale between 10 and 60 px.
 */
export function priceChartBars(points: ZhviPoint[]): { point: ZhviPoint; tone: BarTone; heightPx: number }[] {
  const range = priceChartRange(points);
  if (!range) return [];
  const { min, max } = range;
  const midpoint = (min + max) / 2;
  const span = CHART_HEIGHT_PX - SHORTEST_BAR_PX;
  return chartPoints(points).map((point) => {
    const tone: BarTone =
      point.dataValue > midpoint * 1.01 ? 'up' : point.dataValue < midpoint * 0.99 ? 'down' : 'flat';
    const share = max === min ? 1 : (point.dataValue - min) / (max - min);
    const heightPx = Math.round(Math.min(CHART_HEIGHT_PX, Math.max(SHORTEST_BAR_PX, SHORTEST_BAR_PX + share * span)));
    return { point, tone, heightPx };
  });
}
