import type { Config } from '@netlify/functions';
import { siteBuildsFrom } from '../../src/server/compose/site-builds.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';
import { rebuildSiteWhenDue } from '../../src/server/jobs/rebuild-site.ts';

const env = parseEnv();
const db = await openDatabase(env);
// Only what this job runs: the function's zip carries nothing else (decision 0026).
const deps = { siteBuilds: siteBuildsFrom(env, db) };

/**
 * Every minute: calls the build hook once the changes to what the static pages show have settled
 * for REBUILD_DEBOUNCE_MS (and no build runs), each build recorded in site_builds.
 */
export default async (): Promise<Response> => {
  const outcome = await rebuildSiteWhenDue(db, deps, env.REBUILD_DEBOUNCE_MS);
  await deps.siteBuilds?.idle();
  console.info(`[rebuild-site] ${outcome}`);
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
