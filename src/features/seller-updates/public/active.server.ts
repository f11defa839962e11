/**
 * Active sellers (decision 0056): a seller who receives updates is active when they followed two
 * links within 14 days, re-ran their estimate, or asked for a net above the last one told. The
 * agent then hears of it at most once a week per seller: an e-mail, and a Follow Up Boss event
 * when their integration is on.
 *
 * The rule is read off seller_signals: a signal "triggers" when it is a re-run or a higher net, or
 * a followed link with another followed link in the 14 days before it. A subscription becomes active
 * (again) when it has a trigger newer than its active_at, and active_at becomes that trigger's time:
 * evaluating the same signals twice changes nothing, so the click route (in the signal's own
 * transaction) and the scheduled sweep (markActiveSince, which catches a crash between a signal and
 * its evaluation) can both run it.
 *
 * Two round trips: the candidates with what their alert needs (the e-mail and the event are made
 * in JS), then ONE statement that re-checks the rule's outcome on each row (active_at older than the
 * trigger, still subscribed or paused), sets active_at, and, only for the rows whose last alert is
 * NULL or over ALERT_EVERY_DAYS old, sets alerted_at and queues the e-mail and the CRM job.
 */
import * as z from 'zod';
import type { Queryable } from '../../../platform/db.ts';
import { CLAIM_SECONDS, claimedJobSchema, type ClaimedJob } from '../../crm/public/crm-sync.server.ts';
import { activeSellerEvent } from '../active-event.ts';
import { sellerActiveEmail, type ActiveReason } from './update-emails.ts';
import { agentData, queueWebhooksCte, type SellerActiveData } from '../../webhooks/public/webhook-events.server.ts';

/** Two followed links within this many days make a seller active. */
export const CLICK_WINDOW_DAYS = 14;
/** The agent hears about one seller at most once in this many days. */
export const ALERT_EVERY_DAYS = 7;

const CLICKS = `('click_sheet', 'click_agent')`;
/** The states whose sellers can become active: not pending (no update yet) nor unsubscribed. */
const LIVE_STATES = `('subscribed', 'paused')`;

const candidateSchema = z.object({
  id: z.number(),
  lead_id: z.number(),
  agent_id: z.number(),
  trigger_at: z.date(),
  reasons: z.array(z.enum(['two_clicks', 'rerun', 'higher_net'])),
  last_net_cents: z.number().nullable(),
  estimate_uuid: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  fub_person_id: z.number().nullable(),
  agent_first_name: z.string(),
  agent_last_name: z.string(),
  agent_email: z.string(),
  agent_phone: z.string().nullable(),
  agent_slug: z.string(),
});
type Candidate = z.infer<typeof candidateSchema>;

/** What evaluating the rule did: the e-mails queued and the CRM jobs written (claimed ones to send now). */
export interface ActiveOutcome {
  /** Subscriptions made active (again) by this evaluation. */
  activated: number[];
  /** Of those, the ones whose agent was alerted. */
  alerted: number[];
  deliveryIds: number[];
  /** The seller.active webhook deliveries queued with the alerts (sent by the scheduled run, or after a request's answer). */
  webhookIds: number[];
  /** With `claimCrmJobs`: the new Follow Up Boss jobs, claimed for the caller to send (sendInTurn). */
  crmJobs: ClaimedJob[];
}

export interface ActiveOptions {
  /** The origin of the links in the alert and the event. */
  siteUrl: string;
  /**
   * Claim the new CRM jobs for this caller to send right after (a request); otherwise they are left
   * queued, due now, for the scheduled sync (the sweep).
   */
  claimCrmJobs?: boolean;
}

