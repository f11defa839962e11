import type { Config } from '@netlify/functions';
import { crmFrom } from '../../src/server/compose/crm.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';
import { syncDueLeads } from '../../src/server/jobs/sync-crm.ts';

const env = parseEnv();
const db = await openDatabase(env);
// Only what this job runs: the function's zip carries nothing else (decision 0026).
const deps = { crm: crmFrom(env) };

/**
 * Every minute: sends the Follow Up Boss syncs that are due (retries after 429, 5xx and network
 * errors, and those whose request ended before FUB answered). Never the same lead twice once synced.
 */
export default async (): Promise<Response> => {
  const { synced, retrying, stopped, ignored, rejected } = await syncDueLeads(db, deps);
  console.info(
    `[sync-crm] synced ${synced}, retrying ${retrying}, stopped ${stopped}, ignored ${ignored}, rejected ${rejected}`,
  );
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
