import { planFromEnv, refreshMarketData } from '../../src/features/market/refresh.server.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';

/**
 * A background function (up to 15 minutes): runs every configured feed, each recorded in data_runs.
 * What changed marks the site as needing a rebuild (migration 0015's trigger); the rebuild-site
 * scheduled function calls the build hook once the changes have settled, recorded in site_builds,
 * so a refresh is not built twice.
 */
export default async (): Promise<void> => {
  const env = parseEnv();
  const db = await openDatabase(env);
  try {
    const { runs } = await refreshMarketData(db, planFromEnv(env));
    for (const run of runs) console.info(`[refresh] ${run.source}: ${run.status} ${run.error ?? ''}`);
  } finally {
    await db.close();
  }
};
