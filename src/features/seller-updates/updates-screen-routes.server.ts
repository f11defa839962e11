/**
 * /dashboard/updates' API: GET /api/dashboard/updates (the agent's switch and a page of their
 * subscribers), PUT /api/dashboard/updates/settings (the switch), and POST
 * /api/dashboard/updates/{lead id}/pause and /resume (one seller). Each is one statement that checks
 * the session (sessionAgentCte) and touches only the agent's own rows: another agent's lead is
 * answered as an unknown one (404, the same words), so an id tells nothing about whose it is.
 */
import * as z from 'zod';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import { PLEASE_LOG_IN } from '../auth/public/sessions.server.ts';
import { recordIdParam } from '../forms/public/record-id.ts';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { NEXT_DUE_SQL, STOP_AFTER } from './public/cadence.ts';
import { isStoredState, recentActiveSql, subscriberState } from './public/subscriber-state.ts';
import {
  STATE_REFUSALS,
  SUBSCRIBERS_PER_PAGE,
  subscriberChangeSchema,
  UPDATES_MESSAGES,
  UPDATES_PATH,
  UPDATES_SETTINGS_PATH,
  updatesQuerySchema,
  updatesResponseSchema,
  updatesSettingsResponseSchema,
  updatesSettingsSchema,
  type Subscriber,
} from './public/updates-screen.ts';

const signedOut = () => new HttpError(401, PLEASE_LOG_IN);

const subscriberRowSchema = z.object({
  lead_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  state: z.string(),
  updates_since_click: z.number(),
  updates_sent: z.number(),
  last_sent_at: z.date().nullable(),
  last_net_cents: z.coerce.number().nullable(),
  last_click_at: z.date().nullable(),
  active_at: z.date().nullable(),
});
type SubscriberRow = z.infer<typeof subscriberRowSchema>;

/** A subscription's columns as the screen reads them, from `u` (seller_updates) and `l` (its lead). */
const SUBSCRIBER_COLUMNS = `l.id AS lead_id, l.first_name, l.last_name, u.email, u.state, u.updates_since_click,
  u.updates_sent, u.last_sent_at, u.last_net_cents, u.last_click_at, ${recentActiveSql('u.active_at')} AS active_at`;

function toSubscriber(row: SubscriberRow): Subscriber {
  if (!isStoredState(row.state)) throw new Error(`seller_updates.state ${row.state} is not a known state`);
  // Before the first update, last_net_cents is the estimate's own net (decision 0056), not an update's.
  const sent = row.updates_sent > 0 && row.last_sent_at !== null;
  return {
    lead_id: row.lead_id,
    name: [row.first_name, row.last_name].filter(Boolean).join(' '),
    email: row.email,
    state: subscriberState(row.state, row.updates_since_click),
    last_sent_at: sent && row.last_sent_at ? row.last_sent_at.toISOString() : null,
    last_net_cents: sent ? row.last_net_cents : null,
    last_click_at: row.last_click_at?.toISOString() ?? null,
    active_at: row.active_at?.toISOString() ?? null,
  };
}

const listHeadSchema = z.object({
  me_id: z.number(),
  enabled: z.boolean(),
  site_enabled: z.boolean(),
  total: z.number(),
});

const leadIdParams = z.object({
  id: recordIdParam({
    type: 'Seller must be a lead id',
    whole: 'Seller must be a lead id',
    min: 'Seller must be a lead id',
    max: 'Seller must be a lead id',
  }),
});

type Change = 'pause' | 'resume';

/**
 * What pause and resume write: pause stops what is due; resume makes the next update due on the
 * cadence from the last one (or the confirmation), never in the past, and none for a cold seller
 * (cadence.ts: NEXT_DUE_SQL is NULL from STOP_AFTER updates without a click).
 */
const CHANGES: Record<Change, { from: string; set: string; message: string }> = {
  pause: {
    from: 'subscribed',
    set: "state = 'paused', paused_at = now(), next_due_at = NULL",
    message: UPDATES_MESSAGES.paused,
  },
  resume: {
    from: 'paused',
    set: `state = 'subscribed', paused_at = NULL,
          next_due_at = CASE WHEN u.updates_since_click >= ${STOP_AFTER} THEN NULL
                             ELSE greatest(now(), ${NEXT_DUE_SQL('coalesce(u.last_sent_at, u.confirmed_at, now())', 'u.updates_since_click')}) END`,
    message: UPDATES_MESSAGES.resumed,
  },
};

const changeRowSchema = z.object({
  me_id: z.number(),
  lead_found: z.boolean(),
  state_before: z.string().nullable(),
  changed: z.boolean(),
});

/**
 * Pauses or resumes the seller of the agent's lead `leadId`: one statement that reads the lead (the
 * agent's own, or none), its subscription, and changes it only from the state the change starts
 * from (`AND u.state = …`), so two clicks at once change it once.
 */
