/**
 * Lead sync to Follow Up Boss: one job per lead (crm_syncs, migration 0012), sent, recorded and
 * retried until FUB takes it. Event jobs about a lead (kind 'seller_active', migration 0032: a
 * seller who receives updates became active) are claimed, sent and settled the same way.
 *
 * - A job is written in the statement that writes its lead (leads.server.ts, `crmJobCte`), already
 *   claimed (`sending`), and the request sends it at once; the scheduled run (`syncDue`) sends what
 *   is due: retries, and jobs whose sender died (claim expired).
 * - Every call is recorded (crm_sync_attempts) in the statement that settles the job, so a job's
 *   history is never half-written.
 * - 429 waits for Retry-After; 5xx, timeouts and network errors back off 1 s, 2 s, 4 s … (capped);
 *   401/403 stop the agent's jobs and flag the integration until a working key is saved; 204 (the
 *   source's lead flow is archived) is accepted but ignored; any other 4xx rejects the event.
 * - Once synced a job is never claimed again.
 * - FUB takes no idempotency key, so after a call that may have reached FUB without its answer
 *   being known (a timeout, a network error, a 5xx other than 503, or a claim whose sender never
 *   settled it) the next attempt first looks for the event among the person's in FUB (by the
 *   reference in its description) and records it as synced when it is there, posting only when
 *   it is not: the agent's timeline gets each inquiry once (decision 0023).
 */
import { setTimeout as wait } from 'node:timers/promises';
import * as z from 'zod';
import { DatabaseUnavailable, type Db, type Queryable } from '../../../platform/db.ts';
import { decrypt, resolveSecret, type SecretSource } from '../../../platform/encryption.ts';
import type { FubAnswer, FubClient, FubCredentials, FubLookup } from '../fub-client.server.ts';
import { fubEventSchema } from './fub-event.ts';

/** Bound into each encrypted key: a value copied into another column does not decrypt there. */
export const FUB_API_KEY_CONTEXT = 'fub_integrations.api_key';
export const FUB_SYSTEM_KEY_CONTEXT = 'fub_integrations.system_key';

/** What the API and the scheduled function need to sync leads. */
export interface CrmContext {
  client: FubClient;
  /** ENCRYPTION_KEY, which decrypts the stored keys. */
  secret: SecretSource;
  /** How long one call may take; SEND_TIMEOUT_MS by default (tests give a short one). */
  timeoutMs?: number;
}

/** How long a claimed job is its sender's; after that another run may take it. */
export const CLAIM_SECONDS = 60;
/** The longest a failing job waits between attempts. */
export const MAX_BACKOFF_SECONDS = 3_600;
/** How long one call may take before it counts as FUB not answering. */
export const SEND_TIMEOUT_MS = 20_000;

/** Seconds before the next try after `attempts` failed ones: 1, 2, 4 … capped. */
export const backoffSeconds = (attempts: number): number =>
  Math.min(2 ** Math.max(0, attempts - 1), MAX_BACKOFF_SECONDS);

export type CrmJobStatus = 'queued' | 'sending' | 'synced' | 'ignored' | 'stopped' | 'rejected';

/** A job claimed for sending, with its agent's credentials (keys still encrypted). */
export const claimedJobSchema = z.object({
  id: z.number(),
  lead_id: z.number(),
  agent_id: z.number(),
  attempts: z.number(),
  payload: z.unknown(),
  api_key_encrypted: z.string(),
  system: z.string().nullable(),
  system_key_encrypted: z.string().nullable(),
  /** An earlier call may have reached FUB unanswered: look for the event first (a new job has had no call). */
  unsure: z.boolean().default(false),
});
export type ClaimedJob = z.infer<typeof claimedJobSchema>;

/** The credentials of a claimed job, decrypted for the call; never logged or answered. */
function credentialsOf(job: ClaimedJob, secret: SecretSource): FubCredentials {
  const key = resolveSecret(secret);
  return {
    apiKey: decrypt(job.api_key_encrypted, key, FUB_API_KEY_CONTEXT),
    system: job.system,
    systemKey: job.system_key_encrypted ? decrypt(job.system_key_encrypted, key, FUB_SYSTEM_KEY_CONTEXT) : null,
  };
}

