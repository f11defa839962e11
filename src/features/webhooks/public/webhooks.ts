/**
 * The webhooks' contract, shared by the screens and the server (issue 26): the events, what a save
 * sends, what an endpoint and its deliveries look like, and the messages.
 */
import * as z from 'zod/mini';

/** The events an endpoint may ask for, in the order the form lists them. */
export const WEBHOOK_EVENT_TYPES = ['lead.created', 'lead.updated', 'estimate.created', 'seller.active'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event means, as the form and the documentation say it. */
export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'lead.created': 'A seller asks to be contacted (a new lead)',
  'lead.updated': 'A lead sends a newer estimate',
  'estimate.created': 'A visitor calculates an estimate on your page',
  'seller.active': 'A seller who gets monthly updates looks ready to sell',
};

/** Endpoints an agent (or the site) may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** How long a rotated-out secret still signs, beside the new one. */
export const SECRET_OVERLAP_HOURS = 24;

export const WEBHOOK_MESSAGES = {
  added: 'Endpoint added. Copy its signing secret now: it is shown only once.',
  saved: 'Endpoint saved.',
  removed: 'Endpoint removed. Nothing more is sent to it.',
  rotated: `New signing secret made. The old one also signs for ${SECRET_OVERLAP_HOURS} hours; copy the new one now.`,
  tooMany: `You can have at most ${MAX_WEBHOOK_ENDPOINTS} endpoints. Remove one first.`,
  notFound: 'Endpoint not found',
} as const;

const eventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, 'Choose events from the list');
const isEventType = (value: string): value is WebhookEventType => WEBHOOK_EVENT_TYPES.some((type) => type === value);

/** The events asked for: every message on the field itself (not on an item of it), for the form. */
const eventsSchema = z.pipe(
  z.array(z.string('Choose events from the list'), 'Choose at least one event').check(
    z.minLength(1, 'Choose at least one event'),
    z.refine((events) => events.every(isEventType), 'Choose events from the list'),
    z.refine((events) => new Set(events).size === events.length, 'Choose each event once'),
  ),
  z.transform((events) => events.filter(isEventType)),
);

const urlSchema = z
  .string('Enter the address to send to')
  .check(
    z.trim(),
    z.minLength(1, 'Enter the address to send to'),
    z.maxLength(2048, 'Use an address of at most 2,048 characters'),
  );

const descriptionSchema = z
  .string('The description must be text')
  .check(z.trim(), z.maxLength(200, 'Keep the description to 200 characters'));

/** A new endpoint. The address is checked further on the server (address-guard.server.ts). */
export const webhookCreateSchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  description: z._default(descriptionSchema, ''),
  active: z._default(z.boolean('Choose whether the endpoint is active'), true),
});
export type WebhookCreate = z.input<typeof webhookCreateSchema>;

/** A change: only what is sent changes. */
export const webhookChangeSchema = z.object({
  url: z.optional(urlSchema),
  events: z.optional(eventsSchema),
  description: z.optional(descriptionSchema),
  active: z.optional(z.boolean('Choose whether the endpoint is active')),
});
export type WebhookChange = z.input<typeof webhookChangeSchema>;

/** An endpoint as the screens show it: never its secret, only whether a rotation's old one still signs. */
export const webhookEndpointSchema = z.object({
  id: z.number(),
  url: z.string(),
  description: z.string(),
  events: z.array(eventTypeSchema),
  active: z.boolean(),
  /** 'gone': the receiver answered 410, so deliveries stopped until it is turned on again. */
  stopped_reason: z.nullable(z.literal('gone')),
  /** Until when the previous secret also signs (after a rotation), or null. */
  previous_secret_until: z.nullable(z.string()),
  created_at: z.string(),
  /** The last delivery's status and time, or null before the first. */
  last_delivery: z.nullable(z.object({ status: z.string(), at: z.string() })),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookListSchema = z.object({ success: z.literal(true), endpoints: z.array(webhookEndpointSchema) });
/** A new endpoint or a rotation: the endpoint and its new secret, shown this once. */
export const webhookSecretAnswerSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  endpoint: webhookEndpointSchema,
  secret: z.string(),
});
export const webhookSavedSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  endpoint: webhookEndpointSchema,
});

/** One attempt of a delivery, as its log shows it. */
export const webhookAttemptSchema = z.object({
  at: z.string(),
  outcome: z.enum(['delivered', 'retry', 'gone', 'failed', 'refused', 'timeout', 'network']),
  http_status: z.nullable(z.number()),
  duration_ms: z.number(),
  /** The first bytes of the receiver's answer (at most 1,024), as text. */
  response_head: z.nullable(z.string()),
  error: z.nullable(z.string()),
});

export const webhookDeliverySchema = z.object({
  id: z.number(),
  message_id: z.string(),
  event_type: z.string(),
  status: z.enum(['queued', 'sending', 'delivered', 'failed', 'stopped']),
  attempts: z.number(),
  next_attempt_at: z.nullable(z.string()),
  created_at: z.string(),
  attempts_log: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesSchema = z.object({
  success: z.literal(true),
  deliveries: z.array(webhookDeliverySchema),
});
/** "Send test event": what the one attempt did (a success is said only when the receiver took it). */
export const webhookTestAnswerSchema = z.object({
  success: z.literal(true),
  delivered: z.boolean(),
  message: z.string(),
  delivery: webhookDeliverySchema,
});
