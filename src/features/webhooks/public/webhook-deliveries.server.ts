/**
 * Webhook deliveries (issue 26): one row per message and endpoint (webhook_deliveries, migration
 * 0035), written in the statement that writes what it is about (a lead, an estimate, a seller
 * becoming active), sent after the answer and by the scheduled run, retried until the receiver
 * takes it, every attempt recorded with its settlement in one statement.
 *
 * - The `webhook-id` is the row's message_id, the same on every attempt: a receiver that took it
 *   once can tell a retry (Standard Webhooks 1.0, "Idempotency").
 * - A row is sent only by whoever claimed it (`sending`, until claimed_until); once delivered (2xx) it
 *   is never claimed again, so an endpoint accepts each message at most once from us.
 * - 5xx, 408, 429 (its Retry-After), timeouts and network errors are tried again on the Standard
 *   Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); 410 stops the endpoint and its
 *   queued rows, shown on the screen until it is turned on again; any other answer (a 3xx, which is
 *   never followed, or a 4xx) and an address the guard refuses fail the row at once.
 * - A failing endpoint delays nothing else: each row is sent on its own, with a short timeout.
 */
import * as z from 'zod';
import { type Db } from '../../../platform/db.ts';
import { decrypt, resolveSecret, type SecretSource } from '../../../platform/encryption.ts';
import { postWebhook, type PostOutcome, type Resolve } from '../post-webhook.server.ts';
import type { EstimateEventData } from './webhook-events.server.ts';
import { webhookHeaders } from '../standard-webhooks.server.ts';

/** Bound into each encrypted secret: a value copied into another column does not decrypt there. */
export const WEBHOOK_SECRET_CONTEXT = 'webhook_endpoints.secret';

/** What the API and the scheduled function need to send deliveries. */
export interface WebhookContext {
  /** ENCRYPTION_KEY, which decrypts the signing secrets. */
  secret: SecretSource;
  /** Local development and tests only (never in production): loopback receivers pass the guard. */
  allowLoopback: boolean;
  /** The resolver (tests give a stub); the system's by default. */
  resolve?: Resolve;
  /** How long one attempt may take; 10 s by default. */
  timeoutMs?: number;
  /** The clock in seconds for webhook-timestamp (tests may fix it). */
  nowSeconds?: () => number;
  /**
   * The data of an estimate.created, from the stored estimate (undefined when it is gone), made by
   * the composition root, which knows the site's address and the estimate's figures; without it such
   * a row waits for a sender that has one.
   */
  renderEstimate?: (db: Db, uuid: string) => Promise<EstimateEventData | undefined>;
}

/** The context, and sending the rows a request queued right after its answer (src/app/api-app.ts). */
export interface WebhookDispatch {
  context: WebhookContext;
  deliverSoon(ids: readonly number[], request: Request): void;
}

/** How long a claimed row is its sender's; after that the scheduled run may take it. */
export const WEBHOOK_CLAIM_SECONDS = 60;
/** Seconds before each retry (Standard Webhooks' suggested schedule); after the last, the row fails. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
/** The longest a Retry-After is obeyed; longer asks wait this long. */
const MAX_RETRY_AFTER_SECONDS = 36_000;

const claimedSchema = z.object({
  id: z.number(),
  message_id: z.string(),
  attempts: z.number(),
  payload: z.unknown(),
  estimate_uuid: z.string().nullable(),
  url: z.string(),
  secret_encrypted: z.string(),
  previous_secret_encrypted: z.string().nullable(),
});
type Claimed = z.infer<typeof claimedSchema>;

/** How one attempt settles its row. */
export interface WebhookSettlement {
  status: 'queued' | 'delivered' | 'failed' | 'stopped';
  outcome: 'delivered' | 'retry' | 'gone' | 'failed' | 'refused' | 'timeout' | 'network';
  httpStatus: number | null;
  delaySeconds: number;
  responseHead: string | null;
  error: string | null;
}

const retryOrFail = (
  attemptsBefore: number,
  outcome: WebhookSettlement['outcome'],
  base: Omit<WebhookSettlement, 'status' | 'outcome' | 'delaySeconds'>,
  retryAfterSeconds: number | null = null,
): WebhookSettlement => {
  const scheduled = RETRY_SCHEDULE_SECONDS[attemptsBefore];
  if (scheduled === undefined) {
    return { ...base, status: 'failed', outcome, delaySeconds: 0, error: `${base.error ?? 'Not delivered'}; gave up` };
  }
  const delay =
    retryAfterSeconds === null ? scheduled : Math.min(Math.max(retryAfterSeconds, 1), MAX_RETRY_AFTER_SECONDS);
  return { ...base, status: 'queued', outcome, delaySeconds: delay };
};

