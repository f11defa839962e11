/**
 * The webhook endpoints' routes (issue 26), for an agent (/api/webhooks: about their own leads) and
 * for the site (/api/admin/webhooks, admins: about every agent's leads). The same operations serve
 * both, declared once per scope: list, add (the secret answered this once), change, remove, rotate
 * the secret (the old one signs beside it for SECRET_OVERLAP_HOURS), send a test event, and read the
 * deliveries' log.
 *
 * Each answer is one statement that checks the session (and, for the site, the admin) as it reads or
 * writes; an endpoint of another owner answers as one that does not exist.
 */
import { lookup } from 'node:dns/promises';
import * as z from 'zod';
import { sessionAgentCte, sessionOf, sessionParams, assertAdmin } from '../auth/public/access.server.ts';
import { recordIdParam } from '../forms/public/record-id.ts';
import type { Db } from '../../platform/db.ts';
import { encrypt, resolveSecret } from '../../platform/encryption.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, created, ok, type Declare, type Operation } from '../../platform/operation.ts';
import { enforceRateLimits, rateCheck } from '../../platform/rate-limit.server.ts';
import { checkWebhookUrl, isLoopbackAddress, refusedAddressReason } from './address-guard.server.ts';
import { newWebhookSecret } from './standard-webhooks.server.ts';
import { deliverWebhooks, WEBHOOK_SECRET_CONTEXT, type WebhookContext } from './public/webhook-deliveries.server.ts';
import { sampleEventPayload } from './public/webhook-events.server.ts';
import {
  MAX_WEBHOOK_ENDPOINTS,
  SECRET_OVERLAP_HOURS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGES,
  webhookChangeSchema,
  webhookCreateSchema,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookListSchema,
  webhookSavedSchema,
  webhookSecretAnswerSchema,
  webhookTestAnswerSchema,
  type WebhookEndpoint,
} from './public/webhooks.ts';

export interface WebhookRoutesDeps {
  db: Db;
  webhooks: WebhookContext;
  /** Production: only https:// addresses, and no loopback. */
  production: boolean;
  siteUrl: (request: Request) => string;
}

/** Test events an owner may send to one endpoint in an hour: each is a request to an address they chose. */
export const TEST_EVENTS_PER_HOUR = { limit: 20, windowSeconds: 60 * 60 };
const DELIVERIES_SHOWN = 50;

const endpointParams = z.object({ id: recordIdParam('Endpoint id') });
const notFound = () => new HttpError(404, WEBHOOK_MESSAGES.notFound);

/** Whose endpoints a scope's routes see and write: the session's agent's, or the site's. */
interface Scope {
  base: string;
  access: 'agent' | 'admin';
  tag: string;
  /** SQL on `e` (an endpoint) and `me`: the endpoint is this scope's. */
  owns: string;
  /** SQL: the owner column's value for a new endpoint. */
  owner: string;
  site: boolean;
}

const SCOPES: readonly Scope[] = [
  { base: '/api/webhooks', access: 'agent', tag: 'Webhooks', owns: 'e.agent_id = me.id', owner: 'me.id', site: false },
  {
    base: '/api/admin/webhooks',
    access: 'admin',
    tag: 'Webhooks (site-wide)',
    owns: 'e.agent_id IS NULL',
    owner: 'NULL::integer',
    site: true,
  },
];

/** The endpoint columns of `e` as the screens read them (webhookEndpointSchema). */
const ENDPOINT_JSON = `json_build_object(
  'id', e.id, 'url', e.url, 'description', e.description, 'events', e.events, 'active', e.active,
  'stopped_reason', e.stopped_reason,
  'previous_secret_until', CASE WHEN e.previous_secret_until > now() THEN e.previous_secret_until END,
  'created_at', e.created_at,
  'last_delivery', (SELECT json_build_object('status', d.status, 'at', d.created_at)
                      FROM webhook_deliveries d WHERE d.endpoint_id = e.id ORDER BY d.id DESC LIMIT 1))`;

const meRowSchema = z.object({ me_id: z.number().nullable(), is_admin: z.boolean().nullable() });

/** 401 without a session; 403 for an agent on the site's routes. */
function checkMe(scope: Scope, row: z.infer<typeof meRowSchema> | undefined): void {
  if (!row || row.me_id === null) throw new HttpError(401, 'Please log in');
  if (scope.site) assertAdmin({ is_admin: row.is_admin ?? false });
}

/** The JSON answers carry dates as ISO strings. */
const asEndpoint = (value: unknown): WebhookEndpoint => webhookEndpointSchema.parse(JSON.parse(JSON.stringify(value)));

