/**
 * The admin's leads (/admin/leads): every agent's list and CSV (the agent's list queries, by scope:
 * lead-list.server.ts) and a lead's timeline. Each is one query that checks the session and that the
 * caller is an admin (403 to an agent who is not).
 */
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { ADMINS_ONLY, sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import { PLEASE_LOG_IN } from '../auth/public/sessions.server.ts';
import { recordIdParam } from '../forms/public/record-id.ts';
import { adminLeadExportQuerySchema } from '../leads/public/lead-export.ts';
import { leadCsvPage, leadCsvPageAnswer, type LeadExportLimits } from '../leads/public/lead-export.server.ts';
import { adminLeadListQuerySchema, adminLeadListResponseSchema } from '../leads/public/lead-list.ts';
import { listAllLeads } from '../leads/public/lead-list.server.ts';
import { leadTimelineResponseSchema, timelineEventSchema } from './lead-timeline.ts';

/** The lead of /api/admin/leads/{id}/timeline (also in the OpenAPI document). */
export const leadIdSchema = z.object({
  id: recordIdParam({
    type: 'Lead id must be a whole number',
    whole: 'Lead id must be a whole number',
    min: 'Lead id must be at least 1',
    max: 'Lead id is too large',
  }),
});

interface TimelineRow {
  is_admin: boolean;
  lead_id: number | null;
  name: string | null;
  email: string | null;
  agent_name: string | null;
  events: unknown;
}

/**
 * A lead's events, oldest first: `sort_at` places an e-mail's failure (whose moment is not kept)
 * right after its queueing; `seq` orders events of one moment (created before its e-mail).
 */
const TIMELINE_EVENTS = `
  SELECT l.created_at AS sort_at, 0 AS seq, 'created' AS kind, l.created_at AS at, NULL::text AS detail, NULL::text AS error
  UNION ALL
  SELECT d.created_at, 1, 'email_queued', d.created_at, d.subject || ' (to ' || d.to_email || ')', NULL
    FROM email_deliveries d WHERE d.lead_id = l.id
  UNION ALL
  SELECT d.sent_at, 2, 'email_sent', d.sent_at, d.subject || ' (to ' || d.to_email || ')', NULL
    FROM email_deliveries d WHERE d.lead_id = l.id AND d.status = 'sent'
  UNION ALL
  SELECT d.created_at, 2, 'email_' || d.status, NULL, d.subject || ' (to ' || d.to_email || ')', d.last_error
    FROM email_deliveries d WHERE d.lead_id = l.id AND d.status IN ('failed', 'suppressed')
  UNION ALL
  SELECT t.at, 3, 'crm_attempt', t.at, t.outcome || coalesce(' (HTTP ' || t.http_status || ')', ''), t.error
    FROM crm_syncs s JOIN crm_sync_attempts t ON t.sync_id = s.id WHERE s.lead_id = l.id`;

/** The admin's leads: every agent's list and CSV, and a lead's timeline. */
export const adminLeadsApi = apiGroup(
  (deps: { db: Db; exportLimits: LeadExportLimits }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/admin/leads',
      access: 'admin',
      summary: "A page of every agent's leads, filtered",
      tag: 'Admin',
      query: adminLeadListQuerySchema,
      success: ok('The page', adminLeadListResponseSchema),
      handler: async (c, { db }, input) => listAllLeads(c, db, input.query()),
    }),
    op({
      method: 'GET',
      path: '/api/admin/leads/export.csv',
      access: 'admin',
      summary: "Every agent's leads as CSV, filtered, a page at a time",
      tag: 'Admin',
      query: adminLeadExportQuerySchema,
      success: leadCsvPageAnswer,
      // A page of every agent's leads that pass the admin's filters, with the agent.
      handler: (c, { db, exportLimits }, input) => leadCsvPage(db, c, 'all', input.query(), exportLimits),
    }),
    op({
      method: 'GET',
      path: '/api/admin/leads/:id/timeline',
      access: 'admin',
      summary: "A lead's timeline: e-mails, CRM syncs",
      tag: 'Admin',
      params: leadIdSchema,
      success: ok('The timeline', leadTimelineResponseSchema),
      errors: [404],
      /** One round trip: who asks, the lead and its events. */
      handler: async (c, { db }, input) => {
        const { id } = input.params();
        const [row] = await db.query<TimelineRow>(
          `WITH ${sessionAgentCte(1)}
           SELECT me.is_admin, l.id AS lead_id, l.first_name || ' ' || l.last_name AS name, l.email,
                  a.first_name || ' ' || a.last_name AS agent_name,
                  (SELECT coalesce(json_agg(json_build_object('kind', e.kind, 'at', e.at, 'detail', e.detail,
                                                              'error', e.error) ORDER BY e.sort_at, e.seq), '[]'::json)
                     FROM (${TIMELINE_EVENTS}) e) AS events
             FROM me
             LEFT JOIN leads l ON l.id = $3 AND me.is_admin
             LEFT JOIN agents a ON a.id = l.agent_id`,
          [...sessionParams(sessionOf(c)), id],
        );
        if (!row) throw new HttpError(401, PLEASE_LOG_IN);
        if (!row.is_admin) throw new HttpError(403, ADMINS_ONLY);
        if (row.lead_id === null || row.name === null || row.email === null || row.agent_name === null) {
          throw new HttpError(404, 'Lead not found');
        }
        return c.json({
          success: true,
          lead: { id: row.lead_id, name: row.name.trim(), email: row.email, agent_name: row.agent_name },
          events: z.array(timelineEventSchema).parse(row.events),
        });
      },
    }),
  ],
);
