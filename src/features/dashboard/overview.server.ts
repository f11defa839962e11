import { Hono } from 'hono';
import { z } from 'zod';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/access.server.ts';
import { PLEASE_LOG_IN } from '../auth/sessions.server.ts';
import { computeEstimate } from '../estimate/estimate.ts';
import type { Db } from '../../server/db.ts';
import { HttpError, route } from '../../server/http.ts';
import { centsToDollars, formatMoney } from '../../ui/money.ts';
import {
  ACTIVITY_LIMIT,
  conversionPercent,
  OVERVIEW_TIME_ZONE,
  OVERVIEW_WEEKS,
  weekSchema,
  type Activity,
  type Overview,
} from './overview.ts';

/**
 * The e-mails in the activity are those about the agent's business: the new-lead notices they
 * received and the estimates sent to their sellers (found by the lead or estimate they are about).
 * Account e-mails (verification, password reset) are not activity.
 *
 * How many of the agent's newest leads and estimates are looked at for e-mails about them. An
 * e-mail is queued in the same statement as its lead or estimate and sent within minutes, so one
 * about an older lead is older than the ACTIVITY_LIMIT items the list shows; the window keeps the
 * query's cost fixed for an agent with 10,000 leads.
 */
const MAIL_WINDOW = 100;

/** The raw rows behind the activity list; messages are worded in TypeScript (money formatting). */
const activityRowSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('estimate'),
    at: z.string(),
    sale_price_cents: z.number(),
    mortgage_payoff_cents: z.number(),
    commission_percent: z.number(),
    transfer_tax_rate_per_1000: z.number(),
    attorney_fee_cents: z.number(),
    recording_fee_cents: z.number(),
  }),
  z.object({
    type: z.literal('lead'),
    at: z.string(),
    name: z.string(),
    source: z.string(),
    page_path: z.string().nullable(),
  }),
  z.object({ type: z.literal('email'), at: z.string(), subject: z.string() }),
]);

const overviewRowSchema = z.object({
  leads_total: z.number(),
  estimates_total: z.number(),
  leads_this_month: z.number(),
  weeks: z.array(weekSchema),
  activities: z.array(activityRowSchema).nullable(),
});

/**
 * ONE round trip: the session check (`me`) and every figure of the overview. The agent's rows are
 * read with the session's agent id ($1) so the planner can use the (agent_id, created_at) indexes;
 * nothing comes out unless `me` (the session still current) has its row, as the answer is
 * selected FROM me. Weeks (from Monday) and months are New York's: their bounds are local times
 * converted to timestamptz, so each week is one index range count and DST is respected.
 */
