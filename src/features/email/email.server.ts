/**
 * The one e-mail module. A message is first a row in `email_deliveries` (queued in the same
 * statement or transaction as the write that caused it), then delivered by `deliverQueued`, right
 * after the response and again by the scheduled function until it is sent or has failed 5 times.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseUnavailable, type Queryable } from '../../server/db.ts';
import { withUnsubscribeFooter } from './unsubscribe-footer.ts';

export type EmailKind = 'estimate' | 'new_lead' | 'verify_email' | 'reset_password';

/**
 * Kinds not sent to an address that unsubscribed: notices and anything else the recipient did not
 * just ask for. The rest (an estimate the visitor requested, verification and reset links) is
 * what the person asked for a moment ago, so it is still sent.
 */
export const NOTICE_KINDS: readonly EmailKind[] = ['new_lead'];

export interface EmailAddress {
  email: string;
  name?: string | null;
}

/** A message to queue. */
export interface OutgoingEmail {
  kind: EmailKind;
  to: EmailAddress;
  subject: string;
  html: string;
  text: string;
  leadId?: number | null;
  estimateUuid?: string | null;
}

/** A file sent with a message (the estimate e-mail's PDF). */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** A message as a provider is asked to send it. */
export interface ProviderMessage {
  /** The delivery row's id: providers that take an idempotency key should use it. */
  deliveryId: number;
  from: EmailAddress;
  to: EmailAddress;
  subject: string;
  html: string;
  text: string;
  /** List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), on every message. */
  headers: Record<string, string>;
  /** Files to attach; none when absent. */
  attachments?: readonly EmailAttachment[];
}

/** An address's unsubscribe links: the page (in the footer) and the one-click URL (in the header). */
export type UnsubscribeLinks = (email: string) => { page: string; oneClick: string };

/** Where e-mail leaves the product: the outbox, Resend or Mailgun (see providers/). */
export interface EmailProvider {
  /** Recorded in email_deliveries.provider. */
  name: string;
  /**
   * Resolves once the provider accepted the message; rejects when it did not. Reject with a
   * ProviderError to say whether trying again can help and when; any other error is retried.
   */
  send(message: ProviderMessage): Promise<{ providerMessageId: string }>;
}

/** The longest a provider's Retry-After may put a delivery off. */
export const MAX_RETRY_AFTER_SECONDS = 60 * 60;

/**
 * A provider's refusal, as deliverQueued acts on it: not `retryable` (a validation error, a bad
 * API key) marks the delivery 'failed' at once; `retryable` with `retryAfterSeconds` (a 429's
 * Retry-After) makes it due again exactly then, at most MAX_RETRY_AFTER_SECONDS later; retryable
 * without it (5xx, network, timeout) backs off as any other failure. The message is recorded as
 * last_error, so it carries the provider's own words and never a credential.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  /** The provider's HTTP status, when it answered. */
  readonly status: number | undefined;

  constructor(
    message: string,
    options: { retryable: boolean; retryAfterSeconds?: number; status?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.status = options.status;
  }
}

/**
 * A Retry-After header in seconds from `now`: delta-seconds ("120") or an HTTP date. Answers
 * undefined when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text));
  // An HTTP date names its month ("Wed, 21 Oct 2015 07:28:00 GMT"); bare numbers are not dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Attempts before a delivery is marked 'failed'. */
export const MAX_ATTEMPTS = 5;
/** Retry n waits 1 minute × 2^(n-1), at most this long. */
export const MAX_BACKOFF_MINUTES = 60;
/** How long a claimed row is left alone by other workers while it is being sent. */
export const CLAIM_LEASE_MINUTES = 10;
const MAX_ERROR_LENGTH = 1000;

export const formatAddress = ({ email, name }: EmailAddress): string =>
  name ? `"${name.replace(/["\\\r\n]/g, ' ')}" <${email}>` : email;

/**
 * The embedded default provider. The message is already stored in email_deliveries; "delivering"
 * it prints a short summary (from, to, subject, attachments) through `log` and, given `dir`, also
 * writes the whole message there as `{deliveryId}.json`, where a developer (or a browser test) can
 * open it. The body is never printed: verification, reset and unsubscribe links in it act as the
 * recipient, and a log is read by more people than the recipient (security audit, finding 9).
 */
export function createOutboxProvider(
  log: (line: string) => void = (line) => console.info(line),
  dir?: string,
): EmailProvider {
  return {
    name: 'outbox',
    async send(message) {
      let file: string | undefined;
      if (dir) {
        await mkdir(dir, { recursive: true });
        // Written aside, then renamed: a reader never sees half a message.
        file = join(dir, `${message.deliveryId}.json`);
        // Attachments as base64, as an e-mail carries them, rather than JSON's index-by-index bytes.
        const written = {
          ...message,
          attachments: message.attachments?.map((attachment) => ({
            ...attachment,
            content: Buffer.from(attachment.content).toString('base64'),
          })),
        };
        await writeFile(`${file}.partial`, JSON.stringify(written, null, 2));
        await rename(`${file}.partial`, file);
      }
      log(
        [
          `[outbox] e-mail #${message.deliveryId} from ${formatAddress(message.from)} to ${formatAddress(message.to)}`,
          `Subject: ${message.subject}`,
          ...(message.attachments ?? []).map(
            (attachment) => `Attachment: ${attachment.filename} (${attachment.content.byteLength} bytes)`,
          ),
          file
            ? `Body (links included): ${file}`
            : `Body not printed (its links act as the recipient): email_deliveries row ${message.deliveryId}`,
        ].join('\n'),
      );
      return { providerMessageId: `outbox-${randomUUID()}` };
    },
  };
}

