/** A lead written: its agent found, its e-mails made, and the one statement that stores it with what it causes. */
import { hostOriginOf } from '../embed/public/embed-links.ts';
import { type Db } from '../../platform/db.ts';
import { countHitsStatement, type RateCheck } from '../../platform/rate-limit.server.ts';
import type { Estimate } from '../net-sheet/public/estimate-request.ts';
import { queueEmailsStatement, type OutgoingEmail } from '../email/public/email.server.ts';
import { findActiveAgent, findEstimateAndAgent, type AgentContact } from '../email/public/lookups.server.ts';
import { estimateEmail, newLeadEmail } from '../email/public/templates.ts';
import { type EstimateEmailStatus } from './public/lead.ts';
import { DUPLICATE_LEAD_MINUTES, estimateEmailCheck, noticeCheck } from '../lead-origin/public/lead-limits.server.ts';
import { CLAIM_SECONDS } from '../crm/public/crm-sync.server.ts';
import { type FubEvent } from '../crm/public/fub-event.ts';
import type { LeadShape, NewLead } from './lead-intake.server.ts';
import { optInStatement, type OptInPlan } from '../seller-updates/public/opt-in.server.ts';
import type { OptInStatus } from '../seller-updates/public/opt-in.ts';
import { leadSignalsStatement } from '../seller-updates/public/lead-signals.server.ts';
import { queueWebhooksCte, withLeadIdentity, type LeadEventData } from '../webhooks/public/webhook-events.server.ts';

/** Who the lead's messages are about: its agent and, when the lead names one, the estimate. */
export interface LeadTarget {
  agent: AgentContact;
  estimate: Estimate | null;
}

/**
 * One round trip: the lead's active agent (a lead about an estimate belongs to the estimate's
 * agent), with the estimate. Undefined when there is no such agent or estimate, or when a contact
 * form names an estimate of another agent than its own.
 */
export async function findTarget(db: Db, lead: NewLead): Promise<LeadTarget | undefined> {
  const { agent } = lead;
  if ('estimateUuid' in agent) {
    const found = await findEstimateAndAgent(db, agent.estimateUuid);
    if (!found || found.agent.status !== 'active') return undefined;
    if ('slug' in agent && found.estimate.agent_slug !== agent.slug) return undefined;
    return found;
  }
  const row = await findActiveAgent(db, agent);
  return row ? { agent: row, estimate: null } : undefined;
}

/** The e-mails a lead may send: the agent's notice and, from the agent page, the visitor's estimate. */
export interface LeadEmails {
  notice: OutgoingEmail;
  visitor: OutgoingEmail | null;
}

export function leadEmails(shape: LeadShape, lead: NewLead, target: LeadTarget, siteUrl: string): LeadEmails {
  const { agent, estimate } = target;
  const notice: OutgoingEmail = {
    kind: 'new_lead',
    to: { email: agent.email, name: `${agent.first_name} ${agent.last_name}` },
    ...newLeadEmail({ lead, estimate, agent, siteUrl }),
    estimateUuid: estimate?.uuid ?? null,
  };
  if (shape !== 'agent' || !estimate) return { notice, visitor: null };
  return {
    notice,
    visitor: {
      kind: 'estimate',
      // No display name: the visitor typed it, and the address has not shown it is theirs (finding 2).
      to: { email: lead.email },
      ...estimateEmail({ estimate, agent, siteUrl }),
      estimateUuid: estimate.uuid,
    },
  };
}

/** The lead (new, or the one a repeat belongs to), the e-mails queued for it now, and its CRM sync. */
export interface LeadOutcome {
  id: number;
  created_at: Date;
  delivery_ids: number[];
  /** The spec's status when there is nothing to send: no_integration or no_api_key. */
  crm_state: 'no_integration' | 'no_api_key' | null;
  /** The new lead's sync job, claimed for sending now, with its agent's credentials. */
  crm_job: unknown;
  /** A repeat's: the sync status of the lead it belongs to. */
  crm_status: string | null;
  /** What became of the visitor's estimate e-mail (issue 23, M3), and when the cap lets it go again. */
  estimate_email: EstimateEmailStatus;
  estimate_email_retry_after: number | null;
  /** What became of the monthly updates' confirmation e-mail (issue 25). */
  updates: OptInStatus;
  /** Subscriptions this lead signalled (a re-run, a higher net), for the active rule (markActive). */
  signalled: number[];
  /** The webhook deliveries queued (lead.created, or lead.updated for a repeat with a newer estimate). */
  webhook_ids: number[];
}

