/**
 * Webhooks (issue 26) over HTTP on both backends, against a local receiver that verifies every
 * request with the `standardwebhooks` reference implementation (tests/fakes/webhook-receiver.ts):
 * adding an endpoint (its secret shown once), a lead delivered signed after the answer with the
 * person, the property, the source and the estimate, the delivery's log, the site's endpoints, the
 * refusals, rotation with an overlap, the test event, and removal.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  webhookDeliveriesSchema,
  webhookListSchema,
  webhookSavedSchema,
  webhookSecretAnswerSchema,
  webhookTestAnswerSchema,
} from '../../src/features/webhooks/public/webhooks.ts';
import { startWebhookReceiver } from '../fakes/webhook-receiver.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createEstimate } from '../support/estimates.ts';
import { createAgent, type AgentRow } from '../support/fixtures.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';

const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());

const WEBHOOK_TEST_SECRET = 'webhooks-test-encryption-secret-0123456789';

const payloadSchema = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.object({
    lead: z.object({
      id: z.number(),
      created_at: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      property_address: z.string().nullable(),
      source: z.string(),
      page_url: z.string().nullable(),
    }),
    estimate: z
      .object({ uuid: z.string(), url: z.string(), sale_price: z.number(), net_to_seller: z.number() })
      .nullable(),
    agent: z.object({ slug: z.string(), name: z.string(), page_url: z.string() }),
  }),
});

describe.each(BACKENDS)('webhooks on %s', (backend) => {
  const suite = useAuthSuite(backend, 'webhooks', {
    webhooks: { secret: WEBHOOK_TEST_SECRET, timeoutMs: 1_000 },
  });

  async function agentWithClient(overrides: { is_admin?: boolean } = {}): Promise<{ agent: AgentRow; client: Client }> {
    const agent = await createAgent(suite.db, overrides);
    return { agent, client: await clientAs(suite, agent.id) };
  }

  const addEndpoint = (client: Client, body: Record<string, unknown>, base = '/api/webhooks') =>
    client.post(base, { url: receiver.url(), events: ['lead.created'], ...body });

  async function visitorLead(agent: AgentRow, email = `seller.${Date.now()}.${Math.random()}@example.com`) {
    const estimate = await createEstimate(suite.api, agent.slug);
    const response = await suite.client().post('/api/leads', {
      agent_id: agent.id,
      first_name: 'Dana',
      last_name: 'Lopez',
      email,
      phone: '(631) 555-0142',
      address: '12 Oak Lane, Garden City, NY 11530',
      consent_marketing: true,
      estimate_uuid: estimate.uuid,
    });
    expect(response.status).toBe(201);
    const { lead } = z.object({ lead: z.object({ id: z.number() }) }).parse(await response.json());
    return { estimate, leadId: lead.id, email };
  }

  const receivedFor = (email: string) =>
    receiver.received.filter(
      (one) => one.body.includes(`"email": "${email}"`) || one.body.includes(`"email":"${email}"`),
    );

  it('adds an endpoint, shows its secret once, and delivers a new lead signed, after the answer', async () => {
    receiver.reset();
    const { agent, client } = await agentWithClient();
    const added = await expectJson(
      await addEndpoint(client, { description: 'Zapier', events: ['lead.created', 'lead.updated'] }),
      201,
      webhookSecretAnswerSchema,
    );
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(added.endpoint).toMatchObject({
      url: receiver.url(),
      description: 'Zapier',
      active: true,
      last_delivery: null,
    });
    const listed = await expectJson(await client.get('/api/webhooks'), 200, webhookListSchema);
    expect(listed.endpoints.map((endpoint) => endpoint.id)).toEqual([added.endpoint.id]);
    expect(JSON.stringify(listed)).not.toContain(added.secret);
    const [stored] = await suite.db.query<{ secret_encrypted: string }>(
      'SELECT secret_encrypted FROM webhook_endpoints WHERE id = $1',
      [added.endpoint.id],
    );
    expect(stored?.secret_encrypted).not.toContain(added.secret.slice(6));

    receiver.verifyWith(added.secret);
    const { estimate, leadId, email } = await visitorLead(agent);
    await suite.settle();
    const got = receivedFor(email);
    expect(got).toHaveLength(1);
    const [delivery] = got;
    expect(delivery?.verified).toBe(true);
    expect(delivery?.id).toMatch(/^msg_/);
    const body = payloadSchema.parse(JSON.parse(delivery?.body ?? ''));
    expect(body.type).toBe('lead.created');
    expect(body.data.lead).toMatchObject({
      id: leadId,
      first_name: 'Dana',
      last_name: 'Lopez',
      email,
      property_address: '12 Oak Lane, Garden City, NY 11530',
    });
    expect(body.data.lead.phone).toBe('(631) 555-0142');
    expect(body.data.estimate).toMatchObject({ uuid: estimate.uuid, sale_price: estimate.sale_price });
    expect(body.data.estimate?.url).toMatch(new RegExp(`/estimate/${estimate.uuid}$`));
    expect(body.data.estimate?.net_to_seller).toBe(estimate.net_to_seller);
    expect(body.data.agent.slug).toBe(agent.slug);

    const log = await expectJson(
      await client.get(`/api/webhooks/${added.endpoint.id}/deliveries`),
      200,
      webhookDeliveriesSchema,
    );
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ event_type: 'lead.created', status: 'delivered', attempts: 1 });
    expect(log.deliveries[0]?.message_id).toBe(delivery?.id);
    expect(log.deliveries[0]?.attempts_log[0]).toMatchObject({
      outcome: 'delivered',
      http_status: 200,
      response_head: '{"ok":true}',
    });
  });

  it("names an embedded calculator's host page only when the agent lists its site", async () => {
    receiver.reset();
    const { agent, client } = await agentWithClient();
    await expectJson(await addEndpoint(client, {}), 201, webhookSecretAnswerSchema);
    await suite.db.query(`INSERT INTO agent_settings (agent_id, embed_origins) VALUES ($1, $2::text[])`, [
      agent.id,
      ['https://www.agent-site.com'],
    ]);
    const pageOf = async (hostPage: string) => {
      const email = `embed.${Math.random().toString(36).slice(2)}@example.com`;
      const response = await suite.client().post('/api/leads', {
        agent_id: agent.id,
        first_name: 'Ari',
        last_name: 'Stone',
        email,
        phone: '(631) 555-0100',
        consent_marketing: true,
        source: 'embed',
        page: `/embed/${agent.slug}`,
        host_page: hostPage,
      });
      expect(response.status, await response.clone().text()).toBe(201);
      await suite.settle();
      const [got] = receivedFor(email);
      return payloadSchema.parse(JSON.parse(got?.body ?? '{}')).data.lead;
    };
    expect(await pageOf('https://www.agent-site.com/sell?email=x@example.com')).toMatchObject({
      source: 'embed',
      page_url: 'https://www.agent-site.com/sell',
    });
    // Any page may claim any address: one not on the list is never passed on as the lead's page.
    expect((await pageOf('https://elsewhere.example.com/page')).page_url).toBe(`${TEST_SITE_URL}/embed/${agent.slug}`);
  });

  it("sends a lead only to its agent's endpoints and the site's, and never to another agent's", async () => {
    receiver.reset();
    const { agent, client } = await agentWithClient();
    const { client: other } = await agentWithClient();
    const { client: admin } = await agentWithClient({ is_admin: true });
    await expectJson(await addEndpoint(client, { url: receiver.url('/mine') }), 201, webhookSecretAnswerSchema);
    const otherOne = await expectJson(
      await addEndpoint(other, { url: receiver.url('/other') }),
      201,
      webhookSecretAnswerSchema,
    );
    const site = await expectJson(
      await addEndpoint(admin, { url: receiver.url('/site') }, '/api/admin/webhooks'),
      201,
      webhookSecretAnswerSchema,
    );
    const { email } = await visitorLead(agent);
    await suite.settle();
    expect(receivedFor(email)).toHaveLength(2);
    // The other agent's endpoint got nothing, and its log is its own.
    const log = await expectJson(
      await other.get(`/api/webhooks/${otherOne.endpoint.id}/deliveries`),
      200,
      webhookDeliveriesSchema,
    );
    expect(log.deliveries).toEqual([]);
    await expectError(await client.get(`/api/webhooks/${otherOne.endpoint.id}/deliveries`), 404, 'Endpoint not found');
    await expectError(await client.get(`/api/webhooks/${site.endpoint.id}/deliveries`), 404);
    // The site's routes are the admins'.
    await expectError(await client.get('/api/admin/webhooks'), 403);
    await expectError(await suite.client().get('/api/webhooks'), 401);
    await suite.db.query('DELETE FROM webhook_endpoints WHERE id = $1', [site.endpoint.id]);
  });

  it('refuses addresses and events it cannot use, each on its field', async () => {
    const { client } = await agentWithClient();
    const refused = async (body: Record<string, unknown>, field: string, message: RegExp) => {
      const error = await expectError(await addEndpoint(client, body), 400);
      expect(error.fields[field], JSON.stringify(error)).toMatch(message);
    };
    await refused({ url: 'ftp://example.com/hook' }, 'url', /https/);
    await refused({ url: `http://user:pass@127.0.0.1:9/hook` }, 'url', /user name and password/);
    await refused({ url: 'not an address' }, 'url', /\S/);
    await refused({ events: [] }, 'events', /at least one event/);
    await refused({ events: ['lead.deleted'] }, 'events', /from the list/);
    await refused({ url: 'http://10.0.0.1/hook' }, 'url', /private network/);
    await refused({ url: 'http://[fd00:ec2::254]/latest' }, 'url', /private network/);
    const listed = await expectJson(await client.get('/api/webhooks'), 200, webhookListSchema);
    expect(listed.endpoints).toEqual([]);
  });

  it('rotates the secret with an overlap: both sign, and the old one verifies until it ends', async () => {
    receiver.reset();
    const { agent, client } = await agentWithClient();
    const added = await expectJson(await addEndpoint(client, {}), 201, webhookSecretAnswerSchema);
    const rotated = await expectJson(
      await client.post(`/api/webhooks/${added.endpoint.id}/rotate-secret`, {}),
      200,
      webhookSecretAnswerSchema,
    );
    expect(rotated.secret).not.toBe(added.secret);
    expect(rotated.endpoint.previous_secret_until).not.toBeNull();
    receiver.verifyWith(added.secret);
    const first = await visitorLead(agent);
    await suite.settle();
    expect(receivedFor(first.email).map((one) => one.verified)).toEqual([true]);
    expect(receivedFor(first.email)[0]?.signature.split(' ')).toHaveLength(2);
    receiver.verifyWith(rotated.secret);
    const second = await visitorLead(agent);
    await suite.settle();
    expect(receivedFor(second.email).map((one) => one.verified)).toEqual([true]);
    // After the overlap only the new secret signs.
    await suite.db.query(
      `UPDATE webhook_endpoints SET previous_secret_until = now() - interval '1 second' WHERE id = $1`,
      [added.endpoint.id],
    );
    receiver.verifyWith(added.secret);
    const third = await visitorLead(agent);
    await suite.settle();
    expect(receivedFor(third.email).map((one) => one.verified)).toEqual([false]);
    expect(receivedFor(third.email)[0]?.signature.split(' ')).toHaveLength(1);
  });

  it('sends a test event and says what the receiver did, truthfully', async () => {
    receiver.reset();
    const { client } = await agentWithClient();
    const added = await expectJson(
      await addEndpoint(client, { events: ['lead.created'] }),
      201,
      webhookSecretAnswerSchema,
    );
    receiver.verifyWith(added.secret);
    const sent = await expectJson(
      await client.post(`/api/webhooks/${added.endpoint.id}/test`, {}),
      200,
      webhookTestAnswerSchema,
    );
    expect(sent.delivered).toBe(true);
    expect(sent.message).toMatch(/^Delivered: the receiver answered 200 in \d+ ms\.$/);
    const [got] = receiver.received;
    expect(got?.verified).toBe(true);
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({ type: 'lead.created', data: { test: true } });

    receiver.plan({ status: 500, body: 'boom' });
    const failed = await expectJson(
      await client.post(`/api/webhooks/${added.endpoint.id}/test`, {}),
      200,
      webhookTestAnswerSchema,
    );
    expect(failed.delivered).toBe(false);
    expect(failed.message).toBe('Not delivered: The receiver answered 500.');
    expect(failed.delivery.attempts_log[0]).toMatchObject({ http_status: 500, response_head: 'boom' });

    const off = await expectJson(
      await client.request(`/api/webhooks/${added.endpoint.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', origin: suite.api.origin },
        body: JSON.stringify({ active: false }),
      }),
      200,
      webhookSavedSchema,
    );
    expect(off.endpoint.active).toBe(false);
    await expectError(await client.post(`/api/webhooks/${added.endpoint.id}/test`, {}), 409);
  });

  it('removes an endpoint: nothing more is sent to it, and another agent cannot remove it', async () => {
    receiver.reset();
    const { agent, client } = await agentWithClient();
    const { client: other } = await agentWithClient();
    const added = await expectJson(await addEndpoint(client, {}), 201, webhookSecretAnswerSchema);
    const remove = (who: Client) =>
      who.request(`/api/webhooks/${added.endpoint.id}`, { method: 'DELETE', headers: { origin: suite.api.origin } });
    await expectError(await remove(other), 404);
    expect((await remove(client)).status).toBe(200);
    const { email } = await visitorLead(agent);
    await suite.settle();
    expect(receivedFor(email)).toEqual([]);
  });
});
