/**
 * A lead's timeline as the admin's leads screen shows it (GET /api/admin/leads/{id}/timeline): when
 * it came in, each e-mail about it queued, sent or failed (email_deliveries) and each call to Follow
 * Up Boss for it (crm_sync_attempts), oldest first.
 */
import * as z from 'zod/mini';

export const TIMELINE_EVENT_KINDS = [
  'created',
  'email_queued',
  'email_sent',
  'email_failed',
  'email_suppressed',
  'crm_attempt',
] as const;

export const timelineEventSchema = z.object({
  kind: z.enum(TIMELINE_EVENT_KINDS),
  /**
   * When it happened; null for an e-mail that failed or was suppressed, whose moment is not recorded
   * (it is listed after the e-mail was queued).
   */
  at: z.nullable(z.string()),
  /** The e-mail's subject and addressee, or the CRM call's outcome and HTTP status. */
  detail: z.nullable(z.string()),
  error: z.nullable(z.string()),
});

export type TimelineEvent = z.output<typeof timelineEventSchema>;

export const leadTimelineResponseSchema = z.object({
  success: z.literal(true),
  lead: z.object({ id: z.number(), name: z.string(), email: z.string(), agent_name: z.string() }),
  events: z.array(timelineEventSchema),
});

export type LeadTimelineResponse = z.output<typeof leadTimelineResponseSchema>;
