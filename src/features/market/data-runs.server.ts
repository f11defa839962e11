import type { Db } from '../../server/db.ts';

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

/**
 * Runs one source's refresh and records it in data_runs (started, finished, figures, error) for the
 * admin screens. A failure is recorded and returned, never thrown: the other sources still run, and
 * the failed source's previous data stays (each importer replaces data in one transaction).
 */
export async function recordRun(
  db: Db,
  source: DataSource,
  origin: string,
  work: () => Promise<RunFigures>,
): Promise<RunRecord> {
  const [run] = await db.query<{ id: number }>(`INSERT INTO data_runs (source, origin) VALUES ($1, $2) RETURNING id`, [
    source,
    origin,
  ]);
  if (!run) throw new Error('data_runs insert returned no row');
  let record: RunRecord;
  try {
    const figures = await work();
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
