/**
 * What the Follow Up Boss client's test files share: a seller inquiry as the site sends it, and the
 * Basic header a key makes. Each file starts its own fake (tests/fakes/fub.ts).
 */
import type { FubEvent } from '../../src/features/crm/fub-client.server.ts';

export const sellerInquiry = (
  person: Partial<FubEvent['person']> = {},
  source = 'linetproceeds.example.com',
): FubEvent => ({
  source,
  system: 'LI Net Proceeds',
  type: 'Seller Inquiry',
  message: 'Estimated net proceeds $512,340.00 on a $650,000.00 sale: https://linetproceeds.example.com/estimate/abc',
  person: {
    firstName: 'Dana',
    lastName: 'Whitaker',
    emails: [{ value: 'dana.whitaker@example.com' }],
    phones: [{ value: '(631) 555-0142' }],
    tags: ['Seller', 'Net Proceeds Calculator'],
    sourceUrl: 'https://linetproceeds.example.com/estimate/abc',
    ...person,
  },
  property: { street: '12 Harbor Rd', city: 'Huntington', state: 'NY', code: '11743', price: 650_000 },
});

export const basicOf = (key: string): string => `Basic ${Buffer.from(`${key}:`, 'utf8').toString('base64')}`;
