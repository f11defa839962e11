import { randomInt } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { Db } from '../../server/db.ts';
import { HttpError, parseOrThrow, readJson, route } from '../../server/http.ts';
import { perIpCheck } from '../auth/auth-routes.server.ts';
import { countHitsStatement, enforceRateLimits, type RateCheck } from '../auth/rate-limit.server.ts';
import type { Estimate } from '../estimate/estimate-request.ts';
import { queueEmailsStatement, type MailContext, type OutgoingEmail } from '../email/email.server.ts';
import { findActiveAgent, findEstimateAndAgent, type AgentContact } from '../email/lookups.server.ts';
import { estimateEmail, newLeadEmail } from '../email/templates.ts';
import { agentPageLeadSchema, contactLeadSchema, estimatePageLeadSchema, HONEYPOT_FIELD } from './lead.ts';
import { DUPLICATE_LEAD_MINUTES, estimateEmailCheck, LEAD_LIMITS, noticeCheck } from './lead-limits.server.ts';
import { leadListHandlers } from './lead-list.server.ts';

/** Every lead shape reduced to one row, with the reference that names its agent. */
interface NewLead {
  /** A contact form's estimate is named with its agent's slug: it must be that agent's. */
  agent: { slug: string } | { id: number } | { estimateUuid: string } | { slug: string; estimateUuid: string };
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  address: string | null;
  message: string | null;
  source: string;
  consent_marketing: boolean;
  estimate_uuid: string | null;
  email_body: string | null;
  page_path: string | null;
}

type LeadShape = 'contact' | 'agent' | 'estimate';

/**
 * Which form sent the body, told by the keys only that form uses, so a body missing its name
 * field is still checked against its own form and told what is missing.
 */
function shapeOf(body: Record<string, unknown>): LeadShape {
  const has = (...keys: string[]) => keys.some((key) => key in body);
  if (has('firstName', 'lastName', 'agent_slug')) return 'contact';
  if (has('first_name', 'last_name')) return 'agent';
  if (has('name', 'message', 'estimate_uuid')) return 'estimate';
  if (has('agent_id')) return 'agent';
  return 'contact';
}

/** What every lead shape carries the same way. */
const contactDetails = (lead: {
  email: string;
  phone: string | null;
  source: string;
  consent_marketing: boolean;
  page: string | null;
}) => ({
  email: lead.email,
  phone: lead.phone,
  source: lead.source,
  consent_marketing: lead.consent_marketing,
  page_path: lead.page,
});

/** The lead, and whether its honeypot field was filled in (a bot). */
function parseLead(shape: LeadShape, body: Record<string, unknown>): { lead: NewLead; bot: boolean } {
  switch (shape) {
    case 'agent': {
      const lead = parseOrThrow(agentPageLeadSchema, body);
      return {
        bot: lead[HONEYPOT_FIELD],
        lead: {
          ...contactDetails(lead),
          // A lead about an estimate belongs to the estimate's agent.
          agent: lead.estimate_uuid ? { estimateUuid: lead.estimate_uuid } : { id: lead.agent_id },
          first_name: lead.first_name,
          last_name: lead.last_name,
          address: lead.address,
          message: null,
          estimate_uuid: lead.estimate_uuid ?? null,
          email_body: lead.email_body,
        },
      };
    }
    case 'estimate': {
      const lead = parseOrThrow(estimatePageLeadSchema, body);
      const [first = '', ...rest] = lead.name.split(/\s+/);
      return {
        bot: lead[HONEYPOT_FIELD],
        lead: {
          ...contactDetails(lead),
          agent: { estimateUuid: lead.estimate_uuid },
          first_name: first,
          last_name: rest.join(' '),
          address: null,
          message: lead.message,
          estimate_uuid: lead.estimate_uuid,
          email_body: lead.email_body,
        },
      };
    }
    case 'contact': {
      const lead = parseOrThrow(contactLeadSchema, body);
      return {
        bot: lead[HONEYPOT_FIELD],
        lead: {
          ...contactDetails(lead),
          agent: lead.estimate_uuid
            ? { slug: lead.agent_slug, estimateUuid: lead.estimate_uuid }
            : { slug: lead.agent_slug },
          first_name: lead.firstName,
          last_name: lead.lastName,
          address: lead.address,
          message: null,
          estimate_uuid: lead.estimate_uuid ?? null,
          email_body: null,
        },
      };
    }
  }
}

/** Who the lead's messages are about: its agent and, when the lead names one, the estimate. */
interface LeadTarget {
  agent: AgentContact;
  estimate: Estimate | null;
}

/**
 * One round trip: the lead's active agent (a lead about an estimate belongs to the estimate's
 * agent), with the estimate. Undefined when there is no such agent or estimate, or when a contact
 * form names an estimate of another agent than its own.
 */