/** SQL: the subscriptions `scope` names, each with its newest trigger newer than its active_at, and why. */
const candidatesSql = (scope: string) => `
  WITH triggered AS (
    SELECT s.id, max(g.at) AS trigger_at,
           array_agg(DISTINCT CASE WHEN g.kind IN ${CLICKS} THEN 'two_clicks' ELSE g.kind END) AS reasons
      FROM seller_updates s JOIN seller_signals g ON g.subscription_id = s.id
     WHERE ${scope} AND s.state IN ${LIVE_STATES} AND g.at > coalesce(s.active_at, '-infinity'::timestamptz)
       AND (g.kind IN ('rerun', 'higher_net')
            OR (g.kind IN ${CLICKS} AND EXISTS (
                  SELECT 1 FROM seller_signals p
                   WHERE p.subscription_id = s.id AND p.kind IN ${CLICKS} AND (p.at, p.id) < (g.at, g.id)
                     AND p.at >= g.at - interval '${CLICK_WINDOW_DAYS} days')))
     GROUP BY s.id
  )
  SELECT s.id, s.lead_id, s.agent_id, t.trigger_at, t.reasons, s.last_net_cents,
         coalesce((SELECT u.estimate_uuid::text FROM seller_update_sends u
                    WHERE u.subscription_id = s.id AND u.estimate_uuid IS NOT NULL ORDER BY u.period DESC LIMIT 1),
                  s.estimate_uuid::text) AS estimate_uuid,
         l.first_name, l.last_name, l.email, l.phone, l.address, l.fub_person_id,
         a.first_name AS agent_first_name, a.last_name AS agent_last_name, a.email AS agent_email,
         a.phone AS agent_phone, a.slug AS agent_slug
    FROM triggered t JOIN seller_updates s ON s.id = t.id
    JOIN leads l ON l.id = s.lead_id JOIN agents a ON a.id = s.agent_id
   ORDER BY s.id`;

/** The statement that marks the candidates and queues their alerts; parameters in `params` order. */
const MARK_SQL = `
  WITH c AS (
    SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                         $8::jsonb[], $9::uuid[], $12::jsonb[])
      AS c (id, trigger_at, to_email, to_name, subject, html, text, event, estimate_uuid, webhook)
  ),
  marked AS (
    UPDATE seller_updates s
       SET active_at = c.trigger_at,
           alerted_at = CASE WHEN s.alerted_at IS NULL OR s.alerted_at <= now() - interval '${ALERT_EVERY_DAYS} days'
                             THEN now() ELSE s.alerted_at END
      FROM c
     WHERE s.id = c.id AND s.state IN ${LIVE_STATES} AND (s.active_at IS NULL OR s.active_at < c.trigger_at)
    RETURNING s.id, s.lead_id, s.agent_id, s.alerted_at = now() AS alerted
  ),
  alerted AS (
    SELECT m.id, m.lead_id, m.agent_id, c.to_email, c.to_name, c.subject, c.html, c.text, c.event, c.estimate_uuid,
           c.webhook
      FROM marked m JOIN c ON c.id = m.id WHERE m.alerted
  ),
  -- Webhooks (issue 26): seller.active with the agent's alert (at most one a week per seller).
  ${queueWebhooksCte('webhooks_queued', `SELECT 'seller.active', agent_id, webhook, now() FROM alerted`)},
  queued AS (
    INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text, lead_id, estimate_uuid)
    SELECT 'seller_active', to_email, to_name, subject, html, text, lead_id, estimate_uuid FROM alerted
    RETURNING id
  ),
  crm AS (
    SELECT agent_id, api_key_encrypted, system, system_key_encrypted FROM fub_integrations
     WHERE active AND api_key_encrypted IS NOT NULL AND agent_id IN (SELECT agent_id FROM alerted)
  ),
  jobs AS (
    INSERT INTO crm_syncs (kind, about_lead_id, agent_id, payload, status, claimed_until)
    SELECT 'seller_active', alerted.lead_id, alerted.agent_id, jsonb_set(alerted.event, '{occurredAt}', to_jsonb(now())),
           CASE WHEN $10 THEN 'sending' ELSE 'queued' END,
           CASE WHEN $10 THEN now() + $11 * interval '1 second' END
      FROM alerted JOIN crm USING (agent_id)
    RETURNING id::int AS id, about_lead_id AS lead_id, agent_id, attempts, payload
  )
  SELECT ARRAY(SELECT id FROM marked ORDER BY id) AS activated,
         ARRAY(SELECT id FROM alerted ORDER BY id) AS alerted,
         ARRAY(SELECT id FROM queued ORDER BY id) AS delivery_ids,
         ARRAY(SELECT id::int FROM webhooks_queued ORDER BY id) AS webhook_ids,
         coalesce((SELECT json_agg(json_build_object('id', j.id, 'lead_id', j.lead_id, 'agent_id', j.agent_id,
                                                     'attempts', j.attempts, 'payload', j.payload,
                                                     'api_key_encrypted', crm.api_key_encrypted, 'system', crm.system,
                                                     'system_key_encrypted', crm.system_key_encrypted) ORDER BY j.id)
                     FROM jobs j JOIN crm USING (agent_id)), '[]'::json) AS crm_jobs`;

