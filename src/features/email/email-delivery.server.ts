/** Delivering the queued e-mail: claiming due rows, sending each through the provider, and settling it (sent, retried later, or failed) in one statement per batch. */
import { DatabaseUnavailable, type Queryable } from '../../platform/db.ts';
import { WorkersBusy } from '../../platform/workers-busy.server.ts';
import { withUnsubscribeFooter } from './unsubscribe-footer.ts';
import {
  CLAIM_LEASE_MINUTES,
  type EmailAddress,
  type EmailAttachment,
  type EmailKind,
  EmailNotConfigured,
  type EmailProvider,
  MAX_ATTEMPTS,
  MAX_BACKOFF_MINUTES,
  MAX_ERROR_LENGTH,
  MAX_RETRY_AFTER_SECONDS,
  NOTICE_KINDS,
  NotSentYet,
  ProviderError,
  type UnsubscribeLinks,
} from './public/email.server.ts';

export interface DeliverOptions {
  /** The sender of every message. */
  from: EmailAddress;
  /**
   * Each recipient's unsubscribe links. They are added when a message is sent, not when it is
   * queued: the links need only the address, the site's origin and the key, all known here, so
   * the code that queues mail (leads, estimates, accounts) does not change, every message gets
   * them whoever queued it, and the stored template output stays the same.
   */
  unsubscribe: UnsubscribeLinks;
  /** Only these deliveries (still queued and due); default: any that are due. */
  ids?: readonly number[];
  /** The time to deliver as of (tests); default: the database's clock. */
  now?: Date;
  /** Most rows claimed in one call. Default 50. */
  limit?: number;
  /**
   * The files a message carries, made when it is sent rather than stored with the queued row (an
   * estimate's PDF is made from the estimate, which does not change). A message whose attachments
   * cannot be made is sent without them, and the error goes to `attachmentError`: the e-mail is
   * what the recipient asked for and its link leads to the same sheet, while retrying would only
   * delay it behind a fault that is likely to recur. Except when the database is away
   * (DatabaseUnavailable): that passes, and a message sent without its files now and retried with
   * them later is two payloads under one idempotency key, which Resend refuses for good (409
   * invalid_idempotent_request). Such a message is not sent; it waits for the database, and the
   * wait spends none of its attempts.
   */
  attachments?: (delivery: { kind: EmailKind; estimateUuid: string | null }) => Promise<EmailAttachment[]>;
  /** Told of attachments that could not be made (the message went without them). */
  attachmentError?: (error: unknown, deliveryId: number) => void;
}

export interface DeliveryReport {
  sent: number[];
  /** Failed this time; queued again with a later next_attempt_at. */
  retrying: number[];
  /** Failed for the last time (MAX_ATTEMPTS reached, or an error not worth retrying): status 'failed'. */
  failed: number[];
  /** Notices to an address that unsubscribed: status 'suppressed', never handed to the provider. */
  suppressed: number[];
}

export interface ClaimedRow {
  id: number;
  kind: EmailKind;
  estimate_uuid: string | null;
  to_email: string;
  to_name: string | null;
  subject: string;
  html: string;
  text: string;
  attempts: number;
  suppressed: boolean;
}

export type Outcome =
  | { id: number; ok: true; providerMessageId: string }
  | {
      id: number;
      ok: false;
      error: string;
      permanent: boolean;
      retryAfterSeconds: number | null;
      /**
       * Never handed to a provider (the database went away first, or production has none configured):
       * the claim's attempt is given back.
       */
      untried: boolean;
    };

/** How soon a message that was not tried (database away, no provider) is due again (the scheduled run may come later). */
export const DATABASE_WAIT_MINUTES = 1;

export const errorText = (error: unknown): string => {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return (text || 'Unknown error').slice(0, MAX_ERROR_LENGTH);
};

/**
 * What a failed send means for its row: fail now, retry at a given time, back off, or (the
 * database away before the provider was asked) wait for the database without spending an attempt.
 */
export function failure(id: number, error: unknown, untried = false): Outcome {
  const permanent = error instanceof ProviderError && !error.retryable;
  const retryAfter = error instanceof ProviderError && !permanent ? error.retryAfterSeconds : undefined;
  return {
    id,
    ok: false,
    error: errorText(error),
    permanent,
    retryAfterSeconds:
      retryAfter === undefined || !Number.isFinite(retryAfter)
        ? null
        : Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(retryAfter))),
    untried,
  };
}

/**
 * Sends the queued deliveries that are due (or those of `ids` that are). Each row is claimed in
 * one statement (attempts + 1 and a lease on next_attempt_at, rows locked by another worker
 * skipped), so concurrent callers never send the same row. Each row then ends 'sent', 'queued'
 * again (at the provider's Retry-After, else with exponential backoff), or 'failed' after
 * MAX_ATTEMPTS or at once when the provider's error is not retryable (see ProviderError); a message
 * whose attachment could not be made because the database went away is not sent, and is due again
 * in DATABASE_WAIT_MINUTES with its attempt given back (see DeliverOptions.attachments); a notice
 * to an unsubscribed address ends 'suppressed' without being sent. Every message sent carries
 * its recipient's unsubscribe link in the footer and the List-Unsubscribe headers. A
 * provider failure is recorded, never thrown; only a database failure rejects. Round trips: 1 to
 * claim, 1 to record outcomes.
 */