async function findTarget(db: Db, lead: NewLead): Promise<LeadTarget | undefined> {
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
interface LeadEmails {
  notice: OutgoingEmail;
  visitor: OutgoingEmail | null;
}

function leadEmails(shape: LeadShape, lead: NewLead, target: LeadTarget, siteUrl: string): LeadEmails {
  const { agent, estimate } = target;
  const notice: OutgoingEmail = {
    kind: 'new_lead',
    to: { email: agent.email, name: `${agent.first_name} ${agent.last_name}` },
    ...newLeadEmail({ lead, estimate, agent, siteUrl }),
    estimateUuid: estimate?.uuid ?? null,
  };
  if (shape !== 'agent' || !estimate) return { notice, visitor: null };
  const recipientName = `${lead.first_name} ${lead.last_name}`.trim();
  return {
    notice,
    visitor: {
      kind: 'estimate',
      to: { email: lead.email, name: recipientName },
      ...estimateEmail({ estimate, recipientName, agent, siteUrl }),
      estimateUuid: estimate.uuid,
    },
  };
}

/** The lead (new, or the one a repeat belongs to) and the e-mails queued for it now. */
interface LeadOutcome {
  id: number;
  created_at: Date;
  delivery_ids: number[];
}

/**
 * One statement, so the lead, its counters and its queued e-mails are written together or not at
 * all. The agent is checked again (still active) as the lead is written.
 *
 * A repeat (the same e-mail, case-insensitive, for the same agent within DUPLICATE_LEAD_MINUTES of
 * the lead) is the same lead: no new row and no second notice to the agent; the newer estimate is
 * recorded on it and an agent-page visitor is still sent the estimate they asked for. Race-safe
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
async function insertLead(
  db: Db,
  lead: NewLead,
  agentId: number,
  { notice, visitor }: LeadEmails,
  noticesPerHour: number,
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
    ctes.push(capped('visitor', estimateEmailCheck(visitor.to.email), 'EXISTS (SELECT 1 FROM outcome)'));
    ctes.push(queue('visitor', visitor));
  }
  const queuedIds = visitor
    ? 'SELECT id FROM notice_queued UNION ALL SELECT id FROM visitor_queued'
    : 'SELECT id FROM notice_queued';
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
     lead AS (
       INSERT INTO leads (id, agent_id, first_name, last_name, email, phone, address, message, source,
                          consent_marketing, estimate_uuid, email_body, page_path, created_at, estimate_recorded_at)
       OVERRIDING SYSTEM VALUE
       SELECT outcome.id, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, outcome.created_at,
              CASE WHEN $10::uuid IS NOT NULL THEN outcome.created_at END
         FROM outcome WHERE outcome.is_new
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
     ${ctes.join(',\n     ')}
     SELECT outcome.id, outcome.created_at, ARRAY(${queuedIds} ORDER BY id) AS delivery_ids
       FROM outcome`,
    params,
  );
  return row;
}

const notFound = (lead: NewLead) =>
  'estimateUuid' in lead.agent
    ? new HttpError(404, 'Estimate not found', { estimate_uuid: 'Estimate not found' })
    : new HttpError(404, 'Agent not found');

/** The answer to a lead, the same for a new lead, a repeat and a dropped bot. */
const leadAnswer = (c: Context, id: number, createdAt: Date) =>
  // CRM sync arrives with the Follow Up Boss integration; until then no agent has one.
  c.json({ success: true, lead: { id, created_at: createdAt.toISOString() }, fub_sync_status: 'no_integration' }, 201);

export interface LeadRoutesOptions {
  /** New-lead notices one agent address receives an hour at most (LEAD_NOTICES_PER_HOUR). */
  noticesPerHour?: number;
}

export function leadRoutes(
  db: Db,
  mail: MailContext,
  clientIp: (c: Context) => string,
  { noticesPerHour = LEAD_LIMITS.noticesPerAgentAddress.limit }: LeadRoutesOptions = {},
): Hono {
  const app = new Hono();
  /**
   * Round trips: the per-IP limits (none for a local client), the agent (and estimate), then the
   * lead with its counters and queued e-mails. The e-mails are delivered after the response; a
   * failing provider never loses the lead or fails the request.
   */
  route(app, '/leads', {
    // The signed-in agent's list and Clear All share the path (route() answers 405 for the rest).
    ...leadListHandlers(db),
    POST: async (c) => {
      const body = await readJson(c, z.record(z.string(), z.unknown()));
      const shape = shapeOf(body);
      const { lead, bot } = parseLead(shape, body);
      // A filled-in honeypot is a bot: it is told what a person is told, and nothing is written
      // (not even a rate-limit counter) or sent. The id is made up, as no lead exists.
      if (bot) return leadAnswer(c, randomInt(1, 2 ** 31 - 1), new Date());
      const ip = clientIp(c);
      await enforceRateLimits(db, [
        ...perIpCheck(ip, LEAD_LIMITS.leadsPerIpShort, 'lead-10min'),
        ...perIpCheck(ip, LEAD_LIMITS.leadsPerIpHour, 'lead-hour'),
      ]);
      const target = await findTarget(db, lead);
      if (!target) throw notFound(lead);
      const emails = leadEmails(shape, lead, target, mail.siteUrl(c.req.raw));
      const row = await insertLead(db, lead, target.agent.id, emails, noticesPerHour);
      if (!row) throw notFound(lead);
      mail.deliverSoon(row.delivery_ids, c.req.raw);
      return leadAnswer(c, row.id, row.created_at);
    },
  });
  return app;
}
