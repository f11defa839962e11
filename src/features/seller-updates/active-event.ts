/**
 * The Follow Up Boss event an active seller becomes (docs/research/follow-up-boss-events.md): a
 * "Seller Inquiry" on the lead's person (by e-mail, and by FUB's person id when the lead's sync
 * kept it), from the product, saying why the seller is active and their latest net. The type is
 * an inquiry so the agent's "New Inquiry" automations fire on the existing person; it is the lead
 * sync's own type, so the same sender, schema and lookup-before-retry carry it (crm-sync.server.ts).
 */
import { BRAND_NAME } from '../../ui/brand.ts';
import { formatMoney } from '../../ui/money.ts';
import { formatPhone } from '../../ui/phone.ts';
import { FUB_EVENT_TYPE, FUB_TAGS, propertyFrom, type FubEvent } from '../crm/public/fub-event.ts';
import { estimateUrl } from '../email/public/templates.ts';
import { ACTIVE_REASON_TEXT, type ActiveReason } from './public/update-emails.ts';

export interface ActiveSeller {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  address: string | null;
  fub_person_id: number | null;
  /** The estimate the seller's updates re-price (or their latest sheet), for the event's link. */
  estimate_uuid: string | null;
  agent_slug: string;
}

export function activeSellerEvent({
  seller,
  reasons,
  netCents,
  siteUrl,
  occurredAt,
}: {
  seller: ActiveSeller;
  reasons: readonly ActiveReason[];
  netCents: number | null;
  siteUrl: string;
  occurredAt: Date;
}): FubEvent {
  const origin = siteUrl.replace(/\/+$/, '');
  const url = seller.estimate_uuid ? estimateUrl(origin, seller.estimate_uuid) : `${origin}/r/${seller.agent_slug}`;
  const message = [
    'Active seller: getting ready to sell, from their monthly net-proceeds updates.',
    ...[...new Set(reasons)].map((reason) => `- ${ACTIVE_REASON_TEXT[reason]}`),
  ];
  if (netCents !== null) message.push('', `Latest net: ${formatMoney(netCents / 100)}`);
  message.push('', `Their net sheet: ${url}`);
  return {
    source: BRAND_NAME,
    system: BRAND_NAME,
    type: FUB_EVENT_TYPE,
    message: message.join('\n'),
    description: `Reference: ${crypto.randomUUID()}`,
    occurredAt: occurredAt.toISOString(),
    person: {
      ...(seller.fub_person_id === null ? {} : { id: seller.fub_person_id }),
      firstName: seller.first_name,
      lastName: seller.last_name,
      emails: [{ value: seller.email, type: 'home' }],
      phones: seller.phone ? [{ value: formatPhone(seller.phone), type: 'mobile' }] : [],
      tags: FUB_TAGS,
      sourceUrl: url,
    },
    ...(seller.address ? { property: propertyFrom(seller.address) } : {}),
  };
}
