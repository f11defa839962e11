/**
 * Rate limits kept in PostgreSQL (they must hold across serverless instances): fixed windows in the
 * rate_limits table, every limit of a request counted in ONE upsert statement. Windows are aligned
 * to the epoch (a 15-minute window starts at :00, :15, :30, :45 UTC), so every instance agrees on
 * them without coordination. Windows older than a day are deleted by about one call in a hundred,
 * inside the same statement (no extra round trip).
 */
import type { Queryable } from './db.ts';
import { HttpError } from './http.ts';

export interface RateLimit {
  /** Most hits allowed in one window. */
  limit: number;
  windowSeconds: number;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** The account limits of the product. */
export const LIMITS = {
  /**
   * Logins of one account from one client (finding 7): a stranger guessing slows down only their
   * own address; the owner, from theirs, still logs in. The per-IP limit holds a guesser's total.
   */
  loginPerAccountClient: { limit: 10, windowSeconds: 15 * MINUTE },
  loginPerIp: { limit: 30, windowSeconds: 15 * MINUTE },
  signupPerIp: { limit: 10, windowSeconds: HOUR },
  forgotPerIp: { limit: 10, windowSeconds: HOUR },
  forgotPerEmail: { limit: 5, windowSeconds: HOUR },
  resendPerIp: { limit: 10, windowSeconds: HOUR },
  resendPerEmail: { limit: 5, windowSeconds: HOUR },
  /**
   * The e-mailed links' routes: their tokens are 256-bit random (not guessable), so these only stop a
   * script hammering the database. 30 an hour lets a whole office behind one address verify its
   * accounts and reset passwords on the same morning.
   */
  verifyPerIp: { limit: 30, windowSeconds: HOUR },
  /**
   * Profile e-mail changes of one agent: each mails the new address and the old one, so a signed-in
   * agent cannot use the form to mail many strangers.
   */
  emailChangePerAgent: { limit: 5, windowSeconds: HOUR },
  resetPerIp: { limit: 30, windowSeconds: HOUR },
  /**
   * An admin's "Resend invitation" for one agent: as many as a visitor's resend of a verification
   * link, so a slip of the mouse cannot flood the new agent's inbox.
   */
  invitationPerAgent: { limit: 5, windowSeconds: HOUR },
} as const satisfies Record<string, RateLimit>;

/** One counter: what is counted (e.g. `login:email:pat@example.com`) and its limit. */
export interface RateCheck extends RateLimit {
  key: string;
}

export const rateCheck = (limit: RateLimit, key: string): RateCheck => ({ ...limit, key });

/** 429 with the seconds until the window ends (sent as Retry-After by the app's error handler). */
export class TooManyAttempts extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / MINUTE));
    super(429, `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`);
  }
}

/** Seconds until the window of a counter `elapsed` seconds old ends: a 429's Retry-After. */
export const secondsLeft = (limit: RateLimit, elapsed: number): number =>
  Math.max(1, Math.ceil(limit.windowSeconds - elapsed));

/** Share of calls that also delete old windows. */
const CLEANUP_PROBABILITY = 0.01;

interface CounterRow {
  key: string;
  hits: number;
  /** Seconds since the window began, by the database's clock. */
  elapsed: number;
}

/**
 * An `INSERT INTO rate_limits … RETURNING key, hits, elapsed` that counts one hit for each of
 * `checks` (a key given n times counts n hits: a batch of requests from one client), with its
 * parameters numbered from `$firstParam`, to run alone or as a CTE of a larger statement. With
 * `onlyIf` (an SQL condition, e.g. on an earlier CTE) nothing is counted unless it holds.
 */
export function countHitsStatement(
  checks: readonly RateCheck[],
  { firstParam = 1, onlyIf }: { firstParam?: number; onlyIf?: string } = {},
): { sql: string; params: unknown[] } {
  // ON CONFLICT may touch a row only once per statement: one row per key, with its number of hits.
  const counters = new Map<string, { check: RateCheck; hits: number }>();
  for (const check of checks) {
    const counter = counters.get(check.key);
    if (counter) counter.hits += 1;
    else counters.set(check.key, { check, hits: 1 });
  }
  const unique = [...counters.values()];
  const sql = `INSERT INTO rate_limits AS r (key, window_start, hits)
     SELECT c.key, to_timestamp(floor(extract(epoch FROM now())::float8 / c.seconds) * c.seconds), c.hits
       FROM unnest($${firstParam}::text[], $${firstParam + 1}::integer[], $${firstParam + 2}::integer[])
              AS c (key, seconds, hits)
      ${onlyIf ? `WHERE ${onlyIf}` : ''}
     ON CONFLICT (key, window_start) DO UPDATE SET hits = r.hits + excluded.hits
     RETURNING r.key, r.hits, extract(epoch FROM now() - r.window_start)::float8 AS elapsed`;
  return {
    sql,
    params: [
      unique.map(({ check }) => check.key),
      unique.map(({ check }) => check.windowSeconds),
      unique.map(({ hits }) => hits),
    ],
  };
}

/**
 * Counts one hit on each of `checks` (one statement) and throws TooManyAttempts when any of them is
 * over its limit, with the longest wait of those that are.
 */
export async function enforceRateLimits(
  q: Queryable,
  checks: readonly RateCheck[],
  { cleanup = Math.random() < CLEANUP_PROBABILITY }: { cleanup?: boolean } = {},
): Promise<void> {
  if (checks.length === 0) return;
  const cleanupCte = cleanup
    ? `WITH expired AS (DELETE FROM rate_limits WHERE window_start < now() - interval '1 day')\n`
    : '';
  const counting = countHitsStatement(checks);
  const rows = await q.query<CounterRow>(`${cleanupCte}${counting.sql}`, counting.params);
  let wait = 0;
  for (const row of rows) {
    const check = checks.find((candidate) => candidate.key === row.key);
    if (!check || row.hits <= check.limit) continue;
    wait = Math.max(wait, secondsLeft(check, row.elapsed));
  }
  if (wait > 0) throw new TooManyAttempts(wait);
}
