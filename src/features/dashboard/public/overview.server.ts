import * as z from 'zod';
import { sessionAgentCte, sessionOf, sessionParams } from '../../auth/public/access.server.ts';
import { PLEASE_LOG_IN } from '../../auth/public/sessions.server.ts';
import { computeEstimate, storedEstimateInputs } from '../../net-sheet/public/estimate.ts';
import type { Db } from '../../../platform/db.ts';
import { HttpError } from '../../../platform/http.ts';
import { apiGroup, ok } from '../../../platform/operation.ts';
import { centsToDollars, formatMoney } from '../../../ui/money.ts';
import {
  ACTIVITY_LIMIT,
  conversionPercent,
  OVERVIEW_TIME_ZONE,
  OVERVIEW_WEEKS,
  overviewResponseSchema,
  type Week,
  type Activity,
  type Overview,
} from './overview.ts';
import { onFirstUse } from '../../../ui/on-first-use.ts';
import { leadSourceLabel } from '../../lead-origin/public/lead-page.ts';

/**
 * The rows behind the activity list; messages are worded in TypeScript (money formatting). The
 * e-mails are those about the agent's business: the new-lead notices they received and the
 * estimates sent to their sellers, found by the newest leads and estimates they are about (an
 * e-mail goes out minutes after its row, so one about an older row is older than the list).
 * Account e-mails (verification, password reset) are not activity. Each row carries every kind's
 * columns (null where not its kind); the schema keeps its own.
 */
export const activityRowSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('estimate'),
    at: z.string(),
    sale_price_cents: z.number(),
    mortgage_payoff_cents: z.number(),
    commission_percent: z.number(),
    transfer_tax_rate_per_1000: z.number(),
    attorney_fee_cents: z.number(),
    recording_fee_cents: z.number(),
    /** A detailed estimate's net (its stored sheet's); null for a quick one. */
    sheet_net_cents: z.number().nullable(),
  }),
  z.object({
    type: z.literal('lead'),
    at: z.string(),
    name: z.string(),
    source: z.string(),
    page_path: z.string().nullable(),
  }),
  z.object({ type: z.literal('email'), at: z.string(), subject: z.string() }),
  // A lead's sync to Follow Up Boss that ended: status synced, ignored or rejected; name is the lead's.
  z.object({ type: z.literal('crm'), at: z.string(), name: z.string(), subject: z.string() }),
  // An agent's account was made (the admin's activity only): name is the agent's, subject their status.
  z.object({ type: z.literal('agent'), at: z.string(), name: z.string(), subject: z.string() }),
]);

/**
 * The newest activity of every kind, read from the CTEs `recent_estimates` and `recent_leads` (each
 * with agent_id) that a query defines for its scope (one agent's, or the whole site's): their
 * estimates and leads, the e-mails sent about them and their leads' ended syncs to Follow Up Boss.
 * Every row carries agent_id and every kind's columns (null where not its kind). At the same moment
 * a CRM sync comes after its lead's e-mail, an e-mail after its lead, a lead after its estimate
 * (rank).
 */
export const ACTIVITY_KINDS = `
    SELECT 'estimate' AS type, e.created_at AS at, 1 AS rank, e.uuid::text AS key, e.agent_id,
           e.sale_price_cents, e.mortgage_payoff_cents, e.commission_percent, e.transfer_tax_rate_per_1000,
           e.attorney_fee_cents, e.recording_fee_cents, e.sheet_net_cents, NULL AS name, NULL AS source, NULL AS page_path, NULL AS subject
      FROM recent_estimates e
    UNION ALL
    SELECT 'lead', l.created_at, 2, l.id::text, l.agent_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           trim(l.first_name || ' ' || l.last_name), l.source, l.page_path, NULL
      FROM recent_leads l
    UNION ALL
    (SELECT 'email', d.sent_at, 3, d.id::text,
            coalesce((SELECT agent_id FROM recent_leads WHERE id = d.lead_id),
                     (SELECT agent_id FROM recent_estimates WHERE uuid = d.estimate_uuid)),
            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, d.subject
       FROM email_deliveries d
      WHERE d.status = 'sent'
        AND (d.lead_id IN (SELECT id FROM recent_leads) OR d.estimate_uuid IN (SELECT uuid FROM recent_estimates))
      ORDER BY d.sent_at DESC LIMIT ${ACTIVITY_LIMIT})
    UNION ALL
    SELECT 'crm', s.finished_at, 4, s.id::text, l.agent_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           trim(l.first_name || ' ' || l.last_name), NULL, NULL, s.status
      FROM recent_leads l JOIN crm_syncs s ON s.lead_id = l.id
     WHERE s.finished_at IS NOT NULL`;

