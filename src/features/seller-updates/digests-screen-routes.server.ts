/**
 * The admin's card of seller updates (/admin/settings): GET /api/admin/digests (the site-wide switch,
 * the sending window and the volumes of the last 12 months) and PUT /api/admin/digests/settings.
 * Admins only; each is one statement that checks the session and the admin. The run itself
 * (POST /api/admin/digests/run) is the engine's.
 */
import * as z from 'zod';
import {
  assertAdmin,
  readJsonAsAdmin,
  sessionAgentCte,
  sessionOf,
  sessionParams,
} from '../auth/public/access.server.ts';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, json, ok } from '../../platform/operation.ts';
import {
  DIGESTS_PATH,
  DIGESTS_SETTINGS_PATH,
  digestsResponseSchema,
  digestsSettingsResponseSchema,
  digestsSettingsSchema,
  UPDATES_MESSAGES,
} from './public/updates-screen.ts';
import { LONG_ISLAND_TIME_ZONE } from '../../ui/long-island-time.ts';

/** The sending window and the months are Long Island's. */
const TIME_ZONE = LONG_ISLAND_TIME_ZONE;
export const DIGEST_MONTHS = 12;

/** A link of an update followed: what "clicked" counts (a sheet visit or a re-run is not a click on the e-mail). */
const CLICK_KINDS = "('click_sheet', 'click_agent')";

/**
 * The last DIGEST_MONTHS months (Long Island time), each as its bounds in time, and per month: the
 * updates sent (by sent_at), those of them with a followed link, the subscriptions ended by the
 * seller (ended_at), and the updates' e-mails that failed (email_deliveries of kind 'seller_update',
 * by when queued: the month of their update). Each count is a range of an index (migration 0033).
 */
const VOLUMES = `months AS (
    SELECT to_char(m, 'YYYY-MM') AS month, m AT TIME ZONE $3 AS starts, (m + interval '1 month') AT TIME ZONE $3 AS ends
      FROM generate_series(date_trunc('month', now() AT TIME ZONE $3) - interval '${DIGEST_MONTHS - 1} months',
                           date_trunc('month', now() AT TIME ZONE $3), interval '1 month') AS m
  ),
  volumes AS (
    SELECT coalesce(json_agg(json_build_object(
             'month', months.month,
             'sent', (SELECT count(*)::int FROM seller_update_sends s WHERE s.sent_at >= months.starts AND s.sent_at < months.ends),
             'clicked', (SELECT count(*)::int FROM seller_update_sends s
                          WHERE s.sent_at >= months.starts AND s.sent_at < months.ends
                            AND EXISTS (SELECT 1 FROM seller_signals g WHERE g.send_id = s.id AND g.kind IN ${CLICK_KINDS})),
             'unsubscribed', (SELECT count(*)::int FROM seller_updates u
                               WHERE u.state = 'unsubscribed' AND u.ended_at >= months.starts AND u.ended_at < months.ends),
             'bounced', (SELECT count(*)::int FROM email_deliveries d
                          WHERE d.kind = 'seller_update' AND d.status = 'failed'
                            AND d.created_at >= months.starts AND d.created_at < months.ends)
           ) ORDER BY months.month), '[]'::json) AS months
      FROM months
     WHERE EXISTS (SELECT 1 FROM me WHERE me.is_admin)
  )`;

const digestsRowSchema = z.object({
  is_admin: z.boolean(),
  enabled: z.boolean(),
  window_start: z.number(),
  window_end: z.number(),
  months: z.array(
    z.object({
      month: z.string(),
      sent: z.number(),
      clicked: z.number(),
      unsubscribed: z.number(),
      bounced: z.number(),
    }),
  ),
});

const missingSettings = () => new HttpError(500, 'Site settings are missing; run npm run db:seed');

const adminHeadSchema = z.object({ is_admin: z.boolean() });

const settingsRowSchema = z.object({
  is_admin: z.boolean(),
  enabled: z.boolean().nullable(),
  window_start: z.number().nullable(),
  window_end: z.number().nullable(),
});

export const digestsScreenApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: DIGESTS_PATH,
      access: 'admin',
      summary: 'Seller updates site-wide: the switch, the sending window and the volumes of the last 12 months',
      tag: 'Admin',
      success: ok('The settings and the volumes', digestsResponseSchema),
      handler: async (c, { db }) => {
        const [row] = await db.query<unknown>(
          `WITH ${sessionAgentCte(1)}, ${VOLUMES}
           SELECT me.is_admin, s.seller_updates_enabled AS enabled, s.seller_updates_window_start AS window_start,
                  s.seller_updates_window_end AS window_end, coalesce(volumes.months, '[]'::json) AS months
             FROM me LEFT JOIN site_settings s ON s.id = 1 AND me.is_admin LEFT JOIN volumes ON true`,
          [...sessionParams(sessionOf(c)), TIME_ZONE],
        );
        assertAdmin(row === undefined ? undefined : adminHeadSchema.parse(row));
        const read = digestsRowSchema.parse(row);
        return c.json({
          success: true,
          enabled: read.enabled,
          window: { start: read.window_start, end: read.window_end },
          months: read.months,
        });
      },
    }),
    op({
      method: 'PUT',
      path: DIGESTS_SETTINGS_PATH,
      access: 'admin',
      summary: 'Turns seller updates on or off site-wide and sets the sending window (Long Island time)',
      tag: 'Admin',
      body: json(digestsSettingsSchema),
      success: ok('Saved', digestsSettingsResponseSchema),
      handler: async (c, { db }) => {
        const settings = await readJsonAsAdmin(c, db, digestsSettingsSchema);
        const [row] = await db.query<unknown>(
          `WITH ${sessionAgentCte(1)},
           saved AS (
             UPDATE site_settings s SET seller_updates_enabled = $3, seller_updates_window_start = $4,
                    seller_updates_window_end = $5
               FROM me WHERE s.id = 1 AND me.is_admin
             RETURNING s.seller_updates_enabled, s.seller_updates_window_start, s.seller_updates_window_end
           )
           SELECT me.is_admin, saved.seller_updates_enabled AS enabled, saved.seller_updates_window_start AS window_start,
                  saved.seller_updates_window_end AS window_end
             FROM me LEFT JOIN saved ON true`,
          [...sessionParams(sessionOf(c)), settings.enabled, settings.window_start, settings.window_end],
        );
        const read = row === undefined ? undefined : settingsRowSchema.parse(row);
        assertAdmin(read);
        if (read?.enabled == null || read.window_start === null || read.window_end === null) throw missingSettings();
        return c.json({
          success: true,
          message: UPDATES_MESSAGES.windowSaved,
          enabled: read.enabled,
          window: { start: read.window_start, end: read.window_end },
        });
      },
    }),
  ],
);
