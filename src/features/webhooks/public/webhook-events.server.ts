/**
 * What a webhook says (issue 26): the body `{ type, timestamp, data }` of each event, and the CTE that
 * queues one delivery per interested endpoint inside the statement that writes what it is about, so
 * the event and its deliveries are stored together or not at all.
 *
 * A lead's `data` holds the person (names, e-mail, phone), the property's address, where it came
 * from (source, page), the agent, and the estimate's figures with its link. It is built before the
 * statement from what the request holds; the statement fills in what only it knows (the lead's id
 * and time). The body is fixed when the event happens: every retry sends the same bytes.
 */
import * as z from 'zod';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks.ts';

const isoTime = z.string().describe('An ISO 8601 time');

/** The lead part of a lead event's data. */
const leadSchema = z.object({
  id: z.number().int().describe("The lead's id (as in the dashboard and the CSV)"),
  created_at: isoTime,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable().describe('As the seller typed it, or null'),
  property_address: z.string().nullable().describe("The home's address as the seller typed it, or null"),
  message: z.string().nullable(),
  source: z.string().describe('Which form: calculator, contact, estimate, embed …'),
  page_url: z
    .string()
    .nullable()
    .describe('The page it was sent from: a page of the site, or the host page of an embedded calculator'),
});
export type WebhookLeadData = z.infer<typeof leadSchema>;

/** The estimate part: dollars with two decimals, and its page. */
const estimateSchema = z.object({
  uuid: z.string(),
  url: z.string().describe("The estimate's page"),
  sale_price: z.number(),
  mortgage_payoff: z.number(),
  commission: z.number(),
  commission_percent: z.number(),
  transfer_tax: z.number().describe('New York State transfer tax'),
  attorney_fee: z.number(),
  recording_fee: z.number(),
  net_to_seller: z.number(),
  created_at: isoTime,
});
export type WebhookEstimateData = z.infer<typeof estimateSchema>;

const agentSchema = z.object({ slug: z.string(), name: z.string(), page_url: z.string() });
export type WebhookAgentData = z.infer<typeof agentSchema>;

const testFlag = z.literal(true).optional().describe('Present only on a test event sent from the screen');

export const leadEventDataSchema = z.object({
  lead: leadSchema,
  estimate: estimateSchema.nullable(),
  agent: agentSchema,
  test: testFlag,
});
export type LeadEventData = z.infer<typeof leadEventDataSchema>;

export const estimateEventDataSchema = z.object({ estimate: estimateSchema, agent: agentSchema, test: testFlag });
export type EstimateEventData = z.infer<typeof estimateEventDataSchema>;

/** seller.active: a seller who gets monthly updates looks ready to sell (issue 25's rule). */
export const sellerActiveDataSchema = z.object({
  lead: leadSchema.pick({
    id: true,
    first_name: true,
    last_name: true,
    email: true,
    phone: true,
    property_address: true,
  }),
  reasons: z.array(z.string()).describe('two_clicks, rerun, higher_net'),
  net_to_seller: z.number().nullable().describe('The net of their last update or estimate, in dollars'),
  estimate_url: z.string().nullable(),
  agent: agentSchema,
  test: testFlag,
});
export type SellerActiveData = z.infer<typeof sellerActiveDataSchema>;

const DATA_SCHEMAS = {
  'lead.created': leadEventDataSchema,
  'lead.updated': leadEventDataSchema,
  'estimate.created': estimateEventDataSchema,
  'seller.active': sellerActiveDataSchema,
} as const satisfies Record<WebhookEventType, z.ZodType>;

/** Each event with its body's schema, for the OpenAPI document's `webhooks` (src/app/openapi.server.ts). */
export const WEBHOOK_EVENTS = WEBHOOK_EVENT_TYPES.map((type) => ({
  type,
  summary: WEBHOOK_EVENT_LABELS[type],
  body: z.object({ type: z.literal(type), timestamp: isoTime, data: DATA_SCHEMAS[type] }),
}));

export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: LeadEventData | EstimateEventData | SellerActiveData;
}

/** An estimate as the API answers it (estimateSchema), as webhook data. */
export function estimateData(
  estimate: {
    uuid: string;
    sale_price: number;
    mortgage_payoff: number;
    commission: number;
    commission_percent: number;
    transfer_tax: number;
    lawyer_fee: number;
    recording_fee: number;
    net_to_seller: number;
    created_at: string;
  },
  siteUrl: string,
): WebhookEstimateData {
  return {
    uuid: estimate.uuid,
    url: `${siteUrl.replace(/\/+$/, '')}/estimate/${encodeURIComponent(estimate.uuid)}`,
    sale_price: estimate.sale_price,
    mortgage_payoff: estimate.mortgage_payoff,
    commission: estimate.commission,
    commission_percent: estimate.commission_percent,
    transfer_tax: estimate.transfer_tax,
    attorney_fee: estimate.lawyer_fee,
    recording_fee: estimate.recording_fee,
    net_to_seller: estimate.net_to_seller,
    created_at: estimate.created_at,
  };
}

export function agentData(
  agent: { slug: string; first_name: string; last_name: string },
  siteUrl: string,
): WebhookAgentData {
  return {
    slug: agent.slug,
    name: `${agent.first_name} ${agent.last_name}`.trim(),
    page_url: `${siteUrl.replace(/\/+$/, '')}/r/${encodeURIComponent(agent.slug)}`,
  };
}