const overviewRowSchema = z.object({
  leads_total: z.number(),
  estimates_total: z.number(),
  days: z.array(z.object({ day: z.string(), leads: z.number(), estimates: z.number() })).nullable(),
  activity: z.array(activityRowSchema).nullable(),
});

/**
 * ONE round trip: the session check (`me`) and every figure of the overview. The agent's rows are
 * read with the session's agent id ($1) so the planner can use the (agent_id, created_at) indexes;
 * nothing comes out unless `me` (the session still current) has its row, as the answer is
 * selected FROM me. The LIMITs are written in (a constant of ours, not input): with a parameter
 * there, PostgreSQL judges the prepared statement's generic plan dearer than a custom one and plans
 * the query again on every call. The counts come from agent_daily_counts (leads and estimates per
 * New York day, kept by triggers: migration 0011), so no lead or estimate is counted here; weeks
 * (from Monday) and months are New York's, as those days are. The activity is merged and cut to
 * ACTIVITY_LIMIT before it is turned into JSON, which costs PostgreSQL more per row than finding it.
 */
const OVERVIEW_SQL = `
WITH ${sessionAgentCte(1)},
-- A few hundred rows at most (a day has up to four shards).
counts AS MATERIALIZED (SELECT day, leads, estimates FROM agent_daily_counts WHERE agent_id = $1),
recent_estimates AS MATERIALIZED (
  SELECT uuid, agent_id, created_at, sale_price_cents, mortgage_payoff_cents, commission_percent, transfer_tax_rate_per_1000,
         attorney_fee_cents, recording_fee_cents, (sheet->>'net_cents')::bigint AS sheet_net_cents
    FROM estimates WHERE agent_id = $1 ORDER BY created_at DESC LIMIT ${ACTIVITY_LIMIT}
),
recent_leads AS MATERIALIZED (
  SELECT id, agent_id, created_at, first_name, last_name, source, page_path
    FROM leads WHERE agent_id = $1 ORDER BY created_at DESC, id DESC LIMIT ${ACTIVITY_LIMIT}
),
-- The newest of every kind together (ACTIVITY_KINDS).
activity AS (
  SELECT * FROM (${ACTIVITY_KINDS}) kinds
  ORDER BY at DESC, rank DESC, key COLLATE "C" DESC LIMIT ${ACTIVITY_LIMIT}
)
SELECT
  (SELECT coalesce(sum(leads), 0)::int FROM counts) AS leads_total,
  (SELECT coalesce(sum(estimates), 0)::int FROM counts) AS estimates_total,
  -- The days since $3 (the 12 weeks' first Monday or the month's first day), summed in TypeScript.
  (SELECT json_agg(json_build_object('day', to_char(c.day, 'YYYY-MM-DD'), 'leads', c.leads, 'estimates', c.estimates))
     FROM (SELECT day, sum(leads)::int AS leads, sum(estimates)::int AS estimates
             FROM counts WHERE day >= $3::date GROUP BY day) c) AS days,
  (SELECT json_agg(a ORDER BY a.at DESC, a.rank DESC, a.key COLLATE "C" DESC) FROM activity a) AS activity
FROM me`;

/** How a lead's sync to Follow Up Boss ended, in words (crm_syncs.status). */
const CRM_WORDS: Record<string, string> = {
  synced: 'Sent to Follow Up Boss',
  ignored: 'Follow Up Boss ignored (lead flow archived)',
  rejected: 'Follow Up Boss refused',
};

/**
 * An activity row in words. `agentName` is the agent the row is about when the list is the whole
 * site's (the admin's); without it the list is the signed-in agent's own, said to them.
 */