export async function deliverQueued(
  db: Queryable,
  provider: EmailProvider,
  { from, unsubscribe, ids, now, limit = 50, attachments, attachmentError }: DeliverOptions,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: [], retrying: [], failed: [], suppressed: [] };
  if (ids !== undefined && ids.length === 0) return report;
  const at = now ?? null;
  // A notice to an unsubscribed address ends 'suppressed' in the claim itself: no extra round
  // trip, and it also catches notices queued before the address unsubscribed.
  const claimed = await db.query<ClaimedRow>(
    `UPDATE email_deliveries d
        SET status = CASE WHEN c.suppressed THEN 'suppressed' ELSE d.status END,
            attempts = CASE WHEN c.suppressed THEN d.attempts ELSE d.attempts + 1 END,
            next_attempt_at = CASE WHEN c.suppressed THEN d.next_attempt_at
                                   ELSE coalesce($1::timestamptz, now()) + make_interval(mins => $4::integer) END
       FROM (SELECT q.id,
                    q.kind = ANY ($5::text[])
                      AND EXISTS (SELECT 1 FROM email_suppressions s WHERE s.email = lower(q.to_email)) AS suppressed
               FROM email_deliveries q
              WHERE q.status = 'queued'
                AND q.next_attempt_at <= coalesce($1::timestamptz, now())
                AND ($2::integer[] IS NULL OR q.id = ANY ($2::integer[]))
              ORDER BY q.next_attempt_at, q.id
              LIMIT $3
              FOR UPDATE OF q SKIP LOCKED) c
      WHERE d.id = c.id
      RETURNING d.id, d.kind, d.estimate_uuid, d.to_email, d.to_name, d.subject, d.html, d.text, d.attempts, c.suppressed`,
    [at, ids ?? null, limit, CLAIM_LEASE_MINUTES, NOTICE_KINDS],
  );
  const sending = claimed.filter((row) => !row.suppressed);
  report.suppressed.push(...claimed.filter((row) => row.suppressed).map((row) => row.id));
  report.suppressed.sort((a, b) => a - b);
  if (sending.length === 0) return report;

  const filesOf = async (row: ClaimedRow): Promise<EmailAttachment[]> => {
    if (!attachments) return [];
    try {
      return await attachments({ kind: row.kind, estimateUuid: row.estimate_uuid });
    } catch (error) {
      // The database will be back and the workers free; a message sent now without its files would
      // not match its retries (the pool is full when a burst of leads each queue an estimate e-mail).
      if (error instanceof DatabaseUnavailable || error instanceof WorkersBusy) throw new NotSentYet(error);
      attachmentError?.(error, row.id);
      return [];
    }
  };

  const outcomes = await Promise.all(
    sending.map(async (row): Promise<Outcome> => {
      try {
        const files = await filesOf(row);
        const links = unsubscribe(row.to_email);
        const { providerMessageId } = await provider.send({
          deliveryId: row.id,
          from,
          to: { email: row.to_email, name: row.to_name },
          subject: row.subject,
          ...withUnsubscribeFooter({ html: row.html, text: row.text }, links.page),
          headers: {
            'List-Unsubscribe': `<${links.oneClick}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
          ...(files.length > 0 ? { attachments: files } : {}),
        });
        return { id: row.id, ok: true, providerMessageId };
      } catch (error) {
        return failure(row.id, error, error instanceof NotSentYet || error instanceof EmailNotConfigured);
      }
    }),
  );

  const rows = await db.query<{ id: number; status: 'sent' | 'queued' | 'failed' }>(
    `UPDATE email_deliveries d
        SET status = CASE WHEN r.ok THEN 'sent' WHEN r.untried THEN 'queued'
                          WHEN r.permanent OR d.attempts >= $6 THEN 'failed' ELSE 'queued' END,
            attempts = CASE WHEN r.untried THEN d.attempts - 1 ELSE d.attempts END,
            provider = $5,
            provider_message_id = CASE WHEN r.ok THEN r.provider_message_id ELSE d.provider_message_id END,
            sent_at = CASE WHEN r.ok THEN coalesce($7::timestamptz, now()) ELSE d.sent_at END,
            last_error = CASE WHEN r.ok THEN d.last_error ELSE r.error END,
            next_attempt_at = CASE WHEN r.ok THEN d.next_attempt_at
                                   WHEN r.untried THEN coalesce($7::timestamptz, now()) + make_interval(mins => $11::integer)
                                   WHEN r.retry_after IS NOT NULL
                                   THEN coalesce($7::timestamptz, now()) + make_interval(secs => r.retry_after)
                                   ELSE coalesce($7::timestamptz, now())
                                        + make_interval(mins => least(power(2, d.attempts - 1), $8)::integer) END
       FROM unnest($1::integer[], $2::boolean[], $3::text[], $4::text[], $9::boolean[], $10::integer[],
                   $12::boolean[])
            AS r (id, ok, provider_message_id, error, permanent, retry_after, untried)
      WHERE d.id = r.id
      RETURNING d.id, d.status`,
    [
      outcomes.map((outcome) => outcome.id),
      outcomes.map((outcome) => outcome.ok),
      outcomes.map((outcome) => (outcome.ok ? outcome.providerMessageId : null)),
      outcomes.map((outcome) => (outcome.ok ? null : outcome.error)),
      provider.name,
      MAX_ATTEMPTS,
      at,
      MAX_BACKOFF_MINUTES,
      outcomes.map((outcome) => !outcome.ok && outcome.permanent),
      outcomes.map((outcome) => (outcome.ok ? null : outcome.retryAfterSeconds)),
      DATABASE_WAIT_MINUTES,
      outcomes.map((outcome) => !outcome.ok && outcome.untried),
    ],
  );
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    if (row.status === 'sent') report.sent.push(row.id);
    else if (row.status === 'failed') report.failed.push(row.id);
    else report.retrying.push(row.id);
  }
  return report;
}
