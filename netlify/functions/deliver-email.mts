import type { Config } from '@netlify/functions';
import { authFrom } from '../../src/server/compose/auth.ts';
import { emailFrom } from '../../src/server/compose/email.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv, siteUrl } from '../../src/server/env.ts';
import { deliverDueEmail } from '../../src/server/jobs/deliver-email.ts';

const env = parseEnv();
const db = await openDatabase(env);
// Only what this job runs: the function's zip carries nothing else (decision 0026).
const deps = { email: emailFrom(env, db), siteUrl: siteUrl(env), auth: authFrom(env) };

/**
 * Every 5 minutes: sends whatever e-mail is due, i.e. retries of failed attempts and anything the
 * API queued but could not deliver right after its response.
 */
export default async (): Promise<Response> => {
  const { sent, retrying, failed, suppressed } = await deliverDueEmail(db, deps);
  console.info(`[deliver-email] sent ${sent}, retrying ${retrying}, failed ${failed}, suppressed ${suppressed}`);
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '*/5 * * * *' };
