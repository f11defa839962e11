// Serves the built site (dist/) and the API on one port, routed like production.
import { appDepsFrom } from '../src/server/compose.ts';
import { openDatabase } from '../src/server/database.ts';
import { parseEnv } from '../src/server/env.ts';
import { listen } from '../src/server/local-server.ts';
import { deliverDueEmail, syncDueLeads } from '../src/server/scheduled-jobs.ts';
import { createSiteServer } from '../src/server/site-server.ts';

const env = parseEnv();
const db = await openDatabase(env);
const deps = appDepsFrom(env, db);
const { server, url } = await listen(createSiteServer(deps, 'dist'), env.PORT, process.env.HOST ?? '127.0.0.1');
console.log(`Site and API at ${url} (database: ${db.kind})`);

// The scheduled functions' work (e-mail retries, CRM syncs), one run at a time, every
// JOBS_EVERY_MS; on Netlify they run from their own schedules.
let running = false;
const jobs = setInterval(() => {
  if (running) return;
  running = true;
  void Promise.all([deliverDueEmail(db, deps), syncDueLeads(db, deps)])
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