/**
 * The address a save stores: the form's checks (address-guard.server.ts), then its host resolved and
 * refused when any address it names is private (the delivery checks again at connect time).
 */
async function checkedUrl(raw: string, { production, webhooks }: WebhookRoutesDeps): Promise<string> {
  const checked = checkWebhookUrl(raw, { production, allowLoopback: webhooks.allowLoopback });
  if (!checked.ok) throw new HttpError(400, checked.message, { url: checked.message });
  const host = checked.url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = webhooks.resolve ? await webhooks.resolve(host) : await lookup(host, { all: true });
  } catch {
    const message = `We could not find the host ${host}. Check the address.`;
    throw new HttpError(400, message, { url: message });
  }
  for (const { address } of addresses) {
    if (webhooks.allowLoopback && isLoopbackAddress(address)) continue;
    const why = refusedAddressReason(address);
    if (why !== null) {
      const message = `That address points inside a private network (${why}), which webhooks may not reach.`;
      throw new HttpError(400, message, { url: message });
    }
  }
  return checked.url.href;
}

function scopeOperations(scope: Scope, op: Declare<WebhookRoutesDeps>): Operation<WebhookRoutesDeps>[] {
  const who = scope.site ? 'the site (every agent’s leads)' : 'the agent';
  const withMe = (first: number) => sessionAgentCte(first);
  /** A write is allowed to the session's agent, and on the site's routes only to an admin. */
  const allowed = scope.site ? 'me.is_admin' : 'true';

  /** The scope's endpoint `id` with the session (me_id, is_admin), or 404. One round trip. */
  const readEndpoint = async (db: Db, c: Parameters<typeof sessionOf>[0], id: number) => {
    const [row] = await db.query<unknown>(
      `WITH ${withMe(1)}
       SELECT me.id AS me_id, me.is_admin, e.id AS endpoint_id, e.active, e.events
         FROM me LEFT JOIN webhook_endpoints e ON e.id = $3 AND ${scope.owns}`,
      [...sessionParams(sessionOf(c)), id],
    );
    const parsed = meRowSchema
      .extend({
        endpoint_id: z.number().nullable(),
        active: z.boolean().nullable(),
        events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).nullable(),
      })
      .optional()
      .parse(row);
    checkMe(scope, parsed);
    if (!parsed || parsed.endpoint_id === null) throw notFound();
    return { ...parsed, endpoint_id: parsed.endpoint_id, active: parsed.active ?? false, events: parsed.events ?? [] };
  };

  return [
    op({
      method: 'GET',
      path: scope.base,
      access: scope.access,
      summary: `The webhook endpoints of ${who}`,
      tag: scope.tag,
      success: ok('The endpoints, newest first', webhookListSchema),
      handler: async (c, { db }) => {
        const [row] = await db.query<unknown>(
          `WITH ${withMe(1)}
           SELECT me.id AS me_id, me.is_admin,
                  coalesce((SELECT json_agg(${ENDPOINT_JSON} ORDER BY e.id DESC) FROM webhook_endpoints e
                             WHERE ${scope.owns}), '[]'::json) AS endpoints
             FROM me`,
          sessionParams(sessionOf(c)),
        );
        const parsed = meRowSchema
          .extend({ endpoints: z.array(z.unknown()) })
          .optional()
          .parse(row);
        checkMe(scope, parsed);
        return c.json({ success: true, endpoints: (parsed?.endpoints ?? []).map(asEndpoint) });
      },
    }),
    op({
      method: 'POST',
      path: scope.base,
      access: scope.access,
      summary: `Adds a webhook endpoint of ${who}; answers its signing secret, this once`,
      tag: scope.tag,
      json: webhookCreateSchema,
      success: created('The endpoint and its signing secret', webhookSecretAnswerSchema),
      errors: [409],
      handler: async (c, deps, input) => {
        const { db, webhooks } = deps;
        const body = await input.body();
        const url = await checkedUrl(body.url, deps);
        const secret = newWebhookSecret();
        const [row] = await db.query<unknown>(
          `WITH ${withMe(1)},
           counted AS (SELECT count(*)::int AS n FROM webhook_endpoints e CROSS JOIN me WHERE ${scope.owns}),
           added AS (
             INSERT INTO webhook_endpoints (agent_id, url, description, events, active, secret_encrypted)
             SELECT ${scope.owner}, $3, $4, $5::text[], $6, $7
               FROM me CROSS JOIN counted WHERE ${allowed} AND counted.n < $8
             RETURNING *
           )
           SELECT me.id AS me_id, me.is_admin, counted.n,
                  (SELECT ${ENDPOINT_JSON} FROM added e) AS endpoint
             FROM me CROSS JOIN counted`,
          [
            ...sessionParams(sessionOf(c)),
            url,
            body.description,
            body.events,
            body.active,
            encrypt(secret, resolveSecret(webhooks.secret), WEBHOOK_SECRET_CONTEXT),
            MAX_WEBHOOK_ENDPOINTS,
          ],
        );
        const parsed = meRowSchema.extend({ n: z.number(), endpoint: z.unknown() }).optional().parse(row);
        checkMe(scope, parsed);
        if (parsed?.endpoint === null || parsed?.endpoint === undefined)
          throw new HttpError(409, WEBHOOK_MESSAGES.tooMany);
        return c.json(
          { success: true, message: WEBHOOK_MESSAGES.added, endpoint: asEndpoint(parsed.endpoint), secret },
          201,
        );
      },
    }),
    op({
      method: 'PATCH',
      path: `${scope.base}/:id`,
      access: scope.access,
      summary: `Changes a webhook endpoint of ${who} (turning it on again clears a 410 stop)`,
      tag: scope.tag,
      params: endpointParams,
      json: webhookChangeSchema,
      success: ok('The endpoint as saved', webhookSavedSchema),
      errors: [404],
      handler: async (c, deps, input) => {
        const { db } = deps;
        const { id } = input.params();
        const body = await input.body();
        const url = body.url === undefined ? null : await checkedUrl(body.url, deps);
        const [row] = await db.query<unknown>(
          `WITH ${withMe(1)},
           changed AS (
             UPDATE webhook_endpoints e
                SET url = coalesce($4, e.url), description = coalesce($5, e.description),
                    events = coalesce($6::text[], e.events), active = coalesce($7, e.active),
                    stopped_reason = CASE WHEN $7 THEN NULL ELSE e.stopped_reason END, updated_at = now()
               FROM me WHERE e.id = $3 AND ${scope.owns} AND ${allowed}
             RETURNING e.*
           )
           SELECT me.id AS me_id, me.is_admin, (SELECT ${ENDPOINT_JSON} FROM changed e) AS endpoint FROM me`,
          [...sessionParams(sessionOf(c)), id, url, body.description ?? null, body.events ?? null, body.active ?? null],
        );
        const parsed = meRowSchema.extend({ endpoint: z.unknown() }).optional().parse(row);
        checkMe(scope, parsed);
        if (parsed?.endpoint === null || parsed?.endpoint === undefined) throw notFound();
        return c.json({ success: true, message: WEBHOOK_MESSAGES.saved, endpoint: asEndpoint(parsed.endpoint) });
      },
    }),
    op({
      method: 'DELETE',
      path: `${scope.base}/:id`,
      access: scope.access,
      summary: `Removes a webhook endpoint of ${who} and its deliveries`,
      tag: scope.tag,
      params: endpointParams,
      success: ok('Removed'),
      errors: [404],
      handler: async (c, { db }, input) => {
        const { id } = input.params();
        const [row] = await db.query<unknown>(
          `WITH ${withMe(1)},
           removed AS (DELETE FROM webhook_endpoints e USING me WHERE e.id = $3 AND ${scope.owns} AND ${allowed} RETURNING e.id)
           SELECT me.id AS me_id, me.is_admin, (SELECT count(*)::int FROM removed) AS removed FROM me`,
          [...sessionParams(sessionOf(c)), id],
        );
        const parsed = meRowSchema.extend({ removed: z.number() }).optional().parse(row);
        checkMe(scope, parsed);
        if (!parsed?.removed) throw notFound();
        return c.json({ success: true, message: WEBHOOK_MESSAGES.removed });
      },
    }),
    op({
      method: 'POST',
      path: `${scope.base}/:id/rotate-secret`,
      access: scope.access,
      summary: `Makes a new signing secret for an endpoint of ${who}; the old one signs beside it for ${SECRET_OVERLAP_HOURS} hours`,
      tag: scope.tag,
      params: endpointParams,
      success: ok('The endpoint and its new secret, this once', webhookSecretAnswerSchema),
      errors: [404],
      handler: async (c, { db, webhooks }, input) => {
        const { id } = input.params();
        const secret = newWebhookSecret();
        const [row] = await db.query<unknown>(
          `WITH ${withMe(1)},
           rotated AS (
             UPDATE webhook_endpoints e
                SET previous_secret_encrypted = e.secret_encrypted, secret_encrypted = $4,
                    previous_secret_until = now() + $5 * interval '1 hour', updated_at = now()
               FROM me WHERE e.id = $3 AND ${scope.owns} AND ${allowed}
             RETURNING e.*
           )
           SELECT me.id AS me_id, me.is_admin, (SELECT ${ENDPOINT_JSON} FROM rotated e) AS endpoint FROM me`,
          [
            ...sessionParams(sessionOf(c)),
            id,
            encrypt(secret, resolveSecret(webhooks.secret), WEBHOOK_SECRET_CONTEXT),
            SECRET_OVERLAP_HOURS,
          ],
        );
        const parsed = meRowSchema.extend({ endpoint: z.unknown() }).optional().parse(row);
        checkMe(scope, parsed);
        if (parsed?.endpoint === null || parsed?.endpoint === undefined) throw notFound();
        return c.json({
          success: true,
          message: WEBHOOK_MESSAGES.rotated,
          endpoint: asEndpoint(parsed.endpoint),
          secret,
        });
      },
    }),
    op({
      method: 'POST',
      path: `${scope.base}/:id/test`,
      access: scope.access,
      summary: `Sends a test event (sample data of the endpoint's first event) to an endpoint of ${who} now`,
      tag: scope.tag,
      params: endpointParams,
      success: ok('What the receiver did with it', webhookTestAnswerSchema),
      errors: [404, 409, 429],
      handler: async (c, { db, webhooks, siteUrl }, input) => {
        const { id } = input.params();
        const endpoint = await readEndpoint(db, c, id);
        if (!endpoint.active) throw new HttpError(409, 'Turn the endpoint on to send it a test event');
        await enforceRateLimits(db, [rateCheck(TEST_EVENTS_PER_HOUR, `webhook-test:endpoint:${id}`)]);
        const type = endpoint.events[0] ?? 'lead.created';
        const [queued] = await db.query<{ id: number }>(
          `INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, payload)
           VALUES ($1, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $2, $3::jsonb) RETURNING id::int AS id`,
          [id, type, JSON.stringify(sampleEventPayload(type, siteUrl(c.req.raw)))],
        );
        if (!queued) throw notFound();
        await deliverWebhooks(db, webhooks, { ids: [queued.id] });
        const [delivery] = await readDeliveries(db, id, queued.id);
        if (!delivery) throw notFound();
        const last = delivery.attempts_log[0];
        const delivered = delivery.status === 'delivered';
        const message = delivered
          ? `Delivered: the receiver answered ${last?.http_status ?? ''} in ${last?.duration_ms ?? 0} ms.`
          : `Not delivered: ${last?.error ?? 'the receiver did not take it'}.`;
        return c.json({ success: true, delivered, message, delivery });
      },
    }),
    op({
      method: 'GET',
      path: `${scope.base}/:id/deliveries`,
      access: scope.access,
      summary: `The last ${DELIVERIES_SHOWN} deliveries to an endpoint of ${who}, each with its attempts`,
      tag: scope.tag,
      params: endpointParams,
      success: ok('The deliveries, newest first', webhookDeliveriesSchema),
      errors: [404],
      handler: async (c, { db }, input) => {
        const { id } = input.params();
        await readEndpoint(db, c, id);
        return c.json({ success: true, deliveries: await readDeliveries(db, id) });
      },
    }),
  ];
}

