import { planFromEnv } from '../../src/features/market/feeds.server.ts';
import { runBackgroundJob } from '../../src/app/background-job.ts';
import {
  backgroundRequestSchema,
  backgroundSecret,
  carriesBackgroundSecret,
} from '../../src/platform/background-work.ts';
import { edgePurgerFor } from '../../src/app/compose.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { deployContextOf, type InvocationContext } from '../../src/platform/function-instance.ts';
import { secretFrom } from '../../src/platform/secrets.ts';

/**
 * A background function (up to 15 minutes): the market-data imports (src/platform/background-work.ts).
 * Started by the daily refresh-market-data function (`scheduled-refresh`: every configured feed)
 * and by the API (`imports`: the runs an admin queued on /admin/data), both sending the secret
 * derived from SESSION_SECRET. Netlify serves this function at a public address, so anything else
 * is refused before the database or the network is touched. Each run is recorded in data_runs;
 * what changed marks the site as needing a rebuild (migration 0015's trigger), and the API's cached
 * market answers are purged (never from a deploy preview, whose database is its own: decision 0030).
 */
export default async (request: Request, context: InvocationContext): Promise<void> => {
  const env = parseEnv(process.env, { deployContext: deployContextOf(context) });
  if (!carriesBackgroundSecret(request, backgroundSecret(secretFrom(env, 'SESSION_SECRET')))) {
    console.warn('[refresh-market-data-background] refused: the request does not carry the background secret');
    return;
  }
  const asked = backgroundRequestSchema.safeParse(await request.json().catch(() => null));
  if (!asked.success) {
    console.warn('[refresh-market-data-background] refused: the request does not say which job to run');
    return;
  }
  const db = await openDatabase(env);
  const purger = edgePurgerFor(env);
  try {
    const runs = await runBackgroundJob(db, asked.data.job, {
      feeds: () => planFromEnv(env),
      // The data is saved either way; a failed purge leaves the CDN's copies to their TTL (decision 0020).
      purge: (tags) => purger(tags).catch((error: unknown) => console.error('[refresh] purge failed:', error)),
    });
    for (const run of runs) console.info(`[refresh] ${run.source}: ${run.status} ${run.error ?? ''}`);
  } finally {
    await db.close();
  }
};
