import type { Config } from '@netlify/functions';
import { deliverQueued } from '../../src/features/email/email.server.ts';
import { unsubscribeLinks, unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import { appDepsFrom } from '../../src/server/compose.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';

const env = parseEnv();
const db = await openDatabase(env);
const { email, siteUrl, auth } = appDepsFrom(env, db);
// The same links as the API puts in the mail it delivers right away (src/server/app.ts).
const unsubscribe = unsubscribeLinks(siteUrl, unsubscribeSigner(auth.sessionKey));

/** Stop claiming new batches after this long; scheduled functions may run for 30 seconds. */
const TIME_BUDGET_MS = 20_000;
const BATCH = 50;

/**
 * Every 5 minutes: sends whatever e-mail is due, i.e. retries of failed attempts and anything the
 * API queued but could not deliver right after its response.
 */
export default async (): Promise<Response> => {
  const started = Date.now();
  const totals = { sent: 0, retrying: 0, failed: 0, suppressed: 0 };
  for (;;) {
    const report = await deliverQueued(db, email.provider, { from: email.from, unsubscribe, limit: BATCH });
    totals.sent += report.sent.length;
    totals.retrying += report.retrying.length;
    totals.failed += report.failed.length;
    totals.suppressed += report.suppressed.length;
    const claimed = report.sent.length + report.retrying.length + report.failed.length + report.suppressed.length;
    if (claimed < BATCH || Date.now() - started > TIME_BUDGET_MS) break;
  }
  console.info(
    `[deliver-email] sent ${totals.sent}, retrying ${totals.retrying}, failed ${totals.failed}, suppressed ${totals.suppressed}`,
  );
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '*/5 * * * *' };
