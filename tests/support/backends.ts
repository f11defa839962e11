/**
 * Fresh, isolated, migrated and seeded databases for integration tests, on each backend the
 * product runs on: PGlite in memory, and a real PostgreSQL server reached through the Neon driver
 * and the WebSocket proxy started by global-setup.ts.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openNeon, type Db } from '../../src/platform/db.ts';
import { openPglite } from '../../src/platform/pglite.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { featuredAgentFrom, type FeaturedAgent } from '../../src/platform/featured-agent.ts';
import { migrate } from '../../src/platform/migrate.ts';
import { seed } from '../../src/app/seed.ts';

export const BACKENDS = ['pglite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface TestDatabase {
  backend: Backend;
  db: Db;
  /** The seeded featured agent (defaults of src/platform/env.ts). */
  featuredAgent: FeaturedAgent & { id: number };
  /** Closes the connection; on PostgreSQL also drops the database. */
  close(): Promise<void>;
}

/** A database name no other test file will pick: label, pid and random bytes. */
function uniqueDatabaseName(label: string): string {
  const clean = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 30);
  return `t_${clean || 'db'}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const admin = openNeon(inject('postgresUrl'), { wsProxy: inject('wsProxy') });
  try {
    await admin.query(sql);
  } finally {
    await admin.close();
  }
}

/**
 * Opens a new database on `backend`, applies the migrations and seeds it like `npm run db:seed`
 * with an empty environment. `label` only makes the PostgreSQL database name easier to recognise.
 * `wsProxy` puts the test's own proxy (tests/support/ws-proxy.ts) in front of PostgreSQL, for a
 * test that cuts its connections; the Neon driver's proxy setting is global, so every connection
 * the process opens afterwards goes through it.
 */
export async function openTestDatabase(
  backend: Backend,
  label = 'test',
  { wsProxy = inject('wsProxy') }: { wsProxy?: string } = {},
): Promise<TestDatabase> {
  const featured = featuredAgentFrom(parseEnv({}));
  let db: Db;
  let dropDatabase = async () => {};
  if (backend === 'pglite') {
    db = await openPglite(undefined);
  } else {
    const name = uniqueDatabaseName(label);
    await adminQuery(`CREATE DATABASE "${name}"`);
    db = openNeon(withDatabase(inject('postgresUrl'), name), { wsProxy });
    dropDatabase = () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  try {
    await migrate(db);
    const { agentId } = await seed(db, featured);
    let closed = false;
    return {
      backend,
      db,
      featuredAgent: { ...featured, id: agentId },
      async close() {
        if (closed) return;
        closed = true;
        await db.close().catch(() => undefined);
        await dropDatabase();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    await dropDatabase().catch(() => undefined);
    throw error;
  }
}
