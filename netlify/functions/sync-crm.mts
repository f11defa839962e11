import type { Config, Context } from '@netlify/functions';
import { crmFrom } from '../../src/app/compose/crm.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { perInstance } from '../../src/platform/function-instance.ts';
import { syncDueLeads } from '../../src/app/jobs/sync-crm.ts';

// Only what this job runs: the function's zip carries nothing else (decision 0026); built at the
// first invocation, whose deploy context decides the database and the providers (decision 0030).
const jobOf = perInstance(async (env) => ({ db: await openDatabase(env), deps: { crm: crmFrom(env) } }));

/**
 * Every minute: sends the Follow Up Boss syncs that are due (retries after 429, 5xx and network
 * errors, and those whose request ended before FUB answered). Never the same lead twice once synced.
 */
export default async (_request: Request, context: Context): Promise<Response> => {
  const { db, deps } = await jobOf(context);
  const { synced, retrying, stopped, ignored, rejected } = await syncDueLeads(db, deps);
  console.info(
    `[sync-crm] synced ${synced}, retrying ${retrying}, stopped ${stopped}, ignored ${ignored}, rejected ${rejected}`,
  );
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
