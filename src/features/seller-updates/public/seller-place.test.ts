import { describe, expect, it } from 'vitest';
import type { Town } from '../../towns/public/town-data.ts';
import { namesTown, sellerPlace, type SellerPlaceInput } from './seller-place.ts';

const town = (slug: string, name: string, county: Town['county'], zipCodes: string[]): Town => ({
  slug,
  name,
  county,
  region: null,
  zipCodes,
  zipSource: 'usps-city',
  latitude: 40.7,
  longitude: -73.4,
  population: null,
  geonamesId: 1,
  metaTitle: name,
  metaDescription: name,
  h1Title: name,
  description: name,
  uniqueFacts: [],
  landmarks: [],
  medianHomePriceCents: null,
  featuredImage: null,
});

const TOWNS = [
  town('massapequa', 'Massapequa', 'Nassau', ['11758']),
  town('bay-shore', 'Bay Shore', 'Suffolk', ['11706']),
  town('oceanside-n', 'Oceanside', 'Nassau', ['11572']),
  town('oceanside-s', 'Oceanside', 'Suffolk', ['11999']),
];
const none: SellerPlaceInput = {
  typedPlace: null,
  detailsTown: null,
  detailsCounty: null,
  pageTown: null,
  address: null,
};
const place = (input: Partial<SellerPlaceInput>) => sellerPlace({ ...none, ...input }, TOWNS);

describe('sellerPlace', () => {
  it('takes the place typed under the box first, by name (any case) or ZIP code, over every other clue', () => {
    const clues = {
      detailsTown: 'Bay Shore',
      detailsCounty: 'Suffolk',
      pageTown: 'bay-shore',
      address: '1 Main St 11706',
    };
    expect(place({ ...clues, typedPlace: '  massapequa ' })).toEqual({
      townSlug: 'massapequa',
      county: 'Nassau',
      from: 'typed_place',
    });
    expect(place({ ...clues, typedPlace: '11758' })).toMatchObject({ townSlug: 'massapequa', from: 'typed_place' });
    expect(place({ typedPlace: '11758-0001' })).toMatchObject({ townSlug: 'massapequa', from: 'typed_place' });
  });

  it('reads a typed name with the state, its ZIP code and the punctuation people add', () => {
    for (const typed of ['Massapequa, NY', 'MASSAPEQUA NY 11758', 'massapequa, new york', 'Bay  Shore.']) {
      expect(place({ typedPlace: typed }).from, typed).toBe('typed_place');
    }
    expect(place({ typedPlace: 'Bay Shore, NY' })).toMatchObject({ townSlug: 'bay-shore', county: 'Suffolk' });
  });

  it("prefers the estimate county's town for a typed name two towns share", () => {
    expect(place({ typedPlace: 'oceanside', detailsCounty: 'Suffolk' })).toMatchObject({ townSlug: 'oceanside-s' });
  });

  it('guesses nothing else when the typed place names no town: the route refuses it', () => {
    for (const typed of ['Atlantis', '12345', 'NY', 'Massapequa Beach', '11758 11706']) {
      expect(place({ typedPlace: typed, detailsTown: 'Bay Shore', pageTown: 'massapequa' }), typed).toEqual({
        townSlug: null,
        county: null,
        from: 'unknown_place',
      });
    }
  });

  it('reads the other clues when nothing was typed (absent, or blank)', () => {
    expect(place({ typedPlace: '   ', pageTown: 'massapequa' })).toMatchObject({ from: 'page_town' });
    expect(place({ pageTown: 'massapequa' })).toMatchObject({ from: 'page_town' });
  });

  it('namesTown tells whether a typed place is a town of the list', () => {
    expect(namesTown('11706', TOWNS)).toBe(true);
    expect(namesTown('bay shore, ny', TOWNS)).toBe(true);
    expect(namesTown('Springfield', TOWNS)).toBe(false);
    expect(namesTown('', TOWNS)).toBe(false);
    expect(namesTown('Massapequa')).toBe(true);
    expect(namesTown('11758')).toBe(true);
  });

  it("takes the estimate's town first, by name (any case) or ZIP code", () => {
    expect(place({ detailsTown: ' bay shore ', pageTown: 'massapequa' })).toEqual({
      townSlug: 'bay-shore',
      county: 'Suffolk',
      from: 'details_town',
    });
    expect(place({ detailsTown: '11758' })).toMatchObject({ townSlug: 'massapequa', from: 'details_town' });
  });

  it("prefers the town of the estimate's county when two share a name", () => {
    expect(place({ detailsTown: 'Oceanside', detailsCounty: 'Suffolk' })).toMatchObject({ townSlug: 'oceanside-s' });
    expect(place({ detailsTown: 'Oceanside', detailsCounty: 'Nassau' })).toMatchObject({ townSlug: 'oceanside-n' });
  });

  it('falls back to the town page the lead came from when the typed town is unknown', () => {
    expect(place({ detailsTown: 'Atlantis', pageTown: 'massapequa', address: '1 Main St 11706' })).toEqual({
      townSlug: 'massapequa',
      county: 'Nassau',
      from: 'page_town',
    });
  });

  it("then to a town's ZIP code in the address: the last one that is a town's, ZIP+4 too", () => {
    expect(place({ address: '11706 Ocean Ave, Massapequa, NY 11758-1234' })).toMatchObject({
      townSlug: 'massapequa',
      from: 'address_zip',
    });
    expect(place({ address: '11706 Ocean Ave, Nowhere NY 12345' })).toMatchObject({ townSlug: 'bay-shore' });
    expect(place({ address: '117060 Long Number Rd' })).toMatchObject({ from: 'none' });
  });

  it("then to the details' county alone, or a county page's", () => {
    expect(place({ detailsTown: 'Atlantis', detailsCounty: 'Suffolk', address: 'no zip' })).toEqual({
      townSlug: null,
      county: 'Suffolk',
      from: 'county',
    });
    expect(place({ pageTown: 'nassau-county' })).toEqual({ townSlug: null, county: 'Nassau', from: 'county' });
  });

  it('else nothing (the run skips the seller: no market data)', () => {
    expect(place({ detailsTown: 'Atlantis', detailsCounty: 'Kings', pageTown: 'unknown-town' })).toEqual({
      townSlug: null,
      county: null,
      from: 'none',
    });
  });

  it('reads the real town list by default', () => {
    expect(sellerPlace({ ...none, detailsTown: 'Montauk' })).toEqual({
      townSlug: 'montauk',
      county: 'Suffolk',
      from: 'details_town',
    });
  });
});
