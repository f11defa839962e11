import type { FubClient } from './fub-client.server.ts';

/** What a deploy preview says instead of calling Follow Up Boss (decision 0030). */
export const PREVIEW_FUB_MESSAGE =
  'Not sent: a deploy preview never calls Follow Up Boss (its database may hold copies of real keys); the live site does.';

/**
 * The Follow Up Boss client of a deploy preview or branch deploy: it makes no request. A lead's sync
 * is recorded as rejected with the reason (never retried, visible in the lead's sync history), and a
 * key being saved is refused with the same words, whatever keys the preview's database holds.
 */
export const previewFubClient = (): FubClient => ({
  identity: () =>
    Promise.resolve({ ok: false, answer: { kind: 'rejected', status: null, message: PREVIEW_FUB_MESSAGE } }),
  sendEvent: () => Promise.resolve({ kind: 'rejected', status: null, message: PREVIEW_FUB_MESSAGE }),
  findEvent: () => Promise.resolve({ kind: 'missing' }),
});
