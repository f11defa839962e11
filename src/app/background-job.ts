/**
 * The background work itself (started as background-work.ts says): the market-data imports, in the
 * background function on Netlify and in-process locally.
 */
import type { RunRecord } from '../features/market/data-runs.server.ts';
import { runQueuedImports, type MarketImportDeps } from '../features/market/market-imports.server.ts';
import { refreshMarketData } from '../features/market/refresh.server.ts';
import type { BackgroundJob } from '../platform/background-work.ts';
import type { Db } from '../platform/db.ts';
import { marketTagsOf } from '../platform/edge-cache.ts';

/** The job itself, wherever it runs: answers the runs it recorded. */
export async function runBackgroundJob(db: Db, job: BackgroundJob, deps: MarketImportDeps): Promise<RunRecord[]> {
  const refreshed: RunRecord[] = [];
  if (job === 'scheduled-refresh') {
    const { runs } = await refreshMarketData(db, deps.feeds());
    const tags = marketTagsOf(runs);
    if (tags.length > 0) await deps.purge(tags);
    refreshed.push(...runs);
  }
  return [...refreshed, ...(await runQueuedImports(db, deps))];
}
