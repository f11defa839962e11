import type { Db, Queryable } from '../../server/db.ts';

export type DataSource = 'zhvi' | 'inventory' | 'sold';

export interface RunFigures {
  rowsRead: number;
  rowsSkipped: number;
  townsUpdated: number;
  changed: boolean;
}

export interface RunRecord extends RunFigures {
  id: number;
  source: DataSource;
  origin: string;
  status: 'succeeded' | 'failed';
  error: string | null;
}

/** A run still 'running' after this long is taken for one whose process died. */
const ABANDONED_AFTER = '1 hour';

/**
 * Records runs about to start (status running) unless a run is running already (undefined then), so
 * that two refreshes never run at once and their ids are known before they run. The check and the
 * insert hold a transaction lock: two requests at once cannot both find nothing running.
 */
export function startRunsUnlessRunning(
  db: Db,
  runs: { source: DataSource; origin: string }[],
): Promise<Map<DataSource, number> | undefined> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(4411)');
    const [running] = await tx.query<{ yes: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM data_runs WHERE status = 'running' AND started_at > now() - interval '${ABANDONED_AFTER}') AS yes`,
    );
    if (running?.yes) return undefined;
    const ids = await startRuns(tx, runs);
    return new Map(runs.map(({ source }, index) => [source, ids[index] ?? 0]));
  });
}

async function startRuns(db: Queryable, runs: { source: DataSource; origin: string }[]): Promise<number[]> {
  if (runs.length === 0) return [];
  const rows = await db.query<{ id: number }>(
    `INSERT INTO data_runs (source, origin)
     SELECT source, origin FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS r (source, origin, n) ORDER BY n
     RETURNING id`,
    [runs.map((run) => run.source), runs.map((run) => run.origin)],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
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
 * admin screens, in the row startRuns wrote (or a new one). A failure is recorded and returned, never
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
      error: error instanceof Error ? error.message : String(error),
      rowsRead: 0,
      rowsSkipped: 0,
      townsUpdated: 0,
      changed: false,
    };
  }
  await db.query(
    `UPDATE data_runs SET finished_at = now(), status = $2, rows_read = $3, rows_skipped = $4, towns_updated = $5,
                          changed = $6, error = $7
      WHERE id = $1`,
    [record.id, record.status, record.rowsRead, record.rowsSkipped, record.townsUpdated, record.changed, record.error],
  );
  return record;
}
