/**
 * The Follow Up Boss event a lead becomes (POST /v1/events, ../shared/research/follow-up-boss-api.md
 * §2): a "Seller Inquiry" from the site, the person, the property when the lead gave an address, and
 * a message with the estimate's figures and its link. Built once, when the sync job is written, and
 * stored with it (crm_syncs.payload): every retry sends the same event, read back with this schema.
 * Its description carries a reference of its own, by which a retry after a lost answer finds the
 * event among the person's in FUB instead of posting it again (crm-sync.server.ts).
 */
import * as z from 'zod';
import { BRAND_NAME } from '../../../ui/brand.ts';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';
import { leadSourceLabel } from '../../lead-origin/public/lead-page.ts';
import { estimateLinesText, estimateUrl, type EmailLead } from '../../email/public/templates.ts';
import { formatPhone } from '../../../ui/phone.ts';

/** "What's my home worth" and net-sheet requests are seller inquiries (fact sheet §2, official mapping). */
export const FUB_EVENT_TYPE = 'Seller Inquiry' as const;
export const FUB_TAGS = ['Seller', 'Net proceeds estimate'];
/** Starts the event's description; the rest is a reference no other event carries. */
const FUB_REFERENCE_LABEL = 'Reference: ';

const valueSchema = z.object({ value: z.string(), type: z.string() });

export const fubEventSchema = z.object({
  source: z.string(),
  system: z.string(),
  type: z.literal(FUB_EVENT_TYPE),
  message: z.string(),
  // "Reference: <uuid>"; absent from the events of jobs written before it was added.
  description: z.string().optional(),
  occurredAt: z.string(),
  person: z.object({
    // FUB's person id, when a sync kept it: matches the person directly (an event about a known lead).
    id: z.number().int().positive().optional(),
    firstName: z.string(),
    lastName: z.string(),
    emails: z.array(valueSchema),
    phones: z.array(valueSchema),
    tags: z.array(z.string()),
    sourceUrl: z.string(),
  }),
  property: z
    .object({
      street: z.string(),
      city: z.string().optional(),
      state: z.string().optional(),
      // A string, as FUB requires (fact sheet pitfall 5).
      code: z.string().optional(),
      price: z.number().optional(),
    })
    .optional(),
});

export type FubEvent = z.infer<typeof fubEventSchema>;

/** "12 Oak Lane, Garden City, NY 11530" in its parts; anything else stays whole as the street. */
export function propertyFrom(address: string): NonNullable<FubEvent['property']> {
  const match = /^(.+?),\s*([^,]+?),\s*([A-Za-z]{2})\s+(\d{5})(?:-\d{4})?$/.exec(address.trim());
  if (!match) return { street: address.trim() };
  const [, street = '', city = '', state = '', code = ''] = match;
  return { street, city, state: state.toUpperCase(), code };
}

export interface FubLead extends EmailLead {
  created_at: string;
}

/** The event for a lead (and its estimate, when it has one) of the agent at /r/{agentSlug}. */
export function fubEventFor({
  lead,
  estimate,
  agentSlug,
  siteUrl,
}: {
  lead: FubLead;
  estimate: Estimate | null;
  agentSlug: string;
  siteUrl: string;
}): FubEvent {
  const origin = siteUrl.replace(/\/+$/, '');
  const url = estimate ? estimateUrl(origin, estimate.uuid) : `${origin}${lead.page_path ?? `/r/${agentSlug}`}`;
  const message = [`Seller inquiry from ${leadSourceLabel(lead.source, lead.page_path)}.`];
  if (lead.message) message.push('', lead.message);
  if (estimate)
    message.push('', 'Their estimate:', ...estimateLinesText(estimate, 'agent'), '', `View the estimate: ${url}`);
  const property = lead.address ? propertyFrom(lead.address) : undefined;
  return {
    source: BRAND_NAME,
    system: BRAND_NAME,
    type: FUB_EVENT_TYPE,
    message: message.join('\n'),
    description: `${FUB_REFERENCE_LABEL}${crypto.randomUUID()}`,
    occurredAt: lead.created_at,
    person: {
      firstName: lead.first_name,
      lastName: lead.last_name,
      emails: [{ value: lead.email, type: 'home' }],
      phones: lead.phone ? [{ value: formatPhone(lead.phone), type: 'mobile' }] : [],
      tags: FUB_TAGS,
      sourceUrl: url,
    },
    ...(property ? { property: estimate ? { ...property, price: estimate.sale_price } : property } : {}),
  };
}