/** How an attempt's outcome settles a row that had `attemptsBefore` attempts. */
export function settleWebhook(result: PostOutcome, attemptsBefore: number): WebhookSettlement {
  if (result.kind === 'refused') {
    return {
      status: 'failed',
      outcome: 'refused',
      httpStatus: null,
      delaySeconds: 0,
      responseHead: null,
      error: `Not sent: ${result.reason}`,
    };
  }
  if (result.kind === 'failed') {
    const base = { httpStatus: null, responseHead: null, error: result.message };
    return retryOrFail(attemptsBefore, result.error, base);
  }
  const { status, responseHead, retryAfterSeconds } = result;
  const base = { httpStatus: status, responseHead, error: null };
  if (status >= 200 && status < 300) return { ...base, status: 'delivered', outcome: 'delivered', delaySeconds: 0 };
  if (status === 410) {
    return {
      ...base,
      status: 'stopped',
      outcome: 'gone',
      delaySeconds: 0,
      error: 'The receiver answered 410 Gone: deliveries to this endpoint stopped',
    };
  }
  if (status >= 500 || status === 429 || status === 408) {
    return retryOrFail(
      attemptsBefore,
      'retry',
      { ...base, error: `The receiver answered ${status}` },
      retryAfterSeconds,
    );
  }
  const why = status >= 300 && status < 400 ? `${status}, a redirect, which is not followed` : `${status}`;
  return { ...base, status: 'failed', outcome: 'failed', delaySeconds: 0, error: `The receiver answered ${why}` };
}

/**
 * One statement: the row settled (only while still `sending`), its attempt recorded, and on 410 the
 * endpoint stopped with its other queued rows.
 */
async function record(db: Db, row: Claimed, result: WebhookSettlement, durationMs: number): Promise<void> {
  await db.query(
    `WITH settled AS (
       UPDATE webhook_deliveries
          SET status = $2, attempts = attempts + 1, next_attempt_at = now() + $3 * interval '1 second',
              claimed_until = NULL, finished_at = CASE WHEN $2 IN ('delivered', 'failed', 'stopped') THEN now() END
        WHERE id = $1 AND status = 'sending'
       RETURNING id, endpoint_id
     ),
     attempt AS (
       INSERT INTO webhook_attempts (delivery_id, outcome, http_status, duration_ms, response_head, error)
       SELECT id, $4, $5, $6, $7, $8 FROM settled RETURNING id
     ),
     gone AS (
       UPDATE webhook_endpoints e SET active = false, stopped_reason = 'gone', updated_at = now()
         FROM settled WHERE $2 = 'stopped' AND e.id = settled.endpoint_id
       RETURNING e.id
     ),
     held AS (
       UPDATE webhook_deliveries d SET status = 'stopped', finished_at = now()
         FROM gone WHERE d.endpoint_id = gone.id AND d.status = 'queued'
       RETURNING d.id
     )
     SELECT (SELECT count(*) FROM attempt) AS recorded, (SELECT count(*) FROM held) AS held`,
    [
      row.id,
      result.status,
      result.delaySeconds,
      result.outcome,
      result.httpStatus,
      Math.round(durationMs),
      result.responseHead,
      result.error,
    ],
  );
}

/** The secrets that sign a row now: the endpoint's, and a rotated-out one while its overlap lasts. */
function secretsOf(row: Claimed, secret: SecretSource): string[] {
  const key = resolveSecret(secret);
  const secrets = [decrypt(row.secret_encrypted, key, WEBHOOK_SECRET_CONTEXT)];
  if (row.previous_secret_encrypted) secrets.push(decrypt(row.previous_secret_encrypted, key, WEBHOOK_SECRET_CONTEXT));
  return secrets;
}

const pendingEstimateSchema = z.object({ type: z.literal('estimate.created'), timestamp: z.string() });

/**
 * The body of a row: as stored, or for an estimate.created queued without its data, the data
 * rendered now and stored with it (every later attempt sends the same bytes). Undefined when the
 * estimate is gone.
 */
async function bodyOf(db: Db, context: WebhookContext, row: Claimed): Promise<unknown> {
  const pending = pendingEstimateSchema.strict().safeParse(row.payload);
  if (!pending.success || row.estimate_uuid === null || !context.renderEstimate) return row.payload;
  const data = await context.renderEstimate(db, row.estimate_uuid);
  if (!data) return undefined;
  const payload = { ...pending.data, data };
  await db.query('UPDATE webhook_deliveries SET payload = $2::jsonb WHERE id = $1', [row.id, JSON.stringify(payload)]);
  return payload;
}