const markedSchema = z.object({
  activated: z.array(z.number()),
  alerted: z.array(z.number()),
  delivery_ids: z.array(z.number()),
  webhook_ids: z.array(z.number()),
  crm_jobs: z.array(claimedJobSchema),
});

async function mark(q: Queryable, candidates: Candidate[], options: ActiveOptions): Promise<ActiveOutcome> {
  const none: ActiveOutcome = { activated: [], alerted: [], deliveryIds: [], webhookIds: [], crmJobs: [] };
  if (candidates.length === 0) return none;
  const origin = options.siteUrl.replace(/\/+$/, '');
  const rendered = candidates.map((row) => {
    const reasons: ActiveReason[] = row.reasons;
    const email = sellerActiveEmail({
      agent: {
        first_name: row.agent_first_name,
        last_name: row.agent_last_name,
        email: row.agent_email,
        phone: row.agent_phone,
        slug: row.agent_slug,
      },
      lead: { first_name: row.first_name, last_name: row.last_name, email: row.email, phone: row.phone },
      reasons,
      netCents: row.last_net_cents,
      leadUrl: `${origin}/dashboard/leads`,
      siteUrl: origin,
    });
    const event = activeSellerEvent({
      seller: { ...row, agent_slug: row.agent_slug },
      reasons,
      netCents: row.last_net_cents,
      siteUrl: origin,
      occurredAt: row.trigger_at,
    });
    const webhook: SellerActiveData = {
      lead: {
        id: row.lead_id,
        first_name: row.first_name,
        last_name: row.last_name,
        email: row.email,
        phone: row.phone,
        property_address: row.address,
      },
      reasons,
      net_to_seller: row.last_net_cents === null ? null : row.last_net_cents / 100,
      estimate_url: row.estimate_uuid === null ? null : `${origin}/estimate/${encodeURIComponent(row.estimate_uuid)}`,
      agent: agentData(
        { slug: row.agent_slug, first_name: row.agent_first_name, last_name: row.agent_last_name },
        origin,
      ),
    };
    return { row, email, event, webhook };
  });
  const [result] = await q.query<unknown>(MARK_SQL, [
    rendered.map(({ row }) => row.id),
    rendered.map(({ row }) => row.trigger_at.toISOString()),
    rendered.map(({ row }) => row.agent_email),
    rendered.map(({ row }) => `${row.agent_first_name} ${row.agent_last_name}`),
    rendered.map(({ email }) => email.subject),
    rendered.map(({ email }) => email.html),
    rendered.map(({ email }) => email.text),
    rendered.map(({ event }) => JSON.stringify(event)),
    rendered.map(({ row }) => row.estimate_uuid),
    options.claimCrmJobs ?? false,
    CLAIM_SECONDS,
    rendered.map(({ webhook }) => JSON.stringify(webhook)),
  ]);
  const parsed = markedSchema.parse(result);
  return {
    activated: parsed.activated,
    alerted: parsed.alerted,
    deliveryIds: parsed.delivery_ids,
    webhookIds: parsed.webhook_ids,
    crmJobs: parsed.crm_jobs,
  };
}

/**
 * Evaluates the rule for `subscriptionIds` (the ones a request just signalled) and alerts their
 * agents. Pass the transaction that wrote the signals, so the signal and its outcome commit together.
 */
export async function markActive(
  q: Queryable,
  subscriptionIds: readonly number[],
  options: ActiveOptions,
): Promise<ActiveOutcome> {
  if (subscriptionIds.length === 0) return { activated: [], alerted: [], deliveryIds: [], webhookIds: [], crmJobs: [] };
  const rows = await q.query<unknown>(candidatesSql('s.id = ANY($1::int[])'), [[...new Set(subscriptionIds)]]);
  return mark(q, z.array(candidateSchema).parse(rows), options);
}

/**
 * The sweep for the scheduled run: every subscription with a signal at or after `since` (the last
 * sweep's start, say, or a day ago), so a signal whose evaluation was lost is evaluated now. Its CRM
 * jobs are left queued for the scheduled sync.
 */
export async function markActiveSince(
  q: Queryable,
  since: Date,
  options: Omit<ActiveOptions, 'claimCrmJobs'>,
): Promise<ActiveOutcome> {
  const rows = await q.query<unknown>(
    candidatesSql('s.id IN (SELECT subscription_id FROM seller_signals WHERE at >= $1::timestamptz)'),
    [since.toISOString()],
  );
  return mark(q, z.array(candidateSchema).parse(rows), { ...options, claimCrmJobs: false });
}
