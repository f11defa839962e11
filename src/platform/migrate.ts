import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './db.ts';

const migrationsDir = new URL('./migrations/', import.meta.url);

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

/**
 * Applies the numbered SQL files not yet recorded in schema_migrations, each in its own
 * transaction with its record, so a failed migration leaves nothing half-applied.
 */
export async function migrate(db: Db): Promise<MigrationReport> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const files = (await readdir(migrationsDir)).filter((name) => /^\d{4}_.+\.sql$/.test(name)).sort();
  const done = new Set(
    (await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((row) => row.version),
  );
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const script = await readFile(new URL(file, migrationsDir), 'utf8');
    await db.transaction(async (tx) => {
      // Serialises concurrent runners (two deploys at once): the loser waits, then finds the row.
      await tx.query('SELECT pg_advisory_xact_lock(8675309)');
      const recorded = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [file]);
      if (recorded.length > 0) return;
      await tx.exec(script);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
      applied.push(file);
    });
  }
  return { applied, alreadyApplied: files.length - applied.length };
}
