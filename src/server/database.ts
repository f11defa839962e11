import { openNeon, openPglite, type Db } from './db.ts';
import { pgliteDir, type Env } from './env.ts';

/** The database the environment names: Neon (or any PostgreSQL) by URL, else PGlite under DATA_DIR. */
export async function openDatabase(env: Env): Promise<Db> {
  if (env.DATABASE_URL) return openNeon(env.DATABASE_URL, { wsProxy: env.DATABASE_WS_PROXY });
  return openPglite(pgliteDir(env));
}