/** An endpoint's deliveries (or the one `deliveryId`), newest first, with their attempts. */
async function readDeliveries(db: Db, endpointId: number, deliveryId: number | null = null) {
  const rows = await db.query<unknown>(
    `SELECT d.id::int AS id, d.message_id, d.event_type, d.status, d.attempts,
            CASE WHEN d.status IN ('queued', 'sending') THEN d.next_attempt_at END AS next_attempt_at, d.created_at,
            coalesce((SELECT json_agg(json_build_object('at', t.at, 'outcome', t.outcome, 'http_status', t.http_status,
                                                        'duration_ms', t.duration_ms, 'response_head', t.response_head,
                                                        'error', t.error) ORDER BY t.id DESC)
                        FROM webhook_attempts t WHERE t.delivery_id = d.id), '[]'::json) AS attempts_log
       FROM webhook_deliveries d
      WHERE d.endpoint_id = $1 AND ($2::bigint IS NULL OR d.id = $2)
      ORDER BY d.id DESC LIMIT $3`,
    [endpointId, deliveryId, DELIVERIES_SHOWN],
  );
  return rows.map((row) => webhookDeliverySchema.parse(JSON.parse(JSON.stringify(row))));
}

/** The agents' and the site's webhook routes. */
export const webhookEndpointsApi = apiGroup(
  (deps: WebhookRoutesDeps) => deps,
  (op) => SCOPES.flatMap((scope) => scopeOperations(scope, op)),
);
