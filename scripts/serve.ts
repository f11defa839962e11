// Serves the built site (dist/) and the API on one port, routed like production.
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  builtDataAt,
  DIST,
  localBuilder,
  prepareBuildFolders,
  recordServedBuild,
  SITE_BUILDS_DIR,
} from '../src/app/local-build.server.ts';
import { siteBuilds } from '../src/features/site-build/site-build.server.ts';
import { appDepsFrom } from '../src/app/compose.ts';
import { emailProviderProblem } from '../src/app/compose/email.ts';
import { openDatabase } from '../src/platform/database.ts';
import { parseEnv } from '../src/platform/env.ts';
import { listen } from '../src/app/local-server.ts';
import {
  deliverDueEmail,
  deliverDueWebhooks,
  rebuildSiteWhenDue,
  sendSellerUpdates,
  syncDueLeads,
} from '../src/app/scheduled-jobs.ts';
import { webhooksFrom } from '../src/app/compose/webhooks.ts';
import { createSiteServer, siteFolder } from '../src/app/site-server.ts';

const env = parseEnv();
const db = await openDatabase(env);
// Production does not serve without an e-mail provider (security audit, finding 9).
const mailProblem = await emailProviderProblem(db, env);
if (mailProblem) {
  console.error(mailProblem);
  await db.close();
  process.exit(1);
}

// dist becomes a symlink to the served build under .data/site-builds; a rebuild (without
// BUILD_HOOK_URL) builds a new folder there and swaps it in while the site keeps serving. Not under
// DATA_DIR: dist is one for every DATA_DIR (the e2e runs use their own), and its builds with it.
const buildsDir = resolve(SITE_BUILDS_DIR);
prepareBuildFolders(DIST, buildsDir);
const folder = siteFolder(existsSync(DIST) ? realpathSync(DIST) : DIST);
// The build being served is the latest known one: a fresh build does not show "needs rebuild".
await recordServedBuild(db, builtDataAt(folder.site.root));

const configured = appDepsFrom(env, db);
const deps = {
  ...configured,
  siteBuilds: configured.siteBuilds ?? siteBuilds(db, localBuilder({ db, folder, link: DIST, buildsDir })),
};
const { server, url } = await listen(createSiteServer(deps, folder), env.PORT, env.HOST);
console.log(`Site and API at ${url} (database: ${db.kind})`);

// The scheduled functions' work (e-mail retries, CRM syncs, the automatic rebuild, seller updates, webhooks), one run at a
// time, every JOBS_EVERY_MS; on Netlify they run from their own schedules.
let running = false;
const jobs = setInterval(() => {
  if (running) return;
  running = true;
  void Promise.all([
    deliverDueEmail(db, deps),
    syncDueLeads(db, deps),
    rebuildSiteWhenDue(db, deps, env.REBUILD_DEBOUNCE_MS),
    sendSellerUpdates(db, deps),
    deliverDueWebhooks(db, { webhooks: webhooksFrom(env) }),
  ])
    .catch((error: unknown) => console.error('[jobs] a scheduled run failed:', error))
    .finally(() => {
      running = false;
    });
}, env.JOBS_EVERY_MS);

const stop = () => {
  clearInterval(jobs);
  server.close();
  void db.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
