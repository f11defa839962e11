/**
 * The one e-mail module. A message is first a row in `email_deliveries` (queued in the same
 * statement or transaction as the write that caused it), then delivered by `deliverQueued`, right
 * after the response and again by the scheduled function until it is sent or has failed 5 times.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseUnavailable, type Queryable } from '../../../platform/db.ts';
import { WorkersBusy } from '../../../platform/workers-busy.server.ts';

export type EmailKind =
  | 'estimate'
  | 'new_lead'
  | 'verify_email'
  | 'reset_password'
  /** Seller updates (issue 25): the double opt-in's confirmation, the monthly update, the agent's alert. */
  | 'update_confirm'
  | 'seller_update'
  | 'seller_active';

/**
 * Kinds not sent to an address that unsubscribed: notices and anything else the recipient did not
 * just ask for. The rest (an estimate the visitor requested, verification and reset links) is
 * what the person asked for a moment ago, so it is still sent.
 */
export const NOTICE_KINDS: readonly EmailKind[] = ['new_lead', 'update_confirm', 'seller_update', 'seller_active'];

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

/** Attempts before a delivery is marked 'failed'. */
export const MAX_ATTEMPTS = 5;
/** Retry n waits 1 minute × 2^(n-1), at most this long. */
export const MAX_BACKOFF_MINUTES = 60;
/** How long a claimed row is left alone by other workers while it is being sent. */
export const CLAIM_LEASE_MINUTES = 10;
export const MAX_ERROR_LENGTH = 1000;

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
 * and no row is written when that CTE is empty. With `keep` (an SQL condition on `m`, the message,
 * e.g. on an earlier CTE) only the messages it holds for are queued. Answers each row's id and
 * estimate_uuid, by which a larger statement can tell its rows apart.
 */
export function queueEmailsStatement(
  messages: readonly OutgoingEmail[],
  { firstParam = 1, leadIdFrom, keep }: { firstParam?: number; leadIdFrom?: string; keep?: string } = {},
): { sql: string; params: unknown[] } {
  const p = (offset: number) => `$${firstParam + offset}`;
  const source = `unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[],
                         ${p(5)}::text[], ${p(6)}::integer[], ${p(7)}::uuid[])
              AS m (kind, to_email, to_name, subject, html, text, lead_id, estimate_uuid)`;
  const sql = `INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text, lead_id, estimate_uuid)
     SELECT m.kind, m.to_email, m.to_name, m.subject, m.html, m.text,
            ${leadIdFrom ? `coalesce(m.lead_id, ${leadIdFrom}.id)` : 'm.lead_id'}, m.estimate_uuid
       FROM ${leadIdFrom ? `${leadIdFrom} CROSS JOIN ` : ''}${source}
      ${keep ? `WHERE ${keep}` : ''}
     RETURNING id, estimate_uuid`;
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

/**
 * A message not handed to the provider because its attachment could not be made for a passing reason:
 * the database went away, or every PDF worker was busy. Sent later, with its file, by a retry.
 */
export class NotSentYet extends Error {
  override readonly name = 'NotSentYet';
  constructor(cause: DatabaseUnavailable | WorkersBusy) {
    const why = cause instanceof DatabaseUnavailable ? 'the database was unavailable' : 'every PDF worker was busy';
    super(`Not sent yet: ${why} while its attachment was made (${cause.message})`, { cause });
  }
}

/** What routes that queue e-mail need from the app (built in src/app/api-app.ts). */
export interface MailContext {
  /** Origin for links in e-mails: the configured site URL, else the request's origin. */
  siteUrl(request: Request): string;
  /** Delivers these queued rows after the response; errors are logged, never answered. */
  deliverSoon(ids: readonly number[], request: Request): void;
}
