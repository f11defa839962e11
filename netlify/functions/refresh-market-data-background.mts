import type { Context } from '@netlify/functions';
import { planFromEnv, refreshMarketData } from '../../src/features/market/refresh.server.ts';
import { edgePurgerFor } from '../../src/server/compose.ts';
import { openDatabase } from '../../src/server/database.ts';
import { marketTagsOf } from '../../src/server/edge-cache.ts';
import { parseEnv } from '../../src/server/env.ts';
import { deployContextOf } from '../../src/server/function-instance.ts';

/**
 * A background function (up to 15 minutes): runs every configured feed, each recorded in data_runs.
 * What changed marks the site as needing a rebuild (migration 0015's trigger); the rebuild-site
 * scheduled function calls the build hook once the changes have settled, recorded in site_builds,
 * so a refresh is not built twice. The API's cached market answers are purged once the data changed
 * (never from a deploy preview, whose database is its own: decision 0030).
 */
export default async (_request: Request, context: Context): Promise<void> => {
  const env = parseEnv(process.env, { deployContext: deployContextOf(context) });
  const db = await openDatabase(env);
  try {
    const { runs } = await refreshMarketData(db, planFromEnv(env));
    for (const run of runs) console.info(`[refresh] ${run.source}: ${run.status} ${run.error ?? ''}`);
    // The data is saved either way; a failed purge leaves the CDN's copies to their TTL (decision 0020).
    await edgePurgerFor(env)(marketTagsOf(runs)).catch((error: unknown) =>
      console.error('[refresh] purge failed:', error),
    );
  } finally {
    await db.close();
  }
};
