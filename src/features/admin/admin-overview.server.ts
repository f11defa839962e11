import * as z from 'zod';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import { PLEASE_LOG_IN, type SessionClaims } from '../auth/public/sessions.server.ts';
import {
  ACTIVITY_KINDS,
  activityRowSchema,
  chartDays,
  toActivity,
  weeksFrom,
} from '../dashboard/public/overview.server.ts';
import { ACTIVITY_LIMIT, conversionPercent } from '../dashboard/public/overview.ts';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import {
  adminActivityResponseSchema,
  adminOverviewResponseSchema,
  ADMINS_ONLY,
  type AdminOverview,
} from './admin-overview.ts';
import type { Activity } from '../dashboard/public/overview.ts';

/**
 * ONE round trip: the session check (`me`, whose is_admin says 403) and the site's figures, read
 * only for an admin (`WHERE me.is_admin`). The counts are agent_daily_counts summed over every agent
 * (kept by triggers: migration 0011), so no lead or estimate is counted here; the chart's days are
 * those since $3 (the first Monday of the 12 weeks, New York's), summed into weeks in TypeScript.
 */
const OVERVIEW_SQL = `
WITH ${sessionAgentCte(1)}
SELECT me.is_admin, totals.leads_total, totals.estimates_total,
       (SELECT count(*)::int FROM agents WHERE me.is_admin AND status = 'active') AS active_agents,
       (SELECT json_agg(json_build_object('day', to_char(c.day, 'YYYY-MM-DD'), 'leads', c.leads, 'estimates', c.estimates))
          FROM (SELECT day, sum(leads)::int AS leads, sum(estimates)::int AS estimates
                  FROM agent_daily_counts WHERE me.is_admin AND day >= $3::date GROUP BY day) c) AS days
  FROM me
  CROSS JOIN LATERAL (SELECT coalesce(sum(leads), 0)::int AS leads_total, coalesce(sum(estimates), 0)::int AS estimates_total
                        FROM agent_daily_counts WHERE me.is_admin) totals`;

const overviewRowSchema = z.object({
  is_admin: z.boolean(),
  leads_total: z.number(),
  estimates_total: z.number(),
  active_agents: z.number(),
  days: z.array(z.object({ day: z.string(), leads: z.number(), estimates: z.number() })).nullable(),
});

/**
 * ONE round trip: the session check and the site's newest activity (ACTIVITY_KINDS, plus the newest
 * agents), each item with the name of the agent it is about. The newest estimates and leads of the
 * site are found through the (agent_id, created_at) indexes: each agent's newest few, then the
 * newest of those, so no table is sorted whole. The LIMITs are written in (a constant of ours, not
 * input), as the dashboard's are, so that the prepared statement keeps its generic plan.
 */
const ACTIVITY_SQL = `
WITH ${sessionAgentCte(1)},
recent_estimates AS MATERIALIZED (
  SELECT e.* FROM me CROSS JOIN agents a CROSS JOIN LATERAL (
    SELECT uuid, agent_id, created_at, sale_price_cents, mortgage_payoff_cents, commission_percent,
           transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, (sheet->>'net_cents')::bigint AS sheet_net_cents
      FROM estimates WHERE agent_id = a.id ORDER BY created_at DESC LIMIT ${ACTIVITY_LIMIT}) e
   WHERE me.is_admin
   ORDER BY e.created_at DESC LIMIT ${ACTIVITY_LIMIT}
),
recent_leads AS MATERIALIZED (
  SELECT l.* FROM me CROSS JOIN agents a CROSS JOIN LATERAL (
    SELECT id, agent_id, created_at, first_name, last_name, source, page_path
      FROM leads WHERE agent_id = a.id ORDER BY created_at DESC, id DESC LIMIT ${ACTIVITY_LIMIT}) l
   WHERE me.is_admin
   ORDER BY l.created_at DESC, l.id DESC LIMIT ${ACTIVITY_LIMIT}
),
recent_agents AS MATERIALIZED (
  SELECT a.id, a.created_at, trim(a.first_name || ' ' || a.last_name) AS name, a.status
    FROM me CROSS JOIN agents a WHERE me.is_admin ORDER BY a.created_at DESC, a.id DESC LIMIT ${ACTIVITY_LIMIT}
),
-- A new agent comes before anything on their calculator at the same moment (rank 0).
activity AS (
  SELECT * FROM (${ACTIVITY_KINDS}
    UNION ALL
    SELECT 'agent', g.created_at, 0, g.id::text, g.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, g.name, NULL, NULL, g.status
      FROM recent_agents g
  ) kinds
  ORDER BY at DESC, rank DESC, key COLLATE "C" DESC LIMIT ${ACTIVITY_LIMIT}
)
SELECT me.is_admin,
       (SELECT json_agg(json_build_object('agent_name', trim(g.first_name || ' ' || g.last_name), 'row', to_jsonb(a))
                        ORDER BY a.at DESC, a.rank DESC, a.key COLLATE "C" DESC)
          FROM activity a JOIN agents g ON g.id = a.agent_id) AS activity
  FROM me`;

const activityAnswerSchema = z.object({
  is_admin: z.boolean(),
  activity: z.array(z.object({ agent_name: z.string(), row: activityRowSchema })).nullable(),
});

/** The row of a query selected FROM me: 401 without it (the session is gone), 403 for an agent. */
function adminRow<Schema extends z.core.$ZodType<{ is_admin: boolean }>>(
  schema: Schema,
  raw: Record<string, unknown> | undefined,
): z.output<Schema> {
  if (!raw) throw new HttpError(401, PLEASE_LOG_IN);
  const row = z.parse(schema, raw);
  if (!row.is_admin) throw new HttpError(403, ADMINS_ONLY);
  return row;
}

export async function adminOverview(db: Db, claims: SessionClaims): Promise<AdminOverview> {
  const { firstWeek } = chartDays();
  const [raw] = await db.query<Record<string, unknown>>(OVERVIEW_SQL, [...sessionParams(claims), firstWeek]);
  const row = adminRow(overviewRowSchema, raw);
  return {
    leads_total: row.leads_total,
    estimates_total: row.estimates_total,
    active_agents: row.active_agents,
    conversion_percent: conversionPercent(row.leads_total, row.estimates_total),
    weeks: weeksFrom(firstWeek, row.days ?? []),
  };
}

export async function adminActivity(db: Db, claims: SessionClaims): Promise<Activity[]> {
  const [raw] = await db.query<Record<string, unknown>>(ACTIVITY_SQL, sessionParams(claims));
  const row = adminRow(activityAnswerSchema, raw);
  return (row.activity ?? []).map((item) => toActivity(item.row, item.agent_name));
}

/** The admin overview: the site's figures and recent activity. */
export const adminOverviewApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/admin/overview',
      access: 'admin',
      summary: "The site's figures: every agent's leads and estimates, a 12-week chart",
      tag: 'Admin',
      success: ok('The overview', adminOverviewResponseSchema),
      handler: async (c, { db }) => c.json({ success: true, overview: await adminOverview(db, sessionOf(c)) }),
    }),
    op({
      method: 'GET',
      path: '/api/admin/activity',
      access: 'admin',
      summary: 'Recent activity across agents',
      tag: 'Admin',
      success: ok('The activity', adminActivityResponseSchema),
      handler: async (c, { db }) => c.json({ success: true, activities: await adminActivity(db, sessionOf(c)) }),
    }),
  ],
);
