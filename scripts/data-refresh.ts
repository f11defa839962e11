// npm run data:refresh -- [--zhvi FILE.csv] [--inventory FILE.csv] [--sold FILE.json] [--rebuild]
// Imports market data and sold homes, from files or (without file options) from the feeds the
// environment configures. Runs against whatever DATABASE_URL names; the embedded database is
// locked, so stop a running `npm start` on the same DATA_DIR first (the command says so if needed).
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { triggerRebuild } from '../src/features/site-build/site-build.server.ts';
import { csvFromFile, planFromEnv, soldFromFile, type RefreshPlan } from '../src/features/market/feeds.server.ts';
import { refreshMarketData } from '../src/features/market/refresh.server.ts';
import { openDatabase } from '../src/platform/database.ts';
import { isProduction, parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { isSampleMarketFile, SAMPLE_MARKET_FILES, seed } from '../src/app/seed.ts';

const { values } = parseArgs({
  options: {
    zhvi: { type: 'string' },
    inventory: { type: 'string' },
    sold: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
  },
});
const env = parseEnv();
const fromFiles = Boolean(values.zhvi ?? values.inventory ?? values.sold);
// The shipped sample files (data/sample/) are imported as sample data: labelled on the town pages,
// replaced by a real import, and never into production.
const files = [values.zhvi, values.inventory, values.sold].filter((path) => path !== undefined);
const sample = files.some(isSampleMarketFile);
if (sample && isProduction(env)) {
  console.error('The files under data/sample/ are fictional sample data: they are not imported in production.');
  process.exit(1);
}
if (sample && !files.every(isSampleMarketFile)) {
  console.error('Import the sample files of data/sample/ on their own, not with real files.');
  process.exit(1);
}
const plan: RefreshPlan = fromFiles
  ? {
      ...(values.zhvi ? { zhvi: csvFromFile(values.zhvi) } : {}),
      ...(values.inventory ? { inventory: csvFromFile(values.inventory) } : {}),
      ...(values.sold ? { sold: await soldFromFile(values.sold) } : {}),
      ...(sample ? { sample, soldAsOf: SAMPLE_MARKET_FILES.asOf } : {}),
    }
  : planFromEnv(env);

let db;
try {
  db = await openDatabase(env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
let changed: boolean;
let failed = false;
try {
  await migrate(db);
  await seed(db, featuredAgentFrom(env), { demo: !isProduction(env), adminEmails: env.ADMIN_EMAILS });
  const result = await refreshMarketData(db, plan);
  changed = result.changed;
  for (const run of result.runs) {
    failed ||= run.status === 'failed';
    console.log(
      `${run.source} from ${run.origin}: ${run.status}` +
        (run.status === 'failed'
          ? ` (${run.error ?? 'unknown error'}); the previous data is kept`
          : `, ${run.rowsRead} rows read, ${run.rowsSkipped} skipped, ${run.townsUpdated} towns updated`),
    );
  }
} finally {
  await db.close();
}

if (changed) {
  if (env.BUILD_HOOK_URL) {
    await triggerRebuild(env.BUILD_HOOK_URL);
    console.log('Data changed: the Netlify build hook was called to rebuild the town pages.');
  } else if (values.rebuild) {
    const build = spawnSync('npx', ['astro', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  } else {
    console.log('Data changed: rebuild the town pages with `npm run build` (or run this again with --rebuild).');
  }
}
process.exitCode = failed ? 1 : 0;