/** Sends one claimed row and records what happened. */
async function sendOne(db: Db, context: WebhookContext, row: Claimed): Promise<WebhookSettlement> {
  const payload = await bodyOf(db, context, row);
  if (payload === undefined) {
    const gone: WebhookSettlement = {
      status: 'failed',
      outcome: 'failed',
      httpStatus: null,
      delaySeconds: 0,
      responseHead: null,
      error: 'Not sent: the estimate no longer exists',
    };
    await record(db, row, gone, 0);
    return gone;
  }
  const body = JSON.stringify(payload);
  const timestampSeconds = context.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  const headers = webhookHeaders({
    secrets: secretsOf(row, context.secret),
    id: row.message_id,
    timestampSeconds,
    body,
  });
  const result = await postWebhook(row.url, body, headers, {
    allowLoopback: context.allowLoopback,
    ...(context.resolve ? { resolve: context.resolve } : {}),
    ...(context.timeoutMs ? { timeoutMs: context.timeoutMs } : {}),
  });
  const settlement = settleWebhook(result, row.attempts);
  await record(db, row, settlement, result.durationMs);
  return settlement;
}

/**
 * Claims rows and returns them with their endpoints' address and secrets: `ids` (just written by a
 * request) or, without, the due ones (queued and due, or claimed by a sender that stopped), oldest
 * first. Only rows of active endpoints: a turned-off endpoint's rows wait until it is on again; and an
 * estimate.created still to be rendered only by a sender that can render it (`renders`).
 */
async function claim(
  db: Db,
  { ids, limit, renders }: { ids: readonly number[] | null; limit: number; renders: boolean },
): Promise<Claimed[]> {
  const rows = await db.query<unknown>(
    `WITH picked AS (
       SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.active
        WHERE ($1::bigint[] IS NULL OR d.id = ANY ($1::bigint[]))
          AND ($4 OR d.estimate_uuid IS NULL OR d.payload ? 'data')
          AND ((d.status = 'queued' AND d.next_attempt_at <= now())
               OR (d.status = 'sending' AND d.claimed_until < now()))
        ORDER BY d.next_attempt_at, d.id
        LIMIT $2
        FOR UPDATE OF d SKIP LOCKED
     ),
     claimed AS (
       UPDATE webhook_deliveries d SET status = 'sending', claimed_until = now() + $3 * interval '1 second'
         FROM picked WHERE d.id = picked.id
       RETURNING d.id, d.message_id, d.attempts, d.payload, d.estimate_uuid, d.endpoint_id
     )
     SELECT c.id::int AS id, c.message_id, c.attempts, c.payload, c.estimate_uuid::text AS estimate_uuid, e.url,
            e.secret_encrypted,
            CASE WHEN e.previous_secret_until > now() THEN e.previous_secret_encrypted END AS previous_secret_encrypted
       FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id
      ORDER BY c.id`,
    [ids === null ? null : [...ids], limit, WEBHOOK_CLAIM_SECONDS, renders],
  );
  return z.array(claimedSchema).parse(rows);
}

export interface WebhookRunReport {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
  stopped: number;
}

/**
 * Sends rows (those `ids`, or what is due, in batches of `limit`) `concurrency` at a time: a slow
 * endpoint holds up only its own row. Stops claiming when `budgetMs` has passed.
 */
export async function deliverWebhooks(
  db: Db,
  context: WebhookContext,
  {
    ids = null,
    limit = 100,
    budgetMs = 50_000,
    concurrency = 8,
  }: {
    ids?: readonly number[] | null;
    limit?: number;
    budgetMs?: number;
    concurrency?: number;
  } = {},
): Promise<WebhookRunReport> {
  const report: WebhookRunReport = { claimed: 0, delivered: 0, retrying: 0, failed: 0, stopped: 0 };
  if (ids !== null && ids.length === 0) return report;
  const started = Date.now();
  const overBudget = () => Date.now() - started > budgetMs;
  const renders = context.renderEstimate !== undefined;
  // The rows a request named: one claim. The scheduled run: batch after batch until none is due
  // or the budget has passed (a retried row waits 5 s at least, so a run rarely meets it again).
  for (let batch = 0; ids === null || batch === 0; batch += 1) {
    const rows = await claim(db, { ids, limit, renders });
    report.claimed += rows.length;
    const queue = [...rows];
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        // Past the budget, a claimed row is left to its claim's end: the next run sends it.
        if (overBudget()) return;
        const settled = await sendOne(db, context, row);
        if (settled.status === 'delivered') report.delivered += 1;
        else if (settled.status === 'queued') report.retrying += 1;
        else if (settled.status === 'failed') report.failed += 1;
        else report.stopped += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
    if (rows.length < limit || overBudget()) break;
  }
  return report;
}
