/** A lead request read: which form sent it, and its body checked against that form's schema, reduced to one row. */
import { HttpError, parseOrThrow } from '../../platform/http.ts';
import { namesTown, PLACE_UNKNOWN } from '../seller-updates/public/seller-place.ts';
import {
  agentPageLeadSchema,
  contactLeadSchema,
  estimatePageLeadSchema,
  HONEYPOT_FIELD,
  type Utm,
} from './public/lead.ts';

/** Every lead shape reduced to one row, with the reference that names its agent. */
export interface NewLead {
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
  /**
   * The page the embedded calculator was on (origin and path), as its frame sent it: stored only
   * when its origin is on the agent's list (insertLead checks, in its statement).
   */
  host_page: string | null;
  /** The campaign the visitor arrived from (utm_* parameters), or null. */
  utm: Utm | null;
  /** The box "Send me a monthly update of my estimated net" was ticked (issue 25). */
  updates_opt_in: boolean;
  /** The home's town or ZIP code typed under the ticked box; null when not typed or the box is not ticked. */
  updates_place: string | null;
}

export type LeadShape = 'contact' | 'agent' | 'estimate';

/**
 * Which form sent the body, told by the keys only that form uses, so a body missing its name
 * field is still checked against its own form and told what is missing.
 */
export function shapeOf(body: Record<string, unknown>): LeadShape {
  const has = (...keys: string[]) => keys.some((key) => key in body);
  if (has('firstName', 'lastName', 'agent_slug')) return 'contact';
  if (has('first_name', 'last_name')) return 'agent';
  if (has('name', 'message', 'estimate_uuid')) return 'estimate';
  if (has('agent_id')) return 'agent';
  return 'contact';
}

/** What every lead shape carries the same way. */
export const contactDetails = (lead: {
  email: string;
  phone: string | null;
  source: string;
  consent_marketing: boolean;
  page: string | null;
  host_page: string | null;
  utm: Utm | null;
  updates_opt_in: boolean;
  updates_place: string | null;
}) => ({
  email: lead.email,
  phone: lead.phone,
  source: lead.source,
  consent_marketing: lead.consent_marketing,
  page_path: lead.page,
  host_page: lead.host_page,
  utm: lead.utm,
  updates_opt_in: lead.updates_opt_in,
  // Without the box the place is not asked for: ignored, whatever it says.
  updates_place: lead.updates_opt_in ? lead.updates_place : null,
});

/**
 * A typed place that names no town of Long Island is refused on its field before anything is
 * read or written: the visitor fixes it and sends the form again (nothing is lost). Whether a place
 * is told at all when none was typed is the opt-in's to say (prepareOptIn reads the estimate).
 */
function checkPlace(lead: NewLead): NewLead {
  if (lead.updates_place !== null && !namesTown(lead.updates_place)) {
    throw new HttpError(400, PLACE_UNKNOWN, { updates_place: PLACE_UNKNOWN });
  }
  return lead;
}

/** The lead, and whether its honeypot field was filled in (a bot). */
export function parseLead(shape: LeadShape, body: Record<string, unknown>): { lead: NewLead; bot: boolean } {
  const { lead, bot } = parseShape(shape, body);
  return { lead: checkPlace(lead), bot };
}

function parseShape(shape: LeadShape, body: Record<string, unknown>): { lead: NewLead; bot: boolean } {
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
          message: lead.message,
          estimate_uuid: lead.estimate_uuid ?? null,
          email_body: null,
        },
      };
    }
  }
}
