/** The sync controls' contract, shared by the leads screen and the server. */
import * as z from 'zod/mini';
import { recordId } from '../../forms/public/record-id.ts';

export const MAX_SYNC_LEADS = 100;

export const leadSyncRequestSchema = z.object({
  lead_ids: z
    .array(
      recordId({
        type: 'Each lead id must be a number',
        whole: 'Each lead id must be a whole number',
        min: 'Each lead id must be at least 1',
        max: 'Each lead id must be a lead id',
      }),
      {
        error: 'Choose the leads to sync',
      },
    )
    .check(
      z.minLength(1, 'Choose the leads to sync'),
      z.maxLength(MAX_SYNC_LEADS, `Sync at most ${MAX_SYNC_LEADS} leads at a time`),
    ),
});

/** Where one lead stands after a sync request. `waiting`: queued, retried by the scheduled run. */
export const leadSyncResultSchema = z.object({
  lead_id: z.number(),
  status: z.enum(['synced', 'waiting', 'ignored', 'stopped', 'rejected']),
  error: z.nullable(z.string()),
});
export type LeadSyncResult = z.infer<typeof leadSyncResultSchema>;

export const leadSyncAnswerSchema = z.object({
  success: z.literal(true),
  synced: z.number(),
  results: z.array(leadSyncResultSchema),
});

/** A lead's sync job and every call made for it, newest first. */
export const leadSyncSchema = z.object({
  status: z.enum(['queued', 'sending', 'synced', 'ignored', 'stopped', 'rejected']),
  attempts: z.number(),
  next_attempt_at: z.string(),
  person_id: z.nullable(z.number()),
  last_error: z.nullable(z.string()),
  history: z.array(
    z.object({
      at: z.string(),
      outcome: z.string(),
      http_status: z.nullable(z.number()),
      error: z.nullable(z.string()),
      duration_ms: z.number(),
    }),
  ),
});
export type LeadSync = z.infer<typeof leadSyncSchema>;

/** The spec's messages for the sync controls. */
export function syncMessage(requested: number, synced: number): { ok: boolean; text: string } {
  if (synced === requested) {
    return {
      ok: true,
      text:
        requested === 1
          ? 'Lead synced to Follow Up Boss successfully!'
          : `${synced} leads synced to Follow Up Boss successfully!`,
    };
  }
  return { ok: false, text: requested === 1 ? 'Failed to sync lead' : 'Failed to sync leads' };
}