/**
 * SQL: whether an earlier call of the job whose id is `idColumn` may have reached FUB without our
 * knowing what it did. A 503 says the server did not handle the request (RFC 9110 §15.6.4) and a
 * 429 that FUB did not process it (fact sheet §4); FUB promises nothing of a 500, 502 or 504 (a
 * gateway may have passed the event on), of a timeout or of a dropped connection.
 */
export const unsureCallSql = (idColumn: string): string =>
  `EXISTS (SELECT 1 FROM crm_sync_attempts t
            WHERE t.sync_id = ${idColumn} AND t.outcome = 'unavailable' AND t.http_status IS DISTINCT FROM 503)`;

/** What a call ended with: FUB's answer to the event, or the event found already in FUB. */
export type CallOutcome = FubAnswer | Extract<FubLookup, { kind: 'found' }>;

/** How a job is settled after one call. */
export interface Settlement {
  status: Exclude<CrmJobStatus, 'sending'>;
  outcome: CallOutcome['kind'];
  httpStatus: number | null;
  error: string | null;
  delaySeconds: number;
  personId: number | null;
  /** Set on the integration when FUB refused its key. */
  attention: string | null;
}

const ARCHIVED =
  'Follow Up Boss accepted the lead but ignored it: the lead flow for this source is archived in Follow Up Boss.';

export function settle(answer: CallOutcome, attemptsBefore: number): Settlement {
  const base = { outcome: answer.kind, httpStatus: answer.status, personId: null, attention: null, delaySeconds: 0 };
  switch (answer.kind) {
    case 'created':
    case 'updated':
    case 'found':
      return { ...base, status: 'synced', error: null, personId: answer.personId };
    case 'archived':
      return { ...base, status: 'ignored', error: ARCHIVED };
    case 'rate-limited':
      return {
        ...base,
        status: 'queued',
        error: `Follow Up Boss asked us to slow down; trying again in ${answer.retryAfterSeconds} s`,
        delaySeconds: answer.retryAfterSeconds,
      };
    case 'refused':
      return { ...base, status: 'stopped', error: answer.message, attention: answer.message };
    case 'rejected':
      return { ...base, status: 'rejected', error: answer.message };
    case 'unavailable':
      return { ...base, status: 'queued', error: answer.message, delaySeconds: backoffSeconds(attemptsBefore + 1) };
  }
}

/**
 * One statement: the job settled, its attempt recorded, the lead marked synced with its person id,
 * and on a refused key the integration flagged and the agent's other queued jobs stopped with it.
 * Only a job still `sending` is settled (a second settlement of one claim changes nothing).
 */
async function record(q: Queryable, job: ClaimedJob, result: Settlement, durationMs: number): Promise<void> {
  await q.query(
    `WITH job AS (
       UPDATE crm_syncs
          SET status = $2, attempts = attempts + 1, next_attempt_at = now() + $3 * interval '1 second',
              claimed_until = NULL, person_id = coalesce($4, person_id), last_error = $5,
              finished_at = CASE WHEN $2 IN ('synced', 'ignored', 'rejected') THEN now() END
        WHERE id = $1 AND status = 'sending'
       RETURNING id, lead_id, agent_id
     ),
     attempt AS (
       INSERT INTO crm_sync_attempts (sync_id, outcome, http_status, error, duration_ms)
       SELECT id, $6, $7, $5, $8 FROM job RETURNING id
     ),
     lead AS (
       UPDATE leads SET synced_to_fub = true, fub_person_id = $4
         FROM job WHERE leads.id = job.lead_id AND $2 = 'synced'
       RETURNING leads.id
     ),
     flagged AS (
       UPDATE fub_integrations SET attention = $9
         FROM job WHERE fub_integrations.agent_id = job.agent_id AND $9::text IS NOT NULL
       RETURNING fub_integrations.agent_id
     ),
     held AS (
       UPDATE crm_syncs s SET status = 'stopped', last_error = $9
         FROM job WHERE $9::text IS NOT NULL AND s.agent_id = job.agent_id AND s.status = 'queued'
       RETURNING s.id
     )
     SELECT (SELECT count(*) FROM attempt) AS recorded`,
    [
      job.id,
      result.status,
      result.delaySeconds,
      result.personId,
      result.error,
      result.outcome,
      result.httpStatus,
      Math.round(durationMs),
      result.attention,
    ],
  );
}

