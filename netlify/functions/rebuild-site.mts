import type { Config, Context } from '@netlify/functions';
import { siteBuildsFrom } from '../../src/app/compose/site-builds.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { perInstance } from '../../src/platform/function-instance.ts';
import { rebuildSiteWhenDue } from '../../src/app/jobs/rebuild-site.ts';

// Only what this job runs: the function's zip carries nothing else (decision 0026); built at the
// first invocation, whose deploy context decides the database and the providers (decision 0030).
const jobOf = perInstance(async (env) => {
  const db = await openDatabase(env);
  return { env, db, deps: { siteBuilds: siteBuildsFrom(env, db) } };
});

/**
 * Every minute: calls the build hook once the changes to what the static pages show have settled
 * for REBUILD_DEBOUNCE_MS (and no build runs), each build recorded in site_builds.
 */
export default async (_request: Request, context: Context): Promise<Response> => {
  const { env, db, deps } = await jobOf(context);
  const outcome = await rebuildSiteWhenDue(db, deps, env.REBUILD_DEBOUNCE_MS);
  await deps.siteBuilds?.idle();
  console.info(`[rebuild-site] ${outcome}`);
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
