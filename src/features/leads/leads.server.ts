import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../server/db.ts';
import { HttpError, parseOrThrow, readJson, route } from '../../server/http.ts';
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

function parseLead(body: Record<string, unknown>): NewLead {
  switch (shapeOf(body)) {
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

/** One round trip: the agent is found and the lead written in the same statement. */
async function insertLead(db: Db, lead: NewLead): Promise<{ id: number; created_at: Date } | undefined> {
  const { agent } = lead;
  const [row] = await db.query<{ id: number; created_at: Date }>(
    `INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, message, source,
                        consent_marketing, estimate_uuid, email_body)
     SELECT a.id, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13
       FROM agents a
      WHERE a.status = 'active'
        AND CASE WHEN $3::uuid IS NOT NULL THEN a.id = (SELECT agent_id FROM estimates WHERE uuid = $3::uuid)
                 WHEN $1::text IS NOT NULL THEN a.slug = $1::text
                 ELSE a.id = $2::integer END
     RETURNING id, created_at`,
    [
      'slug' in agent ? agent.slug : null,
      'id' in agent ? agent.id : null,
      'estimateUuid' in agent ? agent.estimateUuid : null,
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
    ],
  );
  return row;
}

export function leadRoutes(db: Db): Hono {
  const app = new Hono();
  route(app, '/leads', {
    POST: async (c) => {
      const lead = parseLead(await readJson(c, z.record(z.string(), z.unknown())));
      const row = await insertLead(db, lead);
      if (!row) {
        throw 'estimateUuid' in lead.agent
          ? new HttpError(404, 'Estimate not found', { estimate_uuid: 'Estimate not found' })
          : new HttpError(404, 'Agent not found');
      }
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
