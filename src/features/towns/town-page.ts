import { z } from 'zod';

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
}

export type BarTone = 'up' | 'down' | 'flat';

/**
 * The 12-month price chart: the last 12 points; a bar is green ("up") when its value is more than
 * 1% above the mean of the range's extremes, red ("down") when more than 1% below, blue otherwise;
 * heights scale between 10 and 60 px.
 */
export function priceChartBars(points: ZhviPoint[]): { point: ZhviPoint; tone: BarTone; heightPx: number }[] {
  const last = points.slice(-12);
  if (last.length === 0) return [];
  const values = last.map((point) => point.dataValue);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const midpoint = (min + max) / 2;
  return last.map((point) => {
    const tone: BarTone =
      point.dataValue > midpoint * 1.01 ? 'up' : point.dataValue < midpoint * 0.99 ? 'down' : 'flat';
    const share = max === min ? 1 : (point.dataValue - min) / (max - min);
    return { point, tone, heightPx: Math.round(Math.min(60, Math.max(10, 10 + share * 50))) };
  });
}