/**
 * Waits before each new try to record a settlement while the database is away: about 16 s in all,
 * well within the job's claim (CLAIM_SECONDS), so no other run sends the job meanwhile.
 */
const RECORD_RETRY_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

/**
 * Records a settlement, trying again while the database cannot be reached. FUB takes no
 * idempotency key: a settlement that is never recorded leaves the job claimed, and the scheduled
 * run sends the event again once the claim ends (the same person in FUB, but a second inquiry on
 * their timeline). Recording twice is harmless: only a job still `sending` is settled.
 */
async function recordOrRetry(db: Db, job: ClaimedJob, result: Settlement, durationMs: number): Promise<void> {
  for (const delay of [0, ...RECORD_RETRY_MS]) {
    if (delay > 0) await wait(delay);
    try {
      await record(db, job, result, durationMs);
      return;
    } catch (error) {
      if (!(error instanceof DatabaseUnavailable) || delay === RECORD_RETRY_MS.at(-1)) throw error;
    }
  }
}

/** Sends a claimed job once and records what happened; answers the settlement. */
export async function sendJob(db: Db, crm: CrmContext, job: ClaimedJob): Promise<Settlement> {
  const started = performance.now();
  const answer = await call(crm, job, crm.timeoutMs ?? SEND_TIMEOUT_MS);
  const result = settle(answer, job.attempts);
  await recordOrRetry(db, job, result, performance.now() - started);
  return result;
}

/**
 * The call itself; a payload or key that cannot be read is a rejected event, never a crash. An
 * unsure job's event is looked for first; a lookup FUB refuses (an expired account answers 403 to
 * all but POST /v1/events) or cannot answer for good leaves the post to decide, as before.
 */
async function call(crm: CrmContext, job: ClaimedJob, timeoutMs: number): Promise<CallOutcome> {
  const event = fubEventSchema.safeParse(job.payload);
  if (!event.success) return { kind: 'rejected', status: 0, message: 'The stored event could not be read' };
  let credentials: FubCredentials;
  try {
    credentials = credentialsOf(job, crm.secret);
  } catch {
    return { kind: 'refused', status: 401, message: 'The stored API key could not be decrypted; save it again' };
  }
  const [email] = event.data.person.emails;
  if (job.unsure && event.data.description && email) {
    const mark = { email: email.value, type: event.data.type, reference: event.data.description };
    const lookup = await crm.client.findEvent(credentials, mark, { timeoutMs });
    if (lookup.kind === 'found' || lookup.kind === 'rate-limited' || lookup.kind === 'unavailable') return lookup;
  }
  return crm.client.sendEvent(credentials, event.data, { timeoutMs });
}

/** Columns a claim answers: the job (an event job answers the lead it is about) and its agent's credentials. */
const CLAIMED_COLUMNS = `s.id::int AS id, coalesce(s.lead_id, s.about_lead_id) AS lead_id, s.agent_id, s.attempts, s.payload,
       i.api_key_encrypted, i.system, i.system_key_encrypted`;

/**
 * One statement: up to `limit` due jobs of agents whose integration is on and has a key, claimed
 * for CLAIM_SECONDS. Due: queued and past next_attempt_at, or claimed by a sender that never
 * settled them (unsure: it may have posted). SKIP LOCKED: two runs at once take different jobs.
 */
