import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../server/db.ts';
import { HttpError, parseOrThrow, readJson, route } from '../../server/http.ts';
import type { Estimate } from '../estimate/estimate-request.ts';
import { queueEmailsStatement, type MailContext, type OutgoingEmail } from '../email/email.server.ts';
import { findActiveAgent, findEstimateAndAgent, type AgentContact } from '../email/lookups.server.ts';
import { estimateEmail, newLeadEmail } from '../email/templates.ts';
import { agentPageLeadSchema, contactLeadSchema, estimatePageLeadSchema } from './lead.ts';

/** Every lead shape reduced to one row, with the reference that names its agent. */
interface NewLead {
  agent: { slug: string } | { id: number } | { estimateUuid: string };
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
const contactDetails = (lead: { email: string; phone: string | null; source: string; consent_marketing: boolean }) => ({
  email: lead.email,
  phone: lead.phone,
  source: lead.source,
  consent_marketing: lead.consent_marketing,
});

function parseLead(shape: LeadShape, body: Record<string, unknown>): NewLead {
  switch (shape) {
    case 'agent': {
      const lead = parseOrThrow(agentPageLeadSchema, body);
      return {
        ...contactDetails(lead),
        // A lead about an estimate belongs to the estimate's agent.
        agent: lead.estimate_uuid ? { estimateUuid: lead.estimate_uuid } : { id: lead.agent_id },
        first_name: lead.first_name,
        last_name: lead.last_name,
        address: lead.address,
        message: null,
        estimate_uuid: lead.estimate_uuid ?? null,
        email_body: lead.email_body,
      };
    }
    case 'estimate': {
      const lead = parseOrThrow(estimatePageLeadSchema, body);
      const [first = '', ...rest] = lead.name.split(/\s+/);
      return {
        ...contactDetails(lead),
        agent: { estimateUuid: lead.estimate_uuid },
        first_name: first,
        last_name: rest.join(' '),
        address: null,
        message: lead.message,
        estimate_uuid: lead.estimate_uuid,
        email_body: lead.email_body,
      };
    }
    case 'contact': {
      const lead = parseOrThrow(contactLeadSchema, body);
      return {
        ...contactDetails(lead),
        agent: { slug: lead.agent_slug },
        first_name: lead.firstName,
        last_name: lead.lastName,
        address: lead.address,
        message: null,
        estimate_uuid: null,
        email_body: null,
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
 * agent), with the estimate. Undefined when there is no such agent or estimate.
 */
async function findTarget(db: Db, lead: NewLead): Promise<LeadTarget | undefined> {
  const { agent } = lead;
  if ('estimateUuid' in agent) {
    const found = await findEstimateAndAgent(db, agent.estimateUuid);
    return found && found.agent.status === 'active' ? found : undefined;
  }
  const row = await findActiveAgent(db, agent);
  return row ? { agent: row, estimate: null } : undefined;
}

/** The e-mails a new lead sends: the agent's notice and, from the agent page, the visitor's estimate. */
function leadEmails(shape: LeadShape, lead: NewLead, target: LeadTarget, siteUrl: string): OutgoingEmail[] {
  const { agent, estimate } = target;
  const messages: OutgoingEmail[] = [
    {
      kind: 'new_lead',
      to: { email: agent.email, name: `${agent.first_name} ${agent.last_name}` },
      ...newLeadEmail({ lead, estimate, agent, siteUrl }),
      estimateUuid: estimate?.uuid ?? null,
    },
  ];
  if (shape === 'agent' && estimate) {
    const recipientName = `${lead.first_name} ${lead.last_name}`.trim();
    messages.push({
      kind: 'estimate',
      to: { email: lead.email, name: recipientName },
      ...estimateEmail({ estimate, recipientName, agent, siteUrl }),
      estimateUuid: estimate.uuid,
    });
  }
  return messages;
}

/**
 * One statement, so the lead and its queued e-mails are written together or not at all. The agent
 * is checked again (still active) as the lead is written.
 */
async function insertLead(
  db: Db,
  lead: NewLead,
  agentId: number,
  messages: readonly OutgoingEmail[],
): Promise<{ id: number; created_at: Date; delivery_ids: number[] } | undefined> {
  const queued = queueEmailsStatement(messages, { firstParam: 12, leadIdFrom: 'lead' });
  const [row] = await db.query<{ id: number; created_at: Date; delivery_ids: number[] }>(
    `WITH lead AS (
       INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, message, source,
                          consent_marketing, estimate_uuid, email_body)
       SELECT a.id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
         FROM agents a
        WHERE a.id = $1 AND a.status = 'active'
       RETURNING id, created_at
     ),
     queued AS (${queued.sql})
     SELECT lead.id, lead.created_at, ARRAY(SELECT id FROM queued ORDER BY id) AS delivery_ids FROM lead`,
    [
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
      ...queued.params,
    ],
  );
  return row;
}

const notFound = (lead: NewLead) =>
  'estimateUuid' in lead.agent
    ? new HttpError(404, 'Estimate not found', { estimate_uuid: 'Estimate not found' })
    : new HttpError(404, 'Agent not found');

export function leadRoutes(db: Db, mail: MailContext): Hono {
  const app = new Hono();
  /**
   * Two round trips: the agent (and estimate), then the lead with its queued e-mails. The e-mails
   * are delivered after the response; a failing provider never loses the lead or fails the request.
   */
  route(app, '/leads', {
    POST: async (c) => {
      const body = await readJson(c, z.record(z.string(), z.unknown()));
      const shape = shapeOf(body);
      const lead = parseLead(shape, body);
      const target = await findTarget(db, lead);
      if (!target) throw notFound(lead);
      const messages = leadEmails(shape, lead, target, mail.siteUrl(c.req.raw));
      const row = await insertLead(db, lead, target.agent.id, messages);
      if (!row) throw notFound(lead);
      mail.deliverSoon(row.delivery_ids, c.req.raw);
      // CRM sync arrives with the Follow Up Boss integration; until then no agent has one.
      return c.json(
        {
          success: true,
          lead: { id: row.id, created_at: row.created_at.toISOString() },
          fub_sync_status: 'no_integration',
        },
        201,
      );
    },
  });
  return app;
}
