/**
 * The value model of a seller update (decision 0056), pure: the estimate's price moved by the change
 * of a home-value index (Zillow's ZHVI, monthly) between the estimate's day and the run's day.
 *
 * - The index's point for a day is its latest point ending on or before that day.
 * - The town's own series when it covers both days; else the county's move: the median, over the
 *   county's towns whose series cover both days, of each town's now / then (a median, so one
 *   town's odd month cannot swing every seller of the county).
 * - The price is rounded to $100: an index is not precise to the dollar, and a figure that changes
 *   by cents from month to month would read as noise.
 */
import type { ZhviPoint } from '../towns/public/town-page.ts';

export type IndexSource = 'town' | 'county';

export interface IndexSeries {
  /** The town's series (oldest first), or null when the town has none. */
  town: readonly ZhviPoint[] | null;
  /** The series of every town of the county (the seller's own included), for the fallback. */
  county: readonly (readonly ZhviPoint[])[];
}

export type Repricing =
  | { ok: true; priceCents: number; source: IndexSource; ratio: number; basePeriod: string; nowPeriod: string }
  | { ok: false; reason: 'no_market_data' };

/** Prices are told to the nearest $100. */
export const PRICE_STEP_CENTS = 100_00;

/** The series' point for `day` (YYYY-MM-DD): its latest one ending on or before it. */
export function pointOn(series: readonly ZhviPoint[], day: string): ZhviPoint | undefined {
  let found: ZhviPoint | undefined;
  for (const point of series) {
    if (point.timePeriodEnd <= day && point.dataValue > 0 && (!found || point.timePeriodEnd > found.timePeriodEnd)) {
      found = point;
    }
  }
  return found;
}

/** now / then of a series between two days, with the periods used; undefined when it does not cover both. */
function moveOf(series: readonly ZhviPoint[], baseDay: string, asOfDay: string) {
  const base = pointOn(series, baseDay);
  const now = pointOn(series, asOfDay);
  if (!base || !now) return undefined;
  return { ratio: now.dataValue / base.dataValue, basePeriod: base.timePeriodEnd, nowPeriod: now.timePeriodEnd };
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle];
  const lower = sorted[middle - 1];
  if (upper === undefined) return undefined;
  return sorted.length % 2 === 1 || lower === undefined ? upper : (lower + upper) / 2;
}

/** A price in cents, rounded half up to PRICE_STEP_CENTS. */
export const roundPrice = (cents: number): number => Math.round(cents / PRICE_STEP_CENTS) * PRICE_STEP_CENTS;

/** The estimate's price at `asOfDay`, moved by the town's index, else the county's. */
export function reprice(basePriceCents: number, baseDay: string, asOfDay: string, index: IndexSeries): Repricing {
  const town = index.town ? moveOf(index.town, baseDay, asOfDay) : undefined;
  if (town) return { ok: true, priceCents: roundPrice(basePriceCents * town.ratio), source: 'town', ...town };
  const moves = index.county.flatMap((series) => moveOf(series, baseDay, asOfDay) ?? []);
  const ratio = median(moves.map((move) => move.ratio));
  if (ratio === undefined) return { ok: false, reason: 'no_market_data' };
  // The periods named are the latest any town of the county had on each day.
  const basePeriod =
    moves
      .map((move) => move.basePeriod)
      .sort()
      .at(-1) ?? baseDay;
  const nowPeriod =
    moves
      .map((move) => move.nowPeriod)
      .sort()
      .at(-1) ?? asOfDay;
  return { ok: true, priceCents: roundPrice(basePriceCents * ratio), source: 'county', ratio, basePeriod, nowPeriod };
}

/**
 * The market's direction in one sentence, from the index's last three months (to `asOfDay`):
 * "Home values in Massapequa rose 1.2% over the last three months." Under 0.1% either way, "held
 * steady". Null when the series does not reach three months back.
 */
export function marketDirection(placeName: string, series: readonly ZhviPoint[], asOfDay: string): string | null {
  const now = pointOn(series, asOfDay);
  if (!now) return null;
  const then = pointOn(series, threeMonthsBefore(now.timePeriodEnd));
  if (!then || then.timePeriodEnd === now.timePeriodEnd) return null;
  const percent = ((now.dataValue - then.dataValue) / then.dataValue) * 100;
  if (Math.abs(percent) < 0.1) return `Home values in ${placeName} held steady over the last three months.`;
  return `Home values in ${placeName} ${percent > 0 ? 'rose' : 'fell'} ${Math.abs(percent).toFixed(1)}% over the last three months.`;
}

/** The last day of the month three months before the month of `day` (month ends, as ZHVI's periods are). */
export function threeMonthsBefore(day: string): string {
  const [year = 0, month = 1] = day.split('-').map(Number);
  // Day 0 of a month is the last day of the month before it.
  const end = new Date(Date.UTC(year, month - 3, 0));
  return end.toISOString().slice(0, 10);
}