/**
 * One statement, so the lead, its counters and its queued e-mails are written together or not at
 * all. The agent is checked again (still active) as the lead is written.
 *
 * A repeat (the same e-mail, case-insensitive, for the same agent within DUPLICATE_LEAD_MINUTES of
 * the lead) is the same lead: no new row and no second notice to the agent; the newer estimate is
 * recorded on it and an agent-page visitor is still sent the estimate they asked for (once per
 * estimate: the lead's own copy of it is not queued twice). Race-safe
 * through lead_claims: the statement first claims the (agent, e-mail) row with INSERT … ON
 * CONFLICT DO UPDATE. Of two requests at once, the second waits on the first's row lock and then
 * sees the committed claim (ON CONFLICT looks at the latest row version, not at the statement's
 * snapshot), so it takes the first's lead id instead of the id it reserved. A lock taken inside
 * one statement (pg_advisory_xact_lock) would not do: the statement's snapshot predates the wait.
 * The new lead's id is reserved from the leads sequence up front so the claim can name it.
 *
 * Per-recipient caps, counted only for messages that would be sent: the agent's notices
 * (noticesPerAgentAddress) and the visitor's estimate e-mails (estimateEmailsPerRecipient, shared
 * with send-estimate). Beyond a cap the lead is still saved (a lead is never lost) and answered as
 * usual; only the e-mail is not queued.
 */