export async function claimDue(q: Queryable, limit: number): Promise<ClaimedJob[]> {
  const rows = await q.query<unknown>(
    `WITH due AS (
       SELECT s.id, (s.status = 'sending' OR ${unsureCallSql('s.id')}) AS unsure
         FROM crm_syncs s JOIN fub_integrations i ON i.agent_id = s.agent_id
        WHERE i.active AND i.api_key_encrypted IS NOT NULL
          AND ((s.status = 'queued' AND s.next_attempt_at <= now())
               OR (s.status = 'sending' AND s.claimed_until < now()))
        ORDER BY s.next_attempt_at, s.id
        LIMIT $1
        FOR UPDATE OF s SKIP LOCKED
     )
     UPDATE crm_syncs s SET status = 'sending', claimed_until = now() + $2 * interval '1 second'
       FROM due, fub_integrations i
      WHERE s.id = due.id AND i.agent_id = s.agent_id
     RETURNING ${CLAIMED_COLUMNS}, due.unsure`,
    [limit, CLAIM_SECONDS],
  );
  return z.array(claimedJobSchema).parse(rows);
}

/**
 * Puts claimed jobs back unsent: queued again `delaySeconds` from now (their key is rate-limited),
 * or stopped with the others of their agent (their key was refused).
 */
async function release(q: Queryable, ids: number[], status: 'queued' | 'stopped', delaySeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await q.query(
    `UPDATE crm_syncs SET status = $2, claimed_until = NULL, next_attempt_at = now() + $3 * interval '1 second'
      WHERE id = ANY($1::bigint[]) AND status = 'sending'`,
    [ids, status, delaySeconds],
  );
}

/**
 * Sends one agent's claimed jobs one after another (they share a key). When FUB rate-limits the
 * key, the rest go back to the queue for its Retry-After instead of into the limit; when it refuses
 * the key, the rest stop with the job that was refused. Answers each job's settlement by lead id.
 */
export async function sendInTurn(db: Db, crm: CrmContext, jobs: ClaimedJob[]): Promise<Map<number, Settlement>> {
  const settled = new Map<number, Settlement>();
  for (const [index, job] of jobs.entries()) {
    const result = await sendJob(db, crm, job);
    settled.set(job.lead_id, result);
    if (result.outcome !== 'rate-limited' && result.status !== 'stopped') continue;
    const rest = jobs.slice(index + 1);
    const status = result.status === 'stopped' ? 'stopped' : 'queued';
    await release(
      db,
      rest.map(({ id }) => id),
      status,
      result.delaySeconds,
    );
    for (const unsent of rest) settled.set(unsent.lead_id, { ...result, httpStatus: null, personId: null });
    break;
  }
  return settled;
}

export interface SyncReport {
  synced: number;
  retrying: number;
  stopped: number;
  ignored: number;
  rejected: number;
}

/**
 * Sends the due jobs, a batch of `limit` at a time, until none is due or `budgetMs` has passed:
 * agents side by side, each agent's jobs in turn (sendInTurn).
 */
export async function syncDue(
  db: Db,
  crm: CrmContext,
  { limit = 50, budgetMs = 20_000 }: { limit?: number; budgetMs?: number } = {},
): Promise<SyncReport> {
  const report: SyncReport = { synced: 0, retrying: 0, stopped: 0, ignored: 0, rejected: 0 };
  const started = Date.now();
  for (;;) {
    const jobs = await claimDue(db, limit);
    const byAgent = new Map<number, ClaimedJob[]>();
    for (const job of jobs) byAgent.set(job.agent_id, [...(byAgent.get(job.agent_id) ?? []), job]);
    const settled = await Promise.all([...byAgent.values()].map((agentJobs) => sendInTurn(db, crm, agentJobs)));
    for (const results of settled) for (const result of results.values()) count(report, result.status);
    if (jobs.length < limit || Date.now() - started > budgetMs) return report;
  }
}

function count(report: SyncReport, status: Settlement['status']): void {
  if (status === 'synced') report.synced += 1;
  else if (status === 'queued') report.retrying += 1;
  else if (status === 'stopped') report.stopped += 1;
  else if (status === 'ignored') report.ignored += 1;
  else report.rejected += 1;
}
