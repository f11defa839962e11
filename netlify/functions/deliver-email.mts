import type { Config, Context } from '@netlify/functions';
import { authFrom } from '../../src/app/compose/auth.ts';
import { emailFrom } from '../../src/app/compose/email.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { siteUrl } from '../../src/platform/env.ts';
import { perInstance } from '../../src/platform/function-instance.ts';
import { deliverDueEmail } from '../../src/app/jobs/deliver-email.ts';

// Only what this job runs: the function's zip carries nothing else (decision 0026); built at the
// first invocation, whose deploy context decides the database and the providers (decision 0030).
const jobOf = perInstance(async (env) => {
  const db = await openDatabase(env);
  return { db, deps: { email: emailFrom(env, db), siteUrl: siteUrl(env), auth: authFrom(env) } };
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
