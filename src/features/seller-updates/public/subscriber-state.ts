/**
 * A subscription's state as the agent's screens name it (/dashboard/leads, /dashboard/updates): the
 * stored state (pending, subscribed, paused, unsubscribed) with a subscribed seller's cadence read
 * off updates_since_click (cadence.ts), and whether the seller is "active" (decision 0056: two
 * followed links within 14 days, a re-run, a higher net asked for) recently enough to show.
 */
import * as z from 'zod/mini';
import { daysUntilNext, QUARTERLY_DAYS } from './cadence.ts';

export const SUBSCRIBER_STATES = ['pending', 'monthly', 'quarterly', 'stopped', 'paused', 'unsubscribed'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

export const SUBSCRIBER_STATE_LABELS: Readonly<Record<SubscriberState, string>> = {
  pending: 'Pending',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  stopped: 'Stopped (cold)',
  paused: 'Paused',
  unsubscribed: 'Unsubscribed',
};

/** What each state means, for the agent (the subscribers table's legend). */
export const SUBSCRIBER_STATE_HELP: Readonly<Record<SubscriberState, string>> = {
  pending: 'asked for updates, has not confirmed yet',
  monthly: 'an update every 30 days',
  quarterly: `an update every ${QUARTERLY_DAYS} days after three without a click`,
  stopped: 'six updates without a click: none until they click one',
  paused: 'you paused them',
  unsubscribed: 'they unsubscribed',
};

/** A lead's seller is shown "Active" for this many days after they last became active. */
export const ACTIVE_SHOWN_DAYS = 30;

/**
 * SQL: the moment `activeAt` (a seller_updates.active_at) when within ACTIVE_SHOWN_DAYS of now,
 * else NULL. The server decides, so the list, its filter and its CSV agree whatever the browser's clock.
 */
export const recentActiveSql = (activeAt: string): string =>
  `CASE WHEN ${activeAt} >= now() - interval '${ACTIVE_SHOWN_DAYS} days' THEN ${activeAt} END`;

/** SQL: the seller of `subscription` (a seller_updates alias) was active within ACTIVE_SHOWN_DAYS. */
export const activeRecentlySql = (subscription: string): string =>
  `${subscription}.active_at >= now() - interval '${ACTIVE_SHOWN_DAYS} days'`;

const STORED_STATES = ['pending', 'subscribed', 'paused', 'unsubscribed'] as const;
export type StoredState = (typeof STORED_STATES)[number];

export const isStoredState = (value: unknown): value is StoredState => STORED_STATES.some((state) => state === value);

/** The screens' state of a subscription: a subscribed one by its cadence (none after six without a click: cold). */
export function subscriberState(state: StoredState, updatesSinceClick: number): SubscriberState {
  if (state !== 'subscribed') return state;
  const days = daysUntilNext(updatesSinceClick);
  if (days === null) return 'stopped';
  return days === QUARTERLY_DAYS ? 'quarterly' : 'monthly';
}

/** A lead's updates as its list row carries them: the state, and when it became active (recently) or null. */
export const leadUpdatesSchema = z.object({
  state: z.enum(SUBSCRIBER_STATES),
  active_at: z.nullable(z.string()),
});
export type LeadUpdates = z.output<typeof leadUpdatesSchema>;
