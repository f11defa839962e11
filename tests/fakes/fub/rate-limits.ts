/**
 * The fake Follow Up Boss's rate limits: a sliding 10-second window per account and context, the
 * default limits (higher for a registered system), and the X-RateLimit-* headers and Retry-After.
 */
import type { FubRateContext } from './model.ts';

export const WINDOW_SECONDS = 10;

const DEFAULT_LIMITS: Record<FubRateContext, { registered: number | null; unregistered: number | null }> = {
  'POST.events': { registered: null, unregistered: null },
  events: { registered: 20, unregistered: 10 },
  global: { registered: 250, unregistered: 125 },
};

export interface FubRateLimits {
  /** The limit of a context per window (null: unlimited). */
  limitOf(context: FubRateContext, isRegistered: boolean): number | null;
  setLimit(context: FubRateContext, limit: number | null, who?: 'registered' | 'unregistered'): void;
  /** Counts the request in its window; the headers to answer with, and whether it may proceed. */
  count(
    key: string,
    context: FubRateContext,
    isRegistered: boolean,
  ): { allowed: boolean; headers: Record<string, string> };
  /** Forgets the windows and restores the default limits. */
  reset(): void;
}

export function fubRateLimits(): FubRateLimits {
  /** `${apiKey} ${context}` → times (ms) of the requests counted in the window. */
  const windows = new Map<string, number[]>();
  let limits = structuredClone(DEFAULT_LIMITS);

  function countRequest(
    key: string,
    context: FubRateContext,
    isRegistered: boolean,
  ): { allowed: boolean; headers: Record<string, string> } {
    const headers: Record<string, string> = {
      'x-ratelimit-window': String(WINDOW_SECONDS),
      'x-ratelimit-context': context,
    };
    const limit = limits[context][isRegistered ? 'registered' : 'unregistered'];
    if (limit === null) return { allowed: true, headers };
    const now = Date.now();
    const times = (windows.get(`${key} ${context}`) ?? []).filter((time) => time > now - WINDOW_SECONDS * 1000);
    windows.set(`${key} ${context}`, times);
    headers['x-ratelimit-limit'] = String(limit);
    const oldest = times[0];
    if (times.length >= limit && oldest !== undefined) {
      const wait = Math.max(1, Math.ceil((oldest + WINDOW_SECONDS * 1000 - now) / 1000));
      return { allowed: false, headers: { ...headers, 'x-ratelimit-remaining': '0', 'retry-after': String(wait) } };
    }
    times.push(now);
    return { allowed: true, headers: { ...headers, 'x-ratelimit-remaining': String(limit - times.length) } };
  }

  return {
    limitOf: (context, isRegistered) => limits[context][isRegistered ? 'registered' : 'unregistered'],
    setLimit(context, limit, who) {
      if (who !== 'unregistered') limits[context].registered = limit;
      if (who !== 'registered') limits[context].unregistered = limit;
    },
    count: countRequest,
    reset() {
      windows.clear();
      limits = structuredClone(DEFAULT_LIMITS);
    },
  };
}
