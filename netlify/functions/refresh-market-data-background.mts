import { planFromEnv, refreshMarketData } from '../../src/features/market/refresh.server.ts';
import { openDatabase } from '../../src/server/database.ts';
import { defaultEdgePurger, marketTagsOf } from '../../src/server/edge-cache.ts';
import { parseEnv } from '../../src/server/env.ts';

/**
 * A background function (up to 15 minutes): runs every configured feed, each recorded in data_runs.
 * What changed marks the site as needing a rebuild (migration 0015's trigger); the rebuild-site
 * scheduled function calls the build hook once the changes have settled, recorded in site_builds,
 * so a refresh is not built twice. The API's cached market answers are purged once the data changed.
 */
export default async (): Promise<void> => {
  const env = parseEnv();
  const db = await openDatabase(env);
  try {
    const { runs } = await refreshMarketData(db, planFromEnv(env));
    for (const run of runs) console.info(`[refresh] ${run.source}: ${run.status} ${run.error ?? ''}`);
    // The data is saved either way; a failed purge leaves the CDN's copies to their TTL (decision 0020).
    await defaultEdgePurger()(marketTagsOf(runs)).catch((error: unknown) =>
      console.error('[refresh] purge failed:', error),
    );
  } finally {
    await db.close();
  }
};
