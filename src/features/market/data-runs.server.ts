import type { Db, Queryable } from '../../platform/db.ts';
import { runFailureWords } from './run-words.ts';

export type DataSource = 'zhvi' | 'inventory' | 'sold';

export interface RunFigures {
  rowsRead: number;
  rowsSkipped: number;
  townsUpdated: number;
  /** The slugs of the towns whose figures the run changed (the runs table names them, minor 31). */
  updatedTowns: string[];
  changed: boolean;
}

export interface RunRecord extends RunFigures {
  id: number;
  source: DataSource;
  origin: string;
  status: 'succeeded' | 'failed';
  error: string | null;
}

/** A run still queued or running after this long is taken for one whose process died. */
const ABANDONED_AFTER = '1 hour';

/** A run to record: its source and origin, and for an uploaded file the staged upload it imports. */
export interface PlannedRun {
  source: DataSource;
  origin: string;
  uploadId?: string;
}

/**
 * Records runs as queued for the background work, unless a run is queued or running already
 * (undefined then), so that two imports never run at once and their ids are known before they run.
 * Call it in a transaction (`tx`): the check and the insert hold a transaction lock, so two
 * requests at once cannot both find nothing running. Answers the ids in the order of `runs`.
 */
export async function queueRunsUnlessRunning(
  tx: Queryable,
  runs: readonly PlannedRun[],
): Promise<number[] | undefined> {
  await tx.query('SELECT pg_advisory_xact_lock(4411)');
  const [busy] = await tx.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM data_runs WHERE status IN ('queued', 'running')
                                              AND started_at > now() - interval '${ABANDONED_AFTER}') AS yes`,
  );
  if (busy?.yes) return undefined;
  if (runs.length === 0) return [];
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO data_runs (source, origin, status, upload_id)
     SELECT source, origin, 'queued', upload_id
       FROM unnest($1::text[], $2::text[], $3::uuid[]) WITH ORDINALITY AS r (source, origin, upload_id, n) ORDER BY n
     RETURNING id`,
    [runs.map((run) => run.source), runs.map((run) => run.origin), runs.map((run) => run.uploadId ?? null)],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** A queued run the background work took: it is running now. */
export interface ClaimedRun {
  id: number;
  source: DataSource;
  origin: string;
  upload_id: string | null;
}

const NEVER_STARTED = 'The import never started: the background work did not run within an hour';

/**
 * Takes every queued run (status running from now on), oldest first, in ONE statement: a second
 * background invocation at the same moment takes none of them. A run queued over an hour ago is
 * marked failed instead (whatever should have started it did not).
 */
export async function claimQueuedRuns(db: Queryable): Promise<ClaimedRun[]> {
  const claimed = await db.query<ClaimedRun>(
    `WITH stale AS (
       UPDATE data_runs SET status = 'failed', finished_at = now(), error = $1
        WHERE status = 'queued' AND started_at <= now() - interval '${ABANDONED_AFTER}'
       RETURNING id
     )
     UPDATE data_runs SET status = 'running'
      WHERE status = 'queued' AND started_at > now() - interval '${ABANDONED_AFTER}'
     RETURNING id, source, origin, upload_id::text AS upload_id`,
    [NEVER_STARTED],
  );
  return claimed.sort((a, b) => a.id - b.id);
}

/** Queued runs whose background work could not be started: failed, with why. */
export async function failQueuedRuns(db: Queryable, ids: readonly number[], error: string): Promise<void> {
  await db.query(
    `UPDATE data_runs SET status = 'failed', finished_at = now(), error = $2
      WHERE id = ANY($1::int[]) AND status = 'queued'`,
    [ids, error],
  );
}

/** How often, at most, a running import writes how many rows it has read (the admin screen polls it). */
const PROGRESS_EVERY_MS = 500;

/** Writes a running run's rows read so far, at most every PROGRESS_EVERY_MS (and never after it ended). */
export function progressOf(db: Db, runId: number, now: () => number = Date.now): (rowsRead: number) => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async (rowsRead) => {
    if (now() - last < PROGRESS_EVERY_MS) return;
    last = now();
    await db.query(`UPDATE data_runs SET rows_read = $2 WHERE id = $1 AND status = 'running'`, [runId, rowsRead]);
  };
}

/**
 * Runs one source's refresh and records it in data_runs (started, finished, figures, error) for the
 * admin screens, in the row queueRunsUnlessRunning wrote (or a new one). A failure is recorded and returned, never
 * thrown: the other sources still run, and the failed source's previous data stays (each importer
 * replaces data in one transaction). `work` gets the run's id, to write its progress.
 */
export async function recordRun(
  db: Db,
  source: DataSource,
  origin: string,
  work: (runId: number) => Promise<RunFigures>,
  runId?: number,
): Promise<RunRecord> {
  const [run] =
    runId === undefined
      ? await db.query<{ id: number }>(`INSERT INTO data_runs (source, origin) VALUES ($1, $2) RETURNING id`, [
          source,
          origin,
        ])
      : [{ id: runId }];
  if (!run) throw new Error('data_runs insert returned no row');
  let record: RunRecord;
  try {
    const figures = await work(run.id);
    record = { id: run.id, source, origin, status: 'succeeded', error: null, ...figures };
  } catch (error) {
    record = {
      id: run.id,
      source,
      origin,
      status: 'failed',
      error: runFailureWords(source, origin, error),
      rowsRead: 0,
      rowsSkipped: 0,
      townsUpdated: 0,
      updatedTowns: [],
      changed: false,
    };
  }
  await db.query(
    `UPDATE data_runs SET finished_at = now(), status = $2, rows_read = $3, rows_skipped = $4, towns_updated = $5,
                          changed = $6, error = $7, updated_towns = $8::text[]
      WHERE id = $1`,
    [
      record.id,
      record.status,
      record.rowsRead,
      record.rowsSkipped,
      record.townsUpdated,
      record.changed,
      record.error,
      record.updatedTowns,
    ],
  );
  return record;
}
