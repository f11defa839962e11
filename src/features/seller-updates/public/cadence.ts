/**
 * How often a subscribed seller hears from us (decision 0056): monthly while they click, quarterly
 * after three updates without a click, none after six; a click brings them back to monthly.
 * Opens are not counted: mail clients fetch images on their own, so an open says nothing.
 */

export const MONTHLY_DAYS = 30;
export const QUARTERLY_DAYS = 90;
/** Updates without a click after which the cadence slows to quarterly. */
export const SLOW_AFTER = 3;
/** Updates without a click after which nothing more is sent until the seller clicks. */
export const STOP_AFTER = 6;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days until the next update after one that leaves `sinceClick` updates without a click; null: none. */
export function daysUntilNext(sinceClick: number): number | null {
  if (sinceClick >= STOP_AFTER) return null;
  return sinceClick >= SLOW_AFTER ? QUARTERLY_DAYS : MONTHLY_DAYS;
}

/** When the next update is due after one sent at `sentAt` that leaves `sinceClick` without a click. */
export function nextDueAfter(sentAt: Date, sinceClick: number): Date | null {
  const days = daysUntilNext(sinceClick);
  return days === null ? null : new Date(sentAt.getTime() + days * DAY_MS);
}

/**
 * When the next update is due once the seller clicked at `clickedAt`: monthly from their last
 * update (or from confirming, before any), never before the click itself.
 */
export function nextDueAfterClick(lastSentOrConfirmedAt: Date, clickedAt: Date): Date {
  const monthly = lastSentOrConfirmedAt.getTime() + MONTHLY_DAYS * DAY_MS;
  return new Date(Math.max(monthly, clickedAt.getTime()));
}

/** The SQL twin of daysUntilNext, for statements that move next_due_at (a test holds them together). */
export const NEXT_DUE_SQL = (sentAt: string, sinceClick: string): string =>
  `CASE WHEN ${sinceClick} >= ${STOP_AFTER} THEN NULL
        WHEN ${sinceClick} >= ${SLOW_AFTER} THEN ${sentAt} + interval '${QUARTERLY_DAYS} days'
        ELSE ${sentAt} + interval '${MONTHLY_DAYS} days' END`;
