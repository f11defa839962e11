import { describe, expect, it } from 'vitest';
import { allTowns } from '../towns/public/town-data.ts';
import { parseResoRecord } from './reso-records.server.ts';
import { placeKey } from '../towns/public/place-key.ts';
import { createTownMatcher, saleAddress, soldHomeRow, soldWindowStart } from './sold-sync.server.ts';

describe('placeKey', () => {
  it.each([
    ['St. James', 'saint james'],
    ['ST JAMES', 'saint james'],
    ['Saint  James', 'saint james'],
    ['Mt. Sinai', 'mount sinai'],
    ['Port Jefferson Station', 'port jefferson station'],
    ['Sag-Harbor', 'sag harbor'],
    ['Bridgehampton ', 'bridgehampton'],
    ['Stony Brook', 'stony brook'],
  ])('%s → %s', (name, key) => {
    expect(placeKey(name)).toBe(key);
  });
});

describe('createTownMatcher over every town', () => {
  const match = createTownMatcher(allTowns());
  const slug = (City: string | null, PostalCode: string | null) => match({ City, PostalCode })?.slug;

  it('knows each town by its own name', () => {
    for (const town of allTowns()) expect(slug(town.name.toUpperCase(), null)).toBe(town.slug);
  });

  it('falls back on a ZIP that only one town has, ZIP+4 included', () => {
    expect(slug('Wantagh Woods', '11793')).toBe('wantagh');
    expect(slug(null, '11706-4410')).toBe('bay-shore');
    expect(slug('Levittown', '11706')).toBe('levittown');
  });

  it('decides nothing from a shared ZIP or an unknown place', () => {
    expect(slug('South Huntington', '11746')).toBeUndefined();
    expect(slug('Brooklyn', '11201')).toBeUndefined();
    expect(slug(null, null)).toBeUndefined();
    expect(slug(null, '1170')).toBeUndefined();
  });
});

describe('soldWindowStart', () => {
  it.each([
    ['mid-afternoon', '2026-03-16T15:00:00Z', '2025-03-16'],
    ['after midnight UTC, still the evening before in New York', '2026-03-16T03:00:00Z', '2025-03-15'],
    ['in January', '2026-01-05T12:00:00Z', '2025-01-05'],
    ['on a leap day', '2028-02-29T12:00:00Z', '2027-02-28'],
  ])('%s', (_label, now, start) => {
    expect(soldWindowStart(new Date(now))).toBe(start);
  });
});

describe('soldHomeRow', () => {
  const sale = parseResoRecord({
    ListingKey: 'K1',
    UnparsedAddress: null,
    StreetNumber: '7',
    StreetName: 'Harbor Rd',
    City: 'Northport',
    PostalCode: '11768',
    ClosePrice: 1_234_567.895,
    CloseDate: '2026-01-15',
    BedroomsTotal: 4,
    BathroomsTotalInteger: 3,
    LivingArea: 2400,
    PropertyType: 'Residential',
    ListAgentFullName: null,
    ListOfficeName: 'Coach Realtors',
    ModificationTimestamp: '2026-01-20T15:30:00Z',
  });

  it('maps the RESO fields to the columns, the price in cents', () => {
    if (!sale) throw new Error('the sale should parse');
    expect(soldHomeRow(sale, 'northport')).toEqual({
      listing_key: 'K1',
      town_slug: 'northport',
      address: '7 Harbor Rd',
      beds: 4,
      baths: 3,
      sqft: 2400,
      sold_date: '2026-01-15',
      listing_agent: null,
      listing_office: 'Coach Realtors',
      price_cents: 123_456_790,
      property_type: 'Residential',
      modification_timestamp: '2026-01-20T15:30:00Z',
      sample: false,
    });
    expect(soldHomeRow(sale, 'northport', true)).toMatchObject({ listing_key: 'K1', sample: true });
  });

  it('prefers UnparsedAddress', () => {
    expect(
      saleAddress({ UnparsedAddress: '7 Harbor Road, Northport', StreetNumber: '7', StreetName: 'Harbor Rd' }),
    ).toBe('7 Harbor Road, Northport');
    expect(saleAddress({ UnparsedAddress: null, StreetNumber: null, StreetName: 'Harbor Rd' })).toBe('Harbor Rd');
  });
});