export function toActivity(row: z.infer<typeof activityRowSchema>, agentName?: string): Activity {
  const timestamp = new Date(row.at).toISOString();
  const forAgent = agentName === undefined ? '' : ` (${agentName})`;
  switch (row.type) {
    case 'estimate': {
      const net = formatMoney(
        centsToDollars(row.sheet_net_cents ?? computeEstimate(storedEstimateInputs(row)).netToSellerCents),
      );
      const calculator = agentName === undefined ? 'your calculator' : `${agentName}’s calculator`;
      return { type: 'estimate', label: 'Estimate', message: `Estimate of ${net} net on ${calculator}`, timestamp };
    }
    case 'lead': {
      const where = leadSourceLabel(row.source, row.page_path);
      const lead = agentName === undefined ? 'New lead' : `New lead for ${agentName}`;
      return { type: 'lead', label: 'Lead', message: `${lead}: ${row.name} (${where})`, timestamp };
    }
    case 'email':
      return { type: 'other', label: 'E-mail', message: `E-mail sent: ${row.subject}${forAgent}`, timestamp };
    case 'crm':
      return {
        type: 'other',
        label: 'CRM',
        message: `${CRM_WORDS[row.subject] ?? 'Follow Up Boss sync ended'}: ${row.name}${forAgent}`,
        timestamp,
      };
    case 'agent':
      return { type: 'other', label: 'Agent', message: `New agent: ${row.name} (${row.subject})`, timestamp };
  }
}

const newYorkDay = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: OVERVIEW_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }),
);

/** The New York date (YYYY-MM-DD) of a moment: the days agent_daily_counts keeps are New York's. */
const newYorkDate = (moment: Date): string => newYorkDay().format(moment);

const DAY_MS = 86_400_000;

/** `date` (YYYY-MM-DD) plus `days` days. */
const plusDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** OVERVIEW_WEEKS weeks from `firstWeek` (a Monday), each the sum of its New York days, zero-filled. */
export function weeksFrom(firstWeek: string, days: { day: string; leads: number; estimates: number }[]): Week[] {
  const weeks = Array.from({ length: OVERVIEW_WEEKS }, (_, index) => ({
    week_start: plusDays(firstWeek, index * 7),
    estimates: 0,
    leads: 0,
  }));
  const first = Date.parse(`${firstWeek}T00:00:00Z`);
  for (const { day, leads, estimates } of days) {
    const week = weeks[Math.floor((Date.parse(`${day}T00:00:00Z`) - first) / (7 * DAY_MS))];
    if (!week) continue;
    week.estimates += estimates;
    week.leads += leads;
  }
  return weeks;
}

/**
 * The days a chart and "this month" need, in New York: the month's first day, the first Monday of
 * the OVERVIEW_WEEKS weeks, and `since`, the earlier of the two (the first day to read counts for).
 */
export function chartDays(now = new Date()): { monthStart: string; firstWeek: string; since: string } {
  const today = newYorkDate(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const monday = plusDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
  const firstWeek = plusDays(monday, -(OVERVIEW_WEEKS - 1) * 7);
  return { monthStart, firstWeek, since: firstWeek < monthStart ? firstWeek : monthStart };
}

export async function agentOverview(db: Db, claims: Parameters<typeof sessionParams>[0]): Promise<Overview> {
  const { monthStart, firstWeek, since } = chartDays();
  const [raw] = await db.query<Record<string, unknown>>(OVERVIEW_SQL, [...sessionParams(claims), since]);
  if (!raw) throw new HttpError(401, PLEASE_LOG_IN);
  const row = overviewRowSchema.parse(raw);
  const days = row.days ?? [];
  return {
    leads_total: row.leads_total,
    estimates_total: row.estimates_total,
    leads_this_month: days.filter(({ day }) => day >= monthStart).reduce((sum, { leads }) => sum + leads, 0),
    conversion_percent: conversionPercent(row.leads_total, row.estimates_total),
    weeks: weeksFrom(firstWeek, days),
    activities: (row.activity ?? []).map((activity) => toActivity(activity)),
  };
}

/** The agent's dashboard overview. */
export const overviewApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/agents/me/overview',
      access: 'agent',
      summary: "The agent's dashboard figures, chart and recent activity",
      tag: 'Dashboard',
      success: ok('The overview', overviewResponseSchema),
      handler: async (c, { db }) => c.json({ success: true, overview: await agentOverview(db, sessionOf(c)) }),
    }),
  ],
);
