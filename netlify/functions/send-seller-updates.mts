import type { Config, Context } from '@netlify/functions';
import { authFrom } from '../../src/app/compose/auth.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { siteUrl } from '../../src/platform/env.ts';
import { perInstance } from '../../src/platform/function-instance.ts';
import { sendSellerUpdates } from '../../src/app/jobs/seller-updates.ts';

// Only what this job runs: the function's zip carries nothing else (decision 0026); built at the
// first invocation, whose deploy context decides the database (decision 0030).
const jobOf = perInstance(async (env) => ({
  db: await openDatabase(env),
  deps: { siteUrl: siteUrl(env), auth: authFrom(env) },
}));

/**
 * Every 15 minutes: writes the seller updates due now (inside the site's sending window, Long Island
 * hours) and queues their e-mails for deliver-email. Never the same update twice, even when two runs overlap.
 * Also sweeps the active rule over the last two hours' signals (the job's own comment says why).
 */
export default async (_request: Request, context: Context): Promise<Response> => {
  const { db, deps } = await jobOf(context);
  const { due, sent, skipped, idle, activated } = await sendSellerUpdates(db, deps);
  console.info(
    `[send-seller-updates] due ${due}, sent ${sent}, skipped ${skipped}${idle ? ` (${idle})` : ''}, active ${activated}`,
  );
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '*/15 * * * *' };