const OVERVIEW_SQL = `
WITH ${sessionAgentCte(1)},
tz AS (SELECT $3::text AS name),
weeks AS (
  SELECT week, week AT TIME ZONE tz.name AS starts_at, (week + interval '1 week') AT TIME ZONE tz.name AS ends_at
    FROM tz, generate_series(date_trunc('week', now() AT TIME ZONE tz.name) - ($4::int - 1) * interval '1 week',
                             date_trunc('week', now() AT TIME ZONE tz.name), interval '1 week') AS week
),
recent_estimates AS (
  SELECT * FROM estimates WHERE agent_id = $1 ORDER BY created_at DESC LIMIT $6
),
recent_leads AS (
  SELECT * FROM leads WHERE agent_id = $1 ORDER BY created_at DESC, id DESC LIMIT $6
),
mail AS (
  SELECT d.id, d.subject, d.sent_at FROM email_deliveries d
   WHERE d.status = 'sent' AND d.lead_id IN (SELECT id FROM recent_leads)
  UNION
  SELECT d.id, d.subject, d.sent_at FROM email_deliveries d
   WHERE d.status = 'sent' AND d.estimate_uuid IN (SELECT uuid FROM recent_estimates)
),
activity AS (
  (SELECT e.created_at AS at, 1 AS rank, e.uuid::text AS key,
          json_build_object('type', 'estimate', 'at', e.created_at,
            'sale_price_cents', e.sale_price_cents, 'mortgage_payoff_cents', e.mortgage_payoff_cents,
            'commission_percent', e.commission_percent, 'transfer_tax_rate_per_1000', e.transfer_tax_rate_per_1000,
            'attorney_fee_cents', e.attorney_fee_cents, 'recording_fee_cents', e.recording_fee_cents) AS item
     FROM recent_estimates e ORDER BY e.created_at DESC LIMIT $5)
  UNION ALL
  (SELECT l.created_at, 2, l.id::text,
          json_build_object('type', 'lead', 'at', l.created_at, 'name', trim(l.first_name || ' ' || l.last_name),
            'source', l.source, 'page_path', l.page_path)
     FROM recent_leads l ORDER BY l.created_at DESC, l.id DESC LIMIT $5)
  UNION ALL
  (SELECT m.sent_at, 3, m.id::text, json_build_object('type', 'email', 'at', m.sent_at, 'subject', m.subject)
     FROM mail m ORDER BY m.sent_at DESC LIMIT $5)
)
SELECT
  (SELECT count(*)::int FROM leads WHERE agent_id = $1) AS leads_total,
  (SELECT count(*)::int FROM estimates WHERE agent_id = $1) AS estimates_total,
  (SELECT count(*)::int FROM leads, tz
    WHERE agent_id = $1 AND created_at >= date_trunc('month', now() AT TIME ZONE tz.name) AT TIME ZONE tz.name)
    AS leads_this_month,
  (SELECT json_agg(json_build_object(
            'week_start', to_char(w.week, 'YYYY-MM-DD'),
            'estimates', (SELECT count(*) FROM estimates
                           WHERE agent_id = $1 AND created_at >= w.starts_at AND created_at < w.ends_at),
            'leads', (SELECT count(*) FROM leads
                       WHERE agent_id = $1 AND created_at >= w.starts_at AND created_at < w.ends_at))
          ORDER BY w.week)
     FROM weeks w) AS weeks,
  (SELECT json_agg(top.item ORDER BY top.at DESC, top.rank DESC, top.key DESC)
     FROM (SELECT * FROM activity ORDER BY at DESC, rank DESC, key DESC LIMIT $5) top) AS activities
FROM me`;

/** Sources in words, for "New lead: Name (…)" when the lead did not record its page. */
const SOURCE_WORDS: Record<string, string> = {
  showcase: 'home page showcase',
  calculator: 'calculator',
  nassau_county_page: 'Nassau County page',
  suffolk_county_page: 'Suffolk County page',
};

function toActivity(row: z.infer<typeof activityRowSchema>): Activity {
  const timestamp = new Date(row.at).toISOString();
  switch (row.type) {
    case 'estimate': {
      const { netToSellerCents } = computeEstimate({
        salePriceCents: row.sale_price_cents,
        mortgagePayoffCents: row.mortgage_payoff_cents,
        commissionPercent: row.commission_percent,
        transferTaxRatePer1000: row.transfer_tax_rate_per_1000,
        attorneyFeeCents: row.attorney_fee_cents,
        recordingFeeCents: row.recording_fee_cents,
      });
      const net = formatMoney(centsToDollars(netToSellerCents));
      return { type: 'estimate', message: `Estimate of ${net} net on your calculator`, timestamp };
    }
    case 'lead': {
      const where = row.page_path ?? SOURCE_WORDS[row.source] ?? row.source;
      return { type: 'lead', message: `New lead: ${row.name} (${where})`, timestamp };
    }
    case 'email':
      return { type: 'other', message: `E-mail sent: ${row.subject}`, timestamp };
  }
}

export async function agentOverview(db: Db, claims: Parameters<typeof sessionParams>[0]): Promise<Overview> {
  const [raw] = await db.query<Record<string, unknown>>(OVERVIEW_SQL, [
    ...sessionParams(claims),
    OVERVIEW_TIME_ZONE,
    OVERVIEW_WEEKS,
    ACTIVITY_LIMIT,
    MAIL_WINDOW,
  ]);
  if (!raw) throw new HttpError(401, PLEASE_LOG_IN);
  const row = overviewRowSchema.parse(raw);
  return {
    leads_total: row.leads_total,
    estimates_total: row.estimates_total,
    leads_this_month: row.leads_this_month,
    conversion_percent: conversionPercent(row.leads_total, row.estimates_total),
    weeks: row.weeks,
    activities: (row.activities ?? []).map(toActivity),
  };
}

export function overviewRoutes(db: Db): Hono {
  const app = new Hono();
  route(app, '/agents/me/overview', {
    GET: async (c) => c.json({ success: true, overview: await agentOverview(db, sessionOf(c)) }),
  });
  return app;
}
