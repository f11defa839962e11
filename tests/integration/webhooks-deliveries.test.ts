/**
 * Webhook deliveries (issue 26) on both backends against a local receiver: each is a job row written
 * with the lead, sent after the answer, retried on 5xx, 429 (Retry-After), timeouts and dropped
 * connections with the same webhook-id, accepted at most once, stopped on 410, failed at once on
 * another 4xx or a redirect; a failing endpoint never delays or loses a lead; a repeat with a newer
 * estimate is lead.updated; a seller who becomes active is seller.active.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { deliverDueWebhooks } from '../../src/app/jobs/deliver-webhooks.ts';
import { webhookDeliveriesSchema, webhookSecretAnswerSchema } from '../../src/features/webhooks/public/webhooks.ts';
import type { WebhookContext } from '../../src/features/webhooks/public/webhook-deliveries.server.ts';
import { startWebhookReceiver } from '../fakes/webhook-receiver.ts';
import { loopbackOnlyResolve } from '../support/loopback-resolver.ts';
import { estimateRenderer } from '../../src/app/compose/webhook-estimates.ts';
import { NASSAU } from '../support/net-sheet-api.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';
import { expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createEstimate } from '../support/estimates.ts';
import { createAgent, type AgentRow } from '../support/fixtures.ts';

const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());

const SECRET = 'webhook-deliveries-encryption-secret-012345';
const context: WebhookContext = { secret: SECRET, allowLoopback: true, timeoutMs: 300, resolve: loopbackOnlyResolve };

describe.each(BACKENDS)('webhook deliveries on %s', (backend) => {
  const suite = useAuthSuite(backend, 'webhookjobs', { webhooks: context });

  /** An agent with an endpoint at a path of its own, and what the receiver got there. */
  async function endpointOf(events: string[] = ['lead.created', 'lead.updated']) {
    const agent = await createAgent(suite.db);
    const client = await clientAs(suite, agent.id);
    const path = `/a${agent.id}`;
    const added = await expectJson(
      await client.post('/api/webhooks', { url: receiver.url(path), events }),
      201,
      webhookSecretAnswerSchema,
    );
    receiver.verifyWith(added.secret);
    const received = () => receiver.received.filter((one) => one.path === path);
    return { agent, client, endpoint: added.endpoint, received };
  }

  async function lead(
    agent: AgentRow,
    email = `s.${agent.id}.${Math.random().toString(36).slice(2)}@example.com`,
    estimateUuid?: string,
  ) {
    const estimate = estimateUuid ? { uuid: estimateUuid } : await createEstimate(suite.api, agent.slug);
    const response = await suite.client().post('/api/leads', {
      agent_id: agent.id,
      first_name: 'Sam',
      last_name: 'Rivera',
      email,
      phone: '(516) 555-0199',
      address: '7 Elm Street, Merrick, NY 11566',
      consent_marketing: true,
      estimate_uuid: estimate.uuid,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = z.object({ lead: z.object({ id: z.number() }) }).parse(await response.json()).lead;
    return { email, id, estimateUuid: estimate.uuid };
  }

  const rowsOf = (endpointId: number) =>
    suite.db.query<{ status: string; attempts: number; message_id: string }>(
      'SELECT status, attempts, message_id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id',
      [endpointId],
    );
  /** Makes the endpoint's waiting rows due now, as if their wait were over, and runs the scheduled job. */
  async function runDue(endpointId: number) {
    await suite.db.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() WHERE endpoint_id = $1 AND status = 'queued'`,
      [endpointId],
    );
    return deliverDueWebhooks(suite.db, { webhooks: context });
  }
  const logOf = async (client: Client, endpointId: number) =>
    (await expectJson(await client.get(`/api/webhooks/${endpointId}/deliveries`), 200, webhookDeliveriesSchema))
      .deliveries;

  it('retries 503, 429 (its Retry-After), a timeout and a dropped connection with one webhook-id, then is taken once', async () => {
    receiver.reset();
    const { agent, client, endpoint, received } = await endpointOf();
    receiver.plan({ status: 503 });
    await lead(agent);
    await suite.settle();
    let [row] = await rowsOf(endpoint.id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    // The wait set by the attempt: both times are the settling statement's now().
    const waitOf = async () => {
      const [wait] = await suite.db.query<{ seconds: number }>(
        `SELECT extract(epoch FROM d.next_attempt_at - t.at)::float AS seconds
           FROM webhook_deliveries d JOIN webhook_attempts t ON t.delivery_id = d.id
          WHERE d.endpoint_id = $1 ORDER BY t.id DESC LIMIT 1`,
        [endpoint.id],
      );
      return wait?.seconds;
    };
    expect(await waitOf()).toBe(5);
    receiver.plan({ status: 429, headers: { 'retry-after': '120' } });
    await runDue(endpoint.id);
    expect(await waitOf()).toBe(120);
    receiver.plan({ hang: true });
    await runDue(endpoint.id);
    receiver.plan({ drop: true });
    await runDue(endpoint.id);
    await runDue(endpoint.id);
    // Taken: nothing is sent again, however often the job runs.
    await runDue(endpoint.id);
    [row] = await rowsOf(endpoint.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 5 });
    expect(received().map((one) => one.answered)).toEqual([503, 429, 'hang', 'drop', 200]);
    expect(new Set(received().map((one) => one.id))).toEqual(new Set([row?.message_id]));
    expect(received().every((one) => one.verified)).toBe(true);
    expect(receiver.accepted).toEqual([row?.message_id]);
    expect(receiver.acceptedTwice).toEqual([]);
    const [delivery] = await logOf(client, endpoint.id);
    expect(delivery?.attempts_log.map((attempt) => attempt.outcome)).toEqual([
      'delivered',
      'network',
      'timeout',
      'retry',
      'retry',
    ]);
  });

  it('stops an endpoint that answers 410, with its waiting rows, until it is turned on again', async () => {
    receiver.reset();
    const { agent, client, endpoint } = await endpointOf();
    receiver.plan({ status: 503 });
    await lead(agent);
    await suite.settle();
    receiver.plan({ status: 410 });
    await lead(agent);
    await suite.settle();
    expect((await rowsOf(endpoint.id)).map((row) => row.status)).toEqual(['stopped', 'stopped']);
    const [stopped] = await suite.db.query<{ active: boolean; stopped_reason: string }>(
      'SELECT active, stopped_reason FROM webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(stopped).toEqual({ active: false, stopped_reason: 'gone' });
    // Nothing more is queued for it while it is off.
    await lead(agent);
    await suite.settle();
    expect(await rowsOf(endpoint.id)).toHaveLength(2);
    const on = await client.request(`/api/webhooks/${endpoint.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: suite.api.origin },
      body: JSON.stringify({ active: true }),
    });
    expect(on.status).toBe(200);
    await lead(agent);
    await suite.settle();
    expect((await rowsOf(endpoint.id)).map((row) => row.status)).toEqual(['stopped', 'stopped', 'delivered']);
  });

  it('fails a message at once on a 4xx or a redirect, which it never follows', async () => {
    receiver.reset();
    const { agent, endpoint, received } = await endpointOf();
    receiver.plan({ status: 302, headers: { location: receiver.url('/elsewhere') } });
    await lead(agent);
    receiver.plan({ status: 400 });
    await lead(agent);
    await suite.settle();
    expect((await rowsOf(endpoint.id)).map((row) => [row.status, row.attempts])).toEqual([
      ['failed', 1],
      ['failed', 1],
    ]);
    expect(received().map((one) => one.answered)).toEqual([302, 400]);
    await runDue(endpoint.id);
    expect(received()).toHaveLength(2);
  });

  it('never delays or loses a lead for an endpoint that hangs', async () => {
    receiver.reset();
    const { agent, endpoint, received } = await endpointOf();
    receiver.plan({ hang: true }, 3);
    const stored = await Promise.all([lead(agent), lead(agent), lead(agent)]);
    const [count] = await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE agent_id = $1', [
      agent.id,
    ]);
    expect(count?.n).toBe(3);
    await suite.settle();
    expect((await rowsOf(endpoint.id)).map((row) => row.status)).toEqual(['queued', 'queued', 'queued']);
    const report = await runDue(endpoint.id);
    expect(report).toMatchObject({ claimed: 3, delivered: 3 });
    const bodies = received()
      .filter((one) => one.answered === 200)
      .map((one) => one.body);
    for (const { email } of stored) expect(bodies.filter((body) => body.includes(email))).toHaveLength(1);
  });

  it('sends estimate.created for quick and detailed estimates with the figures the API answered', async () => {
    receiver.reset();
    const { agent, endpoint, received } = await endpointOf(['estimate.created']);
    const quick = await createEstimate(suite.api, agent.slug);
    const detailedAnswer = await suite.api.postJson('/api/estimates', { agent_slug: agent.slug, ...NASSAU });
    expect(detailedAnswer.status).toBe(201);
    const detailed = z
      .object({ estimate: z.object({ uuid: z.string(), net_to_seller: z.number() }) })
      .parse(await detailedAnswer.json()).estimate;
    // Queued with the estimates, rendered and sent by a run that knows the site's address.
    expect(await rowsOf(endpoint.id)).toHaveLength(2);
    const report = await deliverDueWebhooks(suite.db, {
      webhooks: { ...context, renderEstimate: estimateRenderer(TEST_SITE_URL) },
    });
    expect(report).toMatchObject({ delivered: 2 });
    const bodies = received().map((one) =>
      z
        .object({
          type: z.literal('estimate.created'),
          data: z.object({
            estimate: z.object({ uuid: z.string(), url: z.string(), net_to_seller: z.number() }),
            agent: z.object({ slug: z.string() }),
          }),
        })
        .parse(JSON.parse(one.body)),
    );
    const byUuid = new Map(bodies.map((body) => [body.data.estimate.uuid, body.data.estimate]));
    expect(byUuid.get(quick.uuid)?.net_to_seller).toBe(quick.net_to_seller);
    expect(byUuid.get(detailed.uuid)?.net_to_seller).toBe(detailed.net_to_seller);
    expect(byUuid.get(quick.uuid)?.url).toBe(`${TEST_SITE_URL}/estimate/${quick.uuid}`);
    expect(received().every((one) => one.verified)).toBe(true);
    // The rendered body is kept: a retry sends the same bytes.
    const [stored] = await suite.db.query<{ payload: unknown }>(
      'SELECT payload FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id LIMIT 1',
      [endpoint.id],
    );
    expect(received().map((one): unknown => JSON.parse(one.body))).toContainEqual(stored?.payload);
  });

  it('sends lead.updated when a repeat brings a newer estimate, and nothing for a double submit', async () => {
    receiver.reset();
    const { agent, endpoint, received } = await endpointOf();
    const first = await lead(agent);
    // The same form sent again (the same estimate): the same lead, and nothing new to say.
    await lead(agent, first.email, first.estimateUuid);
    await lead(agent, first.email);
    await suite.settle();
    const types = received().map((one) => z.object({ type: z.string() }).parse(JSON.parse(one.body)).type);
    expect(types).toEqual(['lead.created', 'lead.updated']);
    const [, updated] = received();
    expect(JSON.parse(updated?.body ?? '{}')).toMatchObject({ data: { lead: { id: first.id } } });
    expect(await rowsOf(endpoint.id)).toHaveLength(2);
  });
});
