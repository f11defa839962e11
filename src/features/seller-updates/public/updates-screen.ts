/**
 * The contract of the seller-updates screens, shared by the screens and the server: /dashboard/updates
 * (the agent's switch, their subscribers, pause and resume) and the admin's card (the site-wide
 * switch, the sending window, the volumes by month). Sample e-mails are the engine's route.
 */
import * as z from 'zod/mini';
import { SUBSCRIBER_STATES } from './subscriber-state.ts';

export const UPDATES_PATH = '/api/dashboard/updates';
export const UPDATES_SETTINGS_PATH = '/api/dashboard/updates/settings';
export const UPDATES_SAMPLE_PATH = '/api/dashboard/updates/sample';
export const DIGESTS_PATH = '/api/admin/digests';
export const DIGESTS_SETTINGS_PATH = '/api/admin/digests/settings';

/** Subscribers a page of /dashboard/updates lists. */
export const SUBSCRIBERS_PER_PAGE = 50;

export const UPDATES_MESSAGES = {
  notFound: 'Seller not found',
  notAsked: 'This seller did not ask for updates',
  enabled: 'Monthly updates are on: your sellers who asked for them will get them.',
  disabled: 'Monthly updates are off: none of your sellers will get one until you turn them back on.',
  paused: 'Updates paused for this seller.',
  resumed: 'Updates resumed for this seller.',
  windowSaved: 'Seller update settings saved.',
} as const;

/** Why a seller cannot be paused or resumed in the state they are in (409). */
export const STATE_REFUSALS = {
  pause: {
    pending: 'This seller has not confirmed their subscription yet: there is nothing to pause.',
    paused: 'This seller’s updates are already paused.',
    unsubscribed: 'This seller unsubscribed: only they can ask for updates again.',
  },
  resume: {
    pending: 'This seller has not confirmed their subscription yet: there is nothing to resume.',
    subscribed: 'This seller’s updates are not paused.',
    unsubscribed: 'This seller unsubscribed: only they can ask for updates again.',
  },
} as const;

const page = z.pipe(
  z.transform((value: unknown) => (value === '' ? undefined : value)),
  z._default(
    z.coerce
      .number({ error: 'Page must be a whole number' })
      .check(
        z.int('Page must be a whole number'),
        z.gte(1, 'Page must be at least 1'),
        z.lte(100_000, 'Page must be at most 100000'),
      ),
    1,
  ),
);

/** GET /api/dashboard/updates?page= */
export const updatesQuerySchema = z.object({ page });

export const subscriberSchema = z.object({
  /** The lead (pause and resume name it). */
  lead_id: z.number(),
  name: z.string(),
  email: z.string(),
  state: z.enum(SUBSCRIBER_STATES),
  /** The last update sent and the net it told; null before the first. */
  last_sent_at: z.nullable(z.string()),
  last_net_cents: z.nullable(z.number()),
  last_click_at: z.nullable(z.string()),
  /** When the seller became active, within the last 30 days; else null. */
  active_at: z.nullable(z.string()),
});
export type Subscriber = z.output<typeof subscriberSchema>;

export const updatesResponseSchema = z.object({
  success: z.literal(true),
  /** The agent's own switch (agent_settings.seller_updates_enabled). */
  enabled: z.boolean(),
  /** The site's switch: off, nothing is sent to anyone, whatever the agent's. */
  site_enabled: z.boolean(),
  subscribers: z.array(subscriberSchema),
  total: z.number(),
  page: z.number(),
  per_page: z.number(),
});
export type UpdatesResponse = z.output<typeof updatesResponseSchema>;

/** PUT /api/dashboard/updates/settings */
export const updatesSettingsSchema = z.object({
  enabled: z.boolean('Choose whether your sellers get monthly updates'),
});
export const updatesSettingsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  enabled: z.boolean(),
});

/** POST /api/dashboard/updates/{lead id}/pause and /resume */
export const subscriberChangeSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscriber: subscriberSchema,
});

/** POST /api/dashboard/updates/sample (the engine's route): what the button is told. */
export const sampleResponseSchema = z.object({ success: z.literal(true), message: z.string() });

const hour = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be an hour from ${min} to ${max}` })
    .check(
      z.int(`${label} must be a whole hour`),
      z.gte(min, `${label} must be an hour from ${min} to ${max}`),
      z.lte(max, `${label} must be an hour from ${min} to ${max}`),
    );

/** PUT /api/admin/digests/settings: the site's switch and the sending window, Long Island time. */
export const digestsSettingsSchema = z
  .object({
    enabled: z.boolean('Choose whether seller updates are sent'),
    window_start: hour('The start hour', 0, 23),
    window_end: hour('The end hour', 1, 24),
  })
  .check(
    z.refine((value) => value.window_start < value.window_end, {
      message: 'The sending window must start before it ends',
      path: ['window_end'],
    }),
  );
export type DigestsSettings = z.output<typeof digestsSettingsSchema>;

export const digestMonthSchema = z.object({
  /** YYYY-MM, Long Island time. */
  month: z.string(),
  sent: z.number(),
  clicked: z.number(),
  unsubscribed: z.number(),
  bounced: z.number(),
});
export type DigestMonth = z.output<typeof digestMonthSchema>;

export const digestsResponseSchema = z.object({
  success: z.literal(true),
  enabled: z.boolean(),
  window: z.object({ start: z.number(), end: z.number() }),
  /** The last 12 months, oldest first, the current one last. */
  months: z.array(digestMonthSchema),
});
export type DigestsResponse = z.output<typeof digestsResponseSchema>;

export const digestsSettingsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  enabled: z.boolean(),
  window: z.object({ start: z.number(), end: z.number() }),
});