async function change(db: Db, claims: Parameters<typeof sessionParams>[0], leadId: number, kind: Change) {
  const { from, set } = CHANGES[kind];
  const [row] = await db.query<unknown>(
    `WITH ${sessionAgentCte(1)},
     lead AS (SELECT l.id, l.first_name, l.last_name FROM leads l JOIN me ON l.agent_id = me.id WHERE l.id = $3),
     sub AS (SELECT u.id, u.state FROM seller_updates u JOIN lead ON u.lead_id = lead.id JOIN me ON u.agent_id = me.id),
     changed AS (
       UPDATE seller_updates u SET ${set}
         FROM sub WHERE u.id = sub.id AND u.state = '${from}'
       RETURNING u.*
     )
     SELECT me.id AS me_id, EXISTS (SELECT 1 FROM lead) AS lead_found, (SELECT state FROM sub) AS state_before,
            EXISTS (SELECT 1 FROM changed) AS changed, s.*
       FROM me
       LEFT JOIN LATERAL (
         SELECT ${SUBSCRIBER_COLUMNS} FROM changed u JOIN lead l ON l.id = u.lead_id
       ) s ON true`,
    [...sessionParams(claims), leadId],
  );
  if (!row) throw signedOut();
  const head = changeRowSchema.parse(row);
  if (!head.lead_found) throw new HttpError(404, UPDATES_MESSAGES.notFound);
  if (head.state_before === null) throw new HttpError(404, UPDATES_MESSAGES.notAsked);
  if (!head.changed) {
    const refusals: Readonly<Record<string, string>> = STATE_REFUSALS[kind];
    throw new HttpError(409, refusals[head.state_before] ?? 'This seller’s updates cannot be changed now.');
  }
  return toSubscriber(subscriberRowSchema.parse(row));
}

export const updatesScreenApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: UPDATES_PATH,
      access: 'agent',
      summary: "The agent's seller updates: their switch and a page of the sellers who asked",
      tag: 'Seller updates',
      query: updatesQuerySchema,
      success: ok('The switch and the page', updatesResponseSchema),
      /** One round trip: the session, the switches, the count and the page (active sellers first, then newest). */
      handler: async (c, { db }, input) => {
        const { page } = input.query();
        const rows = await db.query<unknown>(
          `WITH ${sessionAgentCte(1)}
           SELECT me.id AS me_id,
                  coalesce((SELECT seller_updates_enabled FROM agent_settings WHERE agent_id = me.id), true) AS enabled,
                  coalesce((SELECT seller_updates_enabled FROM site_settings WHERE id = 1), true) AS site_enabled,
                  (SELECT count(*)::int FROM seller_updates WHERE agent_id = me.id) AS total,
                  page.*
             FROM me
             LEFT JOIN LATERAL (
               SELECT ${SUBSCRIBER_COLUMNS}
                 FROM seller_updates u JOIN leads l ON l.id = u.lead_id
                WHERE u.agent_id = me.id
                ORDER BY ${recentActiveSql('u.active_at')} DESC NULLS LAST, u.created_at DESC, u.id DESC
                LIMIT ${SUBSCRIBERS_PER_PAGE} OFFSET (SELECT $3::int)
             ) page ON true`,
          [...sessionParams(sessionOf(c)), (page - 1) * SUBSCRIBERS_PER_PAGE],
        );
        const [first] = rows;
        if (!first) throw signedOut();
        const head = listHeadSchema.parse(first);
        const subscribers = rows.flatMap((row) => {
          const parsed = subscriberRowSchema.safeParse(row);
          return parsed.success ? [toSubscriber(parsed.data)] : [];
        });
        return c.json({
          success: true,
          enabled: head.enabled,
          site_enabled: head.site_enabled,
          subscribers,
          total: head.total,
          page,
          per_page: SUBSCRIBERS_PER_PAGE,
        });
      },
    }),
    op({
      method: 'PUT',
      path: UPDATES_SETTINGS_PATH,
      access: 'agent',
      summary: "Turns the agent's sellers' monthly updates on or off",
      tag: 'Seller updates',
      json: updatesSettingsSchema,
      success: ok('Saved', updatesSettingsResponseSchema),
      handler: async (c, { db }, input) => {
        const { enabled } = await input.body();
        const [row] = await db.query<{ enabled: boolean }>(
          `WITH ${sessionAgentCte(1)}
           INSERT INTO agent_settings AS s (agent_id, seller_updates_enabled) SELECT me.id, $3 FROM me
           ON CONFLICT (agent_id) DO UPDATE SET seller_updates_enabled = EXCLUDED.seller_updates_enabled
           RETURNING s.seller_updates_enabled AS enabled`,
          [...sessionParams(sessionOf(c)), enabled],
        );
        if (!row) throw signedOut();
        return c.json({
          success: true,
          message: row.enabled ? UPDATES_MESSAGES.enabled : UPDATES_MESSAGES.disabled,
          enabled: row.enabled,
        });
      },
    }),
    ...(['pause', 'resume'] as const).map((kind) =>
      op({
        method: 'POST',
        path: `${UPDATES_PATH}/:id/${kind}`,
        access: 'agent',
        summary: kind === 'pause' ? "Pauses one seller's updates" : "Resumes one seller's paused updates",
        tag: 'Seller updates',
        params: leadIdParams,
        success: ok(kind === 'pause' ? 'Paused' : 'Resumed', subscriberChangeSchema),
        errors: [404, 409],
        handler: async (c, { db }, input) => {
          // An id no row can have is an unknown seller, as a foreign one is.
          const params = input.validParams();
          if (!params) throw new HttpError(404, UPDATES_MESSAGES.notFound);
          const subscriber = await change(db, sessionOf(c), params.id, kind);
          return c.json({ success: true, message: CHANGES[kind].message, subscriber });
        },
      }),
    ),
  ],
);
