// npm run bench:webhooks — one scheduled run of the webhooks job (deliverDueWebhooks, as
// netlify/functions/deliver-webhooks.mts runs it) sending 1,000 due deliveries to a receiver on this
// machine's loopback, on PGlite and on a real PostgreSQL through the Neon driver: deliveries per
// second, and the same as a ratio against a baseline measured in the same run: the same 1,000 signed
// POSTs sent straight to the same receiver with the job's concurrency and no database (the ceiling
// the sender itself allows). Each run checks every delivery was taken once.
import { createServer } from 'node:http';
import { deliverDueWebhooks } from '../src/app/jobs/deliver-webhooks.ts';
import { postWebhook } from '../src/features/webhooks/post-webhook.server.ts';
import {
  WEBHOOK_SECRET_CONTEXT,
  type WebhookContext,
} from '../src/features/webhooks/public/webhook-deliveries.server.ts';
import { newWebhookSecret, webhookHeaders } from '../src/features/webhooks/standard-webhooks.server.ts';
import { seed } from '../src/app/seed.ts';
import type { Db } from '../src/platform/db.ts';
import { encrypt } from '../src/platform/encryption.ts';
import { parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { loopbackOnlyResolve } from '../tests/support/loopback-resolver.ts';
import { onBothBackends } from './bench/both-backends.ts';

const COUNT = 1_000;
const KEY = 'bench-webhooks-encryption-key-0123456789abcdef';
const context: WebhookContext = { secret: KEY, allowLoopback: true, resolve: loopbackOnlyResolve };
const BODY = JSON.stringify({ type: 'lead.created', timestamp: new Date().toISOString(), data: { lead: { id: 1 } } });

// The receiver: reads each body and answers 200, counting the webhook-ids it took.
const taken = new Map<string, number>();
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const id = String(request.headers['webhook-id'] ?? '');
    taken.set(id, (taken.get(id) ?? 0) + 1);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const address = receiver.address();
if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
const url = `http://127.0.0.1:${address.port}/hooks`;

/** The ceiling: COUNT signed POSTs straight to the receiver, 8 at a time (the job's concurrency). */
async function baseline(): Promise<number> {
  const secret = newWebhookSecret();
  const queue = Array.from({ length: COUNT }, (_, index) => `msg_baseline_${index}`);
  const started = performance.now();
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const headers = webhookHeaders({
        secrets: [secret],
        id,
        timestampSeconds: Math.floor(Date.now() / 1000),
        body: BODY,
      });
      const outcome = await postWebhook(url, BODY, headers, { allowLoopback: true, resolve: loopbackOnlyResolve });
      if (outcome.kind !== 'answered' || outcome.status !== 200)
        throw new Error(`baseline: ${JSON.stringify(outcome)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return COUNT / ((performance.now() - started) / 1000);
}

/** One scheduled run with COUNT deliveries due; answers deliveries per second. */
async function run(name: string, db: Db): Promise<number> {
  await migrate(db);
  const { agentId } = await seed(db, featuredAgentFrom(parseEnv({})));
  const [endpoint] = await db.query<{ id: number }>(
    `INSERT INTO webhook_endpoints (agent_id, url, events, secret_encrypted)
     VALUES ($1, $2, ARRAY['lead.created'], $3) RETURNING id`,
    [agentId, url, encrypt(newWebhookSecret(), KEY, WEBHOOK_SECRET_CONTEXT)],
  );
  await db.query(
    `INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, payload)
     SELECT $1, 'msg_' || $2 || '_' || n, 'lead.created', $3::jsonb FROM generate_series(1, $4) AS n`,
    [endpoint?.id, name, BODY, COUNT],
  );
  const started = performance.now();
  // One scheduled run: its batches until nothing is due, within the job's budget.
  const { delivered } = await deliverDueWebhooks(db, { webhooks: context });
  const seconds = (performance.now() - started) / 1000;
  const once = [...taken].filter(([id, times]) => id.startsWith(`msg_${name}_`) && times === 1).length;
  if (delivered !== COUNT || once !== COUNT) throw new Error(`${name}: ${delivered} delivered, ${once} taken once`);
  return COUNT / seconds;
}

const ceiling = await baseline();
console.log(`baseline   ${COUNT} signed POSTs straight to the receiver: ${ceiling.toFixed(0)} per second`);
const report = (name: string, rate: number) =>
  console.log(
    `${name.padEnd(10)} ${COUNT} deliveries in one run: ${rate.toFixed(0)} per second, ${(rate / ceiling).toFixed(2)} of the baseline`,
  );

try {
  await onBothBackends(async (name, db) => report(name, await run(name.toLowerCase(), db)));
} finally {
  receiver.close();
}
