import { describe, expect, it } from 'vitest';
import { WORKED_EXAMPLE } from '../../net-sheet/worked-example.fixture.ts';
import { fubEventFor, fubEventSchema, propertyFrom } from './fub-event.ts';
import { backoffSeconds, settle } from './crm-sync.server.ts';

const lead = {
  first_name: 'Dana',
  last_name: 'Lopez',
  email: 'dana@example.com',
  phone: '6315550142',
  address: '12 Oak Lane, Garden City, NY 11530',
  message: null,
  source: 'calculator',
  page_path: '/r/alexmorgan',
  created_at: '2026-11-23T10:00:00.000Z',
};

const estimate = WORKED_EXAMPLE;

describe('the event a lead becomes', () => {
  it('is a Seller Inquiry with the person, the property priced at the sale price, and the estimate', () => {
    const event = fubEventFor({ lead, estimate, agentSlug: 'alexmorgan', siteUrl: 'https://homes.example.com/' });
    expect(fubEventSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      type: 'Seller Inquiry',
      source: 'Long Island Net Proceeds',
      occurredAt: '2026-11-23T10:00:00.000Z',
      person: {
        firstName: 'Dana',
        lastName: 'Lopez',
        emails: [{ value: 'dana@example.com', type: 'home' }],
        phones: [{ value: '(631) 555-0142', type: 'mobile' }],
        sourceUrl: `https://homes.example.com/estimate/${estimate.uuid}`,
      },
      property: { street: '12 Oak Lane', city: 'Garden City', state: 'NY', code: '11530', price: 780200 },
    });
    expect(event.message.split('\n')).toEqual(
      expect.arrayContaining([
        'Seller inquiry from Calculator page /r/alexmorgan.',
        'Estimated net to seller: $279,341.00',
        `View the estimate: https://homes.example.com/estimate/${estimate.uuid}`,
      ]),
    );
  });

  it('carries a reference of its own in its description, by which a retry finds it in Follow Up Boss', () => {
    const first = fubEventFor({ lead, estimate, agentSlug: 'alexmorgan', siteUrl: 'https://homes.example.com' });
    const second = fubEventFor({ lead, estimate, agentSlug: 'alexmorgan', siteUrl: 'https://homes.example.com' });
    expect(first.description).toMatch(/^Reference: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(second.description).not.toBe(first.description);
  });

  it('without an estimate or an address links the page the lead came from and has no property', () => {
    const event = fubEventFor({
      lead: { ...lead, address: null, page_path: null, phone: null },
      estimate: null,
      agentSlug: 'alexmorgan',
      siteUrl: 'https://homes.example.com',
    });
    expect(event.property).toBeUndefined();
    expect(event.person.phones).toEqual([]);
    expect(event.person.sourceUrl).toBe('https://homes.example.com/r/alexmorgan');
    expect(event.message).toBe('Seller inquiry from Calculator.');
  });

  it('keeps an address it cannot split whole, as the street', () => {
    expect(propertyFrom('Lot 4 behind the church')).toEqual({ street: 'Lot 4 behind the church' });
    expect(propertyFrom('5 Bay Rd, East Hampton, ny 11937-1234')).toEqual({
      street: '5 Bay Rd',
      city: 'East Hampton',
      state: 'NY',
      code: '11937',
    });
  });
});

describe('a sync attempt settled', () => {
  it('backs off 1 s, 2 s, 4 s … and never beyond an hour', () => {
    expect([1, 2, 3, 4, 5].map(backoffSeconds)).toEqual([1, 2, 4, 8, 16]);
    expect(backoffSeconds(40)).toBe(3600);
  });

  it('by what Follow Up Boss answered', () => {
    expect(settle({ kind: 'created', status: 201, personId: 9 }, 0)).toMatchObject({ status: 'synced', personId: 9 });
    expect(settle({ kind: 'found', status: 200, personId: 9 }, 1)).toMatchObject({
      status: 'synced',
      outcome: 'found',
      personId: 9,
    });
    expect(settle({ kind: 'archived', status: 204 }, 0)).toMatchObject({ status: 'ignored', delaySeconds: 0 });
    expect(settle({ kind: 'rate-limited', status: 429, retryAfterSeconds: 8 }, 0)).toMatchObject({
      status: 'queued',
      delaySeconds: 8,
    });
    expect(settle({ kind: 'unavailable', status: 503, message: 'down' }, 2)).toMatchObject({
      status: 'queued',
      delaySeconds: 4,
    });
    expect(settle({ kind: 'refused', status: 401, message: 'no' }, 0)).toMatchObject({
      status: 'stopped',
      attention: 'no',
    });
    expect(settle({ kind: 'rejected', status: 422, message: 'bad' }, 0)).toMatchObject({ status: 'rejected' });
  });
});