export async function insertLead(
  db: Db,
  lead: NewLead,
  agentId: number,
  { notice, visitor }: LeadEmails,
  noticesPerHour: number,
  crmEvent: FubEvent,
  /** The ticked box's subscription and confirmation (prepareOptIn), or null. */
  optIn: OptInPlan | null = null,
  /** The net of the lead's estimate in cents (for a subscribed seller's 'higher_net' signal), or null. */
  estimateNetCents: number | null = null,
  /** The lead's webhook data (leadEventData); its id and time are the statement's. */
  webhookData: LeadEventData | null = null,
): Promise<LeadOutcome | undefined> {
  const params: unknown[] = [
    agentId,
    lead.first_name,
    lead.last_name,
    lead.email,
    lead.phone,
    lead.address,
    lead.message,
    lead.source,
    lead.consent_marketing,
    lead.estimate_uuid,
    lead.email_body,
    lead.page_path,
    DUPLICATE_LEAD_MINUTES,
    JSON.stringify(crmEvent),
    CLAIM_SECONDS,
    lead.utm ? JSON.stringify(lead.utm) : null,
    lead.host_page,
    hostOriginOf(lead.host_page),
  ];
  /** A CTE that counts `check` when `onlyIf` holds and names the lead if the count is within the cap. */
  const capped = (name: string, check: RateCheck, onlyIf: string) => {
    const counting = countHitsStatement([check], { firstParam: params.length + 1, onlyIf });
    params.push(...counting.params, check.limit);
    return `${name}_hits AS (${counting.sql}),
     ${name}_lead AS (SELECT outcome.id FROM outcome JOIN ${name}_hits ON ${name}_hits.hits <= $${params.length})`;
  };
  const queue = (name: string, message: OutgoingEmail) => {
    const queued = queueEmailsStatement([message], { firstParam: params.length + 1, leadIdFrom: `${name}_lead` });
    params.push(...queued.params);
    return `${name}_queued AS (${queued.sql})`;
  };
  const ctes = [
    capped(
      'notice',
      noticeCheck(notice.to.email, noticesPerHour),
      'EXISTS (SELECT 1 FROM outcome WHERE outcome.is_new)',
    ),
    queue('notice', notice),
  ];
  if (visitor) {
    // Not when this lead was sent this estimate already: a repeat of the same form (or the same
    // statement sent again after its answer was lost) asks for nothing new.
    const notSentYet = `NOT EXISTS (SELECT 1 FROM email_deliveries d JOIN outcome ON d.lead_id = outcome.id
                                      WHERE d.kind = 'estimate' AND d.estimate_uuid = $10::uuid)`;
    ctes.push(
      capped('visitor', estimateEmailCheck(visitor.to.email), `EXISTS (SELECT 1 FROM outcome) AND ${notSentYet}`),
    );
    ctes.push(queue('visitor', visitor));
  }
  const queued = ['SELECT id FROM notice_queued', ...(visitor ? ['SELECT id FROM visitor_queued'] : [])];
  // A subscribed seller's new estimate is a re-run, and maybe a higher net asked for (issue 25).
  const signals = leadSignalsStatement(estimateNetCents, { firstParam: params.length + 1 });
  params.push(...signals.params);
  ctes.push(...signals.ctes);
  // The seller's monthly updates (issue 25): the subscription and its confirmation, with the lead.
  let updates = "'none' AS updates";
  if (optIn) {
    const opted = optInStatement(optIn, { firstParam: params.length + 1, outcome: 'outcome', agentId: '$1::integer' });
    params.push(...opted.params);
    ctes.push(...opted.ctes);
    queued.push(opted.queuedIds);
    updates = `${opted.status} AS updates`;
  }
  const queuedIds = queued.join(' UNION ALL ');
  // Webhooks (issue 26): a new lead, or a repeat that recorded a newer estimate, for each endpoint of
  // the agent or the site that asked for it; sent after the answer.
  params.push(webhookData === null ? null : JSON.stringify(webhookData));
  const data = `$${params.length}::jsonb`;
  ctes.push(
    queueWebhooksCte(
      'webhooks_queued',
      `SELECT CASE WHEN outcome.is_new THEN 'lead.created' ELSE 'lead.updated' END, $1::integer,
              -- The page it came from: the checked host page of an embedded calculator, else the site's.
              jsonb_set(${withLeadIdentity(data, 'outcome.id', 'outcome.created_at')}, '{lead,page_url}',
                        coalesce(to_jsonb((SELECT page FROM host)), ${data} -> 'lead' -> 'page_url')),
              CASE WHEN outcome.is_new THEN outcome.created_at ELSE now() END
         FROM outcome
        WHERE ${data} IS NOT NULL
          AND (outcome.is_new
               -- A repeat with a newer estimate (the leads row as it was before this statement).
               OR (EXISTS (SELECT 1 FROM repeated)
                   AND EXISTS (SELECT 1 FROM leads l WHERE l.id = outcome.id AND l.estimate_uuid IS DISTINCT FROM $10::uuid)))`,
    ),
  );
  // Only a success the statement made is said (issue 23, M3): queued when this statement queued it;
  // counted but over the cap, limited (with the seconds until its window ends); not counted, it was
  // sent to this lead before.
  let estimateEmail = "'none' AS estimate_email, NULL::int AS estimate_email_retry_after";
  if (visitor) {
    params.push(estimateEmailCheck(visitor.to.email).windowSeconds);
    estimateEmail = `CASE WHEN EXISTS (SELECT 1 FROM visitor_queued) THEN 'queued'
                          WHEN EXISTS (SELECT 1 FROM visitor_hits) THEN 'limited'
                          ELSE 'already_sent' END AS estimate_email,
            CASE WHEN NOT EXISTS (SELECT 1 FROM visitor_queued)
                 THEN (SELECT ceil($${params.length} - h.elapsed)::int FROM visitor_hits h) END AS estimate_email_retry_after`;
  }
  const [row] = await db.query<LeadOutcome>(
    `WITH candidate AS (SELECT nextval(pg_get_serial_sequence('leads', 'id'))::integer AS id),
     claim AS (
       INSERT INTO lead_claims AS lc (agent_id, email_key, lead_id, claimed_at)
       SELECT a.id, lower($4), candidate.id, now()
         FROM agents a CROSS JOIN candidate
        WHERE a.id = $1 AND a.status = 'active'
       ON CONFLICT (agent_id, email_key) DO UPDATE SET
         lead_id = CASE WHEN lc.claimed_at > now() - $13 * interval '1 minute' THEN lc.lead_id ELSE EXCLUDED.lead_id END,
         claimed_at = CASE WHEN lc.claimed_at > now() - $13 * interval '1 minute'
                           THEN lc.claimed_at ELSE EXCLUDED.claimed_at END
       RETURNING lc.lead_id, lc.claimed_at
     ),
     outcome AS (
       SELECT claim.lead_id AS id, claim.claimed_at AS created_at, claim.lead_id = candidate.id AS is_new
         FROM claim CROSS JOIN candidate
     ),
     -- The embedded calculator's host page, only from a site the agent lists (decision 0058): any
     -- page may claim any address, but only listed sites can frame the form.
     host AS (
       SELECT CASE WHEN EXISTS (SELECT 1 FROM agent_settings WHERE agent_id = $1 AND $18::text = ANY (embed_origins))
                   THEN $17::text END AS page
     ),
     lead AS (
       INSERT INTO leads (id, agent_id, first_name, last_name, email, phone, address, message, source,
                          consent_marketing, estimate_uuid, email_body, page_path, created_at, estimate_recorded_at, utm,
                          host_page)
       OVERRIDING SYSTEM VALUE
       SELECT outcome.id, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, outcome.created_at,
              CASE WHEN $10::uuid IS NOT NULL THEN outcome.created_at END, $16::jsonb,
              host.page
         FROM outcome CROSS JOIN host WHERE outcome.is_new
       RETURNING id
     ),
     -- A repeat sent while the first is still being written (a double submit of one form, so the
     -- same estimate) finds no row here: the statement's snapshot predates that lead.
     repeated AS (
       UPDATE leads SET estimate_uuid = $10, estimate_recorded_at = now()
         FROM outcome
        WHERE NOT outcome.is_new AND leads.id = outcome.id AND $10::uuid IS NOT NULL
       RETURNING leads.id
     ),
     -- The CRM sync: a job for a new lead of an agent whose integration is on and has a key, claimed
     -- for this request to send right after the statement; its event happened when the lead was made.
     crm AS (SELECT active, api_key_encrypted, system, system_key_encrypted FROM fub_integrations WHERE agent_id = $1),
     crm_job AS (
       INSERT INTO crm_syncs (lead_id, agent_id, payload, status, claimed_until)
       SELECT lead.id, $1, jsonb_set($14::jsonb, '{occurredAt}', to_jsonb(outcome.created_at)), 'sending',
              now() + $15 * interval '1 second'
         FROM lead CROSS JOIN outcome CROSS JOIN crm
        WHERE crm.active AND crm.api_key_encrypted IS NOT NULL
       RETURNING id::int AS id, lead_id, agent_id, attempts, payload
     ),
     ${ctes.join(',\n     ')}
     SELECT outcome.id, outcome.created_at, ARRAY(${queuedIds} ORDER BY id) AS delivery_ids,
            CASE WHEN NOT EXISTS (SELECT 1 FROM crm WHERE active) THEN 'no_integration'
                 WHEN NOT EXISTS (SELECT 1 FROM crm WHERE api_key_encrypted IS NOT NULL) THEN 'no_api_key' END AS crm_state,
            (SELECT json_build_object('id', j.id, 'lead_id', j.lead_id, 'agent_id', j.agent_id, 'attempts', j.attempts,
                                      'payload', j.payload, 'api_key_encrypted', crm.api_key_encrypted,
                                      'system', crm.system, 'system_key_encrypted', crm.system_key_encrypted)
               FROM crm_job j CROSS JOIN crm) AS crm_job,
            (SELECT s.status FROM crm_syncs s WHERE s.lead_id = outcome.id) AS crm_status,
            ${estimateEmail},
            ${updates},
            ARRAY(SELECT DISTINCT subscription_id FROM seller_signals_made) AS signalled,
            ARRAY(SELECT id::int FROM webhooks_queued ORDER BY id) AS webhook_ids
       FROM outcome`,
    params,
  );
  return row;
}
