import { basename } from 'node:path';
import { openNeon, type Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { pgliteDir, type Env } from './env.ts';
import { lockPgliteDir } from './pglite-lock.ts';

/**
 * The database the environment names: Neon (or any PostgreSQL) by URL, else PGlite under DATA_DIR,
 * locked for this process until it is closed (see pglite-lock.ts).
 */
export async function openDatabase(env: Env, holder = commandName()): Promise<Db> {
  if (env.DATABASE_URL) return openNeon(env.DATABASE_URL, { wsProxy: env.DATABASE_WS_PROXY });
  const dir = pgliteDir(env);
  const release = lockPgliteDir(dir, holder);
  try {
    const db = await openPglite(dir);
    const closeDatabase = db.close.bind(db);
    return Object.assign(db, {
      async close() {
        try {
          await closeDatabase();
        } finally {
          release();
        }
      },
    });
  } catch (error) {
    release();
    throw error;
  }
}

const commandName = (): string => {
  const npmScript = process.env.npm_lifecycle_event;
  return npmScript && npmScript !== 'npx' ? `npm run ${npmScript}` : basename(process.argv[1] ?? 'a command');
};

const SHARED_DATABASE = Symbol.for('li-net-to-seller.shared-database');

/**
 * `npm run dev` runs the API and Astro's dev server in one process: the pages' build-time reads
 * use the API's open database instead of opening (and locking) the embedded one a second time.
 */
export function shareDatabase(db: Db): void {
  Reflect.set(globalThis, SHARED_DATABASE, db);
}

export function sharedDatabase(): Db | undefined {
  const value: unknown = Reflect.get(globalThis, SHARED_DATABASE);
  return isDb(value) ? value : undefined;
}

const isDb = (value: unknown): value is Db =>
  typeof value === 'object' && value !== null && 'query' in value && 'transaction' in value && 'kind' in value;