/** A page path of the site as an absolute URL; an absolute URL (an embedding host page) as it is. */
export function pageUrl(pagePath: string | null, siteUrl: string): string | null {
  if (pagePath === null || pagePath === '') return null;
  if (/^https?:\/\//.test(pagePath)) return pagePath;
  return `${siteUrl.replace(/\/+$/, '')}${pagePath.startsWith('/') ? '' : '/'}${pagePath}`;
}

/**
 * A CTE `name` that queues each event of `events` (an SQL query of the columns type, agent_id, data
 * (jsonb) and at) for every active endpoint of that agent, or of the site, that asked for its type.
 * Answers the queued rows' ids.
 */
export function queueWebhooksCte(name: string, events: string): string {
  return `${name} AS (
       INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, payload)
       SELECT e.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), ev.type,
              jsonb_build_object('type', ev.type, 'timestamp', ev.at, 'data', ev.data)
         FROM (${events}) AS ev (type, agent_id, data, at)
         JOIN webhook_endpoints e
           ON e.active AND (e.agent_id = ev.agent_id OR e.agent_id IS NULL) AND ev.type = ANY (e.events)
       RETURNING id
     )`;
}

/**
 * A CTE `name` that queues estimate.created for each row of `inserted` (a CTE of new estimates, with
 * uuid, agent_id and created_at) to every active endpoint of its agent, or of the site, that asked
 * for it. Only the type and time are written: the data is rendered from the estimate at the first
 * attempt (WebhookContext.renderEstimate), when its figures are computed as the API answers them.
 */
export const queueEstimateWebhooksCte = (name: string, inserted: string): string => `${name} AS (
       INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, payload, estimate_uuid)
       SELECT e.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'estimate.created',
              jsonb_build_object('type', 'estimate.created', 'timestamp', i.created_at), i.uuid
         FROM ${inserted} i
         JOIN webhook_endpoints e
           ON e.active AND (e.agent_id = i.agent_id OR e.agent_id IS NULL) AND 'estimate.created' = ANY (e.events)
       RETURNING id
     )`;

/** SQL: a lead event's data (`dataSql`, jsonb) with the lead's id and time that only the statement knows. */
export const withLeadIdentity = (dataSql: string, idSql: string, createdAtSql: string): string =>
  `jsonb_set(jsonb_set(${dataSql}, '{lead,id}', to_jsonb(${idSql})), '{lead,created_at}', to_jsonb(${createdAtSql}))`;

/** A lead event's data before the statement: the lead's id and time are set by it. */
export function leadEventData({
  lead,
  estimate,
  agent,
  siteUrl,
}: {
  lead: {
    first_name: string;
    last_name: string;
    email: string;
    phone: string | null;
    address: string | null;
    message: string | null;
    source: string;
    page_path: string | null;
  };
  estimate: Parameters<typeof estimateData>[0] | null;
  agent: { slug: string; first_name: string; last_name: string };
  siteUrl: string;
}): LeadEventData {
  return {
    lead: {
      id: 0,
      created_at: '',
      first_name: lead.first_name,
      last_name: lead.last_name,
      email: lead.email,
      phone: lead.phone,
      property_address: lead.address,
      message: lead.message,
      source: lead.source,
      page_url: pageUrl(lead.page_path, siteUrl),
    },
    estimate: estimate ? estimateData(estimate, siteUrl) : null,
    agent: agentData(agent, siteUrl),
  };
}

const SAMPLE_ESTIMATE = {
  uuid: '00000000-0000-4000-8000-000000000000',
  sale_price: 650000,
  mortgage_payoff: 300000,
  commission: 32500,
  commission_percent: 5,
  transfer_tax: 2600,
  lawyer_fee: 2500,
  recording_fee: 500,
  net_to_seller: 311900,
  created_at: '2026-11-27T15:00:00.000Z',
};

/** A test event's body: the type's shape with sample figures, marked `test: true`. */
export function sampleEventPayload(type: WebhookEventType, siteUrl: string): WebhookPayload {
  const timestamp = new Date().toISOString();
  const agent = agentData({ slug: 'sample-agent', first_name: 'Sample', last_name: 'Agent' }, siteUrl);
  const estimate = estimateData(SAMPLE_ESTIMATE, siteUrl);
  if (type === 'estimate.created') return { type, timestamp, data: { estimate, agent, test: true } };
  if (type === 'seller.active') {
    const lead = {
      id: 0,
      first_name: 'Jordan',
      last_name: 'Sample',
      email: 'jordan.sample@example.com',
      phone: '5165550100',
      property_address: '12 Oak Lane, Merrick, NY 11566',
    };
    const data = { lead, reasons: ['two_clicks'], net_to_seller: estimate.net_to_seller, estimate_url: estimate.url };
    return { type, timestamp, data: { ...data, agent, test: true } };
  }
  const lead: WebhookLeadData = {
    id: 0,
    created_at: timestamp,
    first_name: 'Jordan',
    last_name: 'Sample',
    email: 'jordan.sample@example.com',
    phone: '5165550100',
    property_address: '12 Oak Lane, Merrick, NY 11566',
    message: 'This is a test event from the Long Island net proceeds calculator.',
    source: 'calculator',
    page_url: agent.page_url,
  };
  return { type, timestamp, data: { lead, estimate, agent, test: true } };
}
