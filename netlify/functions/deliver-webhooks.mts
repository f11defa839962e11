import type { Config, Context } from '@netlify/functions';
import { webhooksFrom } from '../../src/app/compose/webhooks.ts';
import { deliverDueWebhooks } from '../../src/app/jobs/deliver-webhooks.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { perInstance } from '../../src/platform/function-instance.ts';

// Only what this job runs: the function's zip carries nothing else (decision 0026); built at the
// first invocation, whose deploy context decides the database (decision 0030).
const jobOf = perInstance(async (env) => ({ db: await openDatabase(env), deps: { webhooks: webhooksFrom(env) } }));

/**
 * Every minute: sends the webhook deliveries that are due (retries after 5xx, 429, timeouts and
 * network errors, and those whose request ended before sending them). Never again once accepted.
 */
export default async (_request: Request, context: Context): Promise<Response> => {
  const { db, deps } = await jobOf(context);
  const { claimed, delivered, retrying, failed, stopped } = await deliverDueWebhooks(db, deps);
  console.info(
    `[deliver-webhooks] claimed ${claimed}, delivered ${delivered}, retrying ${retrying}, failed ${failed}, stopped ${stopped}`,
  );
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
