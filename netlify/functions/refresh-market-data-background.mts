import { triggerRebuild } from '../../src/features/site-build/site-build.server.ts';
import { planFromEnv, refreshMarketData } from '../../src/features/market/refresh.server.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';

/**
 * A background function (up to 15 minutes): runs every configured feed, each recorded in
 * data_runs, and calls the build hook when data changed so the static town pages are rebuilt.
 */
export default async (): Promise<void> => {
  const env = parseEnv();
  const db = await openDatabase(env);
  try {
    const { runs, changed } = await refreshMarketData(db, planFromEnv(env));
    for (const run of runs) console.info(`[refresh] ${run.source}: ${run.status} ${run.error ?? ''}`);
    if (changed && env.BUILD_HOOK_URL) await triggerRebuild(env.BUILD_HOOK_URL);
  } finally {
    await db.close();
  }
};
