import type { Config, Context } from '@netlify/functions';
import { appDepsFrom } from '../../src/server/compose.ts';
import { openDatabase } from '../../src/server/database.ts';
import { perInstance } from '../../src/server/function-instance.ts';
import { deliverDueEmail } from '../../src/server/scheduled-jobs.ts';

const jobOf = perInstance(async (env) => {
  const db = await openDatabase(env);
  return { db, deps: appDepsFrom(env, db) };
});

/**
 * Every 5 minutes: sends whatever e-mail is due, i.e. retries of failed attempts and anything the
 * API queued but could not deliver right after its response.
 */
export default async (_request: Request, context: Context): Promise<Response> => {
  const { db, deps } = await jobOf(context);
  const { sent, retrying, failed, suppressed } = await deliverDueEmail(db, deps);
  console.info(`[deliver-email] sent ${sent}, retrying ${retrying}, failed ${failed}, suppressed ${suppressed}`);
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '*/5 * * * *' };