/**
 * Refused by the provider production uses when none is configured (no RESEND_API_KEY, incomplete
 * Mailgun settings): production never falls back to the outbox, and the message stays queued,
 * without spending an attempt, until a provider is configured.
 */
export class EmailNotConfigured extends Error {
  override readonly name = 'EmailNotConfigured';
  constructor() {
    super(
      'Not sent: no e-mail provider is configured. Set RESEND_API_KEY, or complete the Mailgun settings ' +
        '(Admin → Settings); queued messages are sent once one is.',
    );
  }
}

/** The provider of production without Resend or Mailgun: every send is refused (EmailNotConfigured). */
export const unconfiguredProvider = (): EmailProvider => ({
  name: 'none',
  send: () => Promise.reject(new EmailNotConfigured()),
});

/**
 * An `INSERT INTO email_deliveries … RETURNING id` of `messages`, with its parameters numbered from
 * `$firstParam`, to run alone or as a CTE of a larger statement. With `leadIdFrom` (the name of a
 * CTE with an `id` column, such as the lead just inserted) each row takes its lead_id from there,
 * and no row is written when that CTE is empty.
 */
export function queueEmailsStatement(
  messages: readonly OutgoingEmail[],
  { firstParam = 1, leadIdFrom }: { firstParam?: number; leadIdFrom?: string } = {},
): { sql: string; params: unknown[] } {
  const p = (offset: number) => `$${firstParam + offset}`;
  const source = `unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[],
                         ${p(5)}::text[], ${p(6)}::integer[], ${p(7)}::uuid[])
              AS m (kind, to_email, to_name, subject, html, text, lead_id, estimate_uuid)`;
  const sql = `INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text, lead_id, estimate_uuid)
     SELECT m.kind, m.to_email, m.to_name, m.subject, m.html, m.text,
            ${leadIdFrom ? `coalesce(m.lead_id, ${leadIdFrom}.id)` : 'm.lead_id'}, m.estimate_uuid
       FROM ${leadIdFrom ? `${leadIdFrom} CROSS JOIN ` : ''}${source}
     RETURNING id`;
  return {
    sql,
    params: [
      messages.map((message) => message.kind),
      messages.map((message) => message.to.email),
      messages.map((message) => message.to.name ?? null),
      messages.map((message) => message.subject),
      messages.map((message) => message.html),
      messages.map((message) => message.text),
      messages.map((message) => message.leadId ?? null),
      messages.map((message) => message.estimateUuid ?? null),
    ],
  };
}

/** Queues several messages in one statement; answers their delivery ids. */
export async function queueEmails(q: Queryable, messages: readonly OutgoingEmail[]): Promise<number[]> {
  if (messages.length === 0) return [];
  const { sql, params } = queueEmailsStatement(messages);
  const rows = await q.query<{ id: number }>(sql, params);
  return rows.map((row) => row.id);
}

/**
 * Queues one message (status 'queued', due now) and answers its delivery id. Pass the transaction
 * of the write that caused it, so both are committed or neither is.
 */
export async function queueEmail(q: Queryable, message: OutgoingEmail): Promise<number> {
  const [id] = await queueEmails(q, [message]);
  if (id === undefined) throw new Error('queueEmail: the insert returned no id');
  return id;
}

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

interface ClaimedRow {
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

type Outcome =
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

const errorText = (error: unknown): string => {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return (text || 'Unknown error').slice(0, MAX_ERROR_LENGTH);
};

/**
 * What a failed send means for its row: fail now, retry at a given time, back off, or (the
 * database away before the provider was asked) wait for the database without spending an attempt.
 */
function failure(id: number, error: unknown, untried = false): Outcome {
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

/** A message not handed to the provider because the database went away while it was being made. */
class NotSentYet extends Error {
  override readonly name = 'NotSentYet';
  constructor(cause: DatabaseUnavailable) {
    super(`Not sent yet: the database was unavailable while its attachment was made (${cause.message})`, { cause });
  }
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
      // The database will be back; a message sent now without its files would not match its retries.
      if (error instanceof DatabaseUnavailable) throw new NotSentYet(error);
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

/** What routes that queue e-mail need from the app (built in src/server/api-app.ts). */
export interface MailContext {
  /** Origin for links in e-mails: the configured site URL, else the request's origin. */
  siteUrl(request: Request): string;
  /** Delivers these queued rows after the response; errors are logged, never answered. */
  deliverSoon(ids: readonly number[], request: Request): void;
}
