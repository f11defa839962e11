/**
 * The abuse limits of the public lead and e-mail routes (POST /api/leads, POST
 * /api/email/send-estimate and the unsubscribe routes), counted in the rate_limits table like the
 * account limits. Per-IP limits apply only to clients that have an address of their own (see
 * isLocalClient); the per-e-mail and per-recipient limits hold from any network position.
 */
import { rateCheck, type RateCheck, type RateLimit } from '../../../platform/rate-limit.server.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const LEAD_LIMITS = {
  leadsPerIpShort: { limit: 10, windowSeconds: 10 * MINUTE },
  leadsPerIpHour: { limit: 30, windowSeconds: HOUR },
  sendEstimatePerIp: { limit: 10, windowSeconds: HOUR },
  sendEstimatePerEstimate: { limit: 3, windowSeconds: HOUR },
  /** Estimate e-mails to one address, from send-estimate and from agent-page leads together. */
  estimateEmailsPerRecipient: { limit: 5, windowSeconds: HOUR },
  /**
   * New-lead notices to one agent address; beyond it leads are still saved, unannounced. The limit
   * is LEAD_NOTICES_PER_HOUR (default 20, see src/platform/env.ts).
   */
  noticesPerAgentAddress: { limit: 20, windowSeconds: HOUR },
  /**
   * Unsubscribe and its Undo together. Mail providers send RFC 8058 one-click posts from a few
   * shared addresses of their own, so this is far above what one person clicks: it only stops a
   * script. The tokens cannot be forged, so a flood could only repeat real ones.
   */
  unsubscribePerIp: { limit: 120, windowSeconds: HOUR },
} as const satisfies Record<string, RateLimit>;

/** A repeat of a lead (same e-mail, same agent) this soon after it is the same lead. */
export const DUPLICATE_LEAD_MINUTES = 10;
/** send-estimate mails only a visitor whose lead for that estimate is at most this old. */
export const SEND_ESTIMATE_LEAD_MINUTES = 30;

/** The counter of estimate e-mails to `email` (case-insensitive), shared by both routes. */
export const estimateEmailCheck = (email: string): RateCheck =>
  rateCheck(LEAD_LIMITS.estimateEmailsPerRecipient, `estimate-email:to:${email.toLowerCase()}`);

/** The counter of new-lead notices to an agent's address, at most `perHour` an hour. */
export const noticeCheck = (agentEmail: string, perHour: number): RateCheck =>
  rateCheck({ ...LEAD_LIMITS.noticesPerAgentAddress, limit: perHour }, `lead-notice:to:${agentEmail.toLowerCase()}`);
