// Child process of bench-load: the market data refresh (refreshMarketData, as npm run data:refresh
// and the scheduled function run it) in a loop on DATABASE_URL while the load runs. Its files are
// made by tests/fixtures/write-market-files.ts for two days two months apart, taken in turn, so each
// refresh rewrites the towns' values and sold homes instead of finding them unchanged. It loops from
// a "start" message until a "stop" message, then answers with what it did once the refresh under
// way has ended.
import { join } from 'node:path';
import { csvFromFile, soldFromFile, type RefreshPlan } from '../../src/features/market/feeds.server.ts';
import { refreshMarketData } from '../../src/features/market/refresh.server.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { writeMarketFiles } from '../../tests/fixtures/write-market-files.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const env = parseEnv();
const now = Date.now();
async function planOf(daysBack: number): Promise<RefreshPlan> {
  const files = writeMarketFiles(join(env.DATA_DIR, `market-${daysBack}`), new Date(now - daysBack * DAY_MS));
  return { zhvi: csvFromFile(files.zhvi), sold: await soldFromFile(files.sold) };
}
const recent = await planOf(0);
const older = await planOf(61);
const db = await openDatabase(env);

/** Refreshes whose every run succeeded, those with a failed run (and its error), and those that changed data. */
const done: { completed: number; failed: number; changed: number; errors: string[] } = {
  completed: 0,
  failed: 0,
  changed: 0,
  errors: [],
};
let stopping = false;
let loop: Promise<void> | undefined;

async function refreshUntilStopped(): Promise<void> {
  for (let plan = recent; !stopping; plan = plan === recent ? older : recent) {
    const { runs, changed } = await refreshMarketData(db, plan);
    const failed = runs.filter((run) => run.status === 'failed');
    if (failed.length === 0) done.completed += 1;
    else done.failed += 1;
    if (changed) done.changed += 1;
    done.errors.push(...failed.map((run) => `${run.source}: ${run.error ?? 'unknown error'}`));
  }
}

process.on('message', (message) => {
  if (message === 'start') {
    loop = refreshUntilStopped();
    process.send?.({ started: true });
  }
  if (message === 'stop') {
    stopping = true;
    void (loop ?? Promise.resolve())
      .catch((error: unknown) => {
        done.failed += 1;
        done.errors.push(error instanceof Error ? error.message : String(error));
      })
      .then(async () => {
        process.send?.(done);
        await db.close();
        process.disconnect();
      });
  }
});
console.log('READY');
