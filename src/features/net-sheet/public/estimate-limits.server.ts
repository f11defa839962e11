/**
 * Per-IP limits of the public routes that store estimates and offer comparisons (quick, detailed
 * and reverse estimates share one counter: each stores an estimate). They apply only to clients with
 * an address of their own (see isLocalClient), and are sized for a real office behind one address:
 * 20 agents each showing a seller about 30 estimates an hour is 600, a busy afternoon of demos.
 * A script is held to 14,400 stored estimates a day per address.
 */
import type { RateLimit } from '../../../platform/rate-limit.server.ts';

const HOUR = 60 * 60;

export const ESTIMATE_LIMITS = {
  estimatesPerIp: { limit: 600, windowSeconds: HOUR },
  /** Comparing offers is a deliberate step after an estimate: a fifth of the estimates' allowance. */
  offersPerIp: { limit: 120, windowSeconds: HOUR },
  /**
   * GET /api/estimates/{uuid}/pdf (finding 4 of the 2026-11-26 audit): each download reads up to
   * 300 KB and a new version costs a render. An office opening its sheets is far below 300 an hour.
   */
  pdfsPerIp: { limit: 300, windowSeconds: HOUR },
} as const satisfies Record<string, RateLimit>;
