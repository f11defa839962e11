// What the benchmarks that compare the two backends share: `run` on an in-memory PGlite, then on a
// throwaway PostgreSQL 15 reached through the Neon driver and the WebSocket proxy (in its own
// process), each closed and stopped afterwards whatever happened.
import { openNeon, type Db } from '../../src/platform/db.ts';
import { openPglite } from '../../src/platform/pglite.ts';
import { start as startPostgres } from '../../tests/support/postgres.ts';
import { startChild } from './children.ts';

export async function onBothBackends(run: (name: 'PGlite' | 'PostgreSQL', db: Db) => Promise<void>): Promise<void> {
  const pglite = await openPglite(undefined);
  try {
    await run('PGlite', pglite);
  } finally {
    await pglite.close();
  }
  const postgres = await startPostgres();
  const proxy = await startChild('scripts/bench/ws-proxy-server.ts', {});
  const neon = openNeon(postgres.connectionString, { wsProxy: proxy.url });
  try {
    await run('PostgreSQL', neon);
  } finally {
    await neon.close().catch(() => undefined);
    proxy.child.kill();
    await postgres.stop();
  }
}
