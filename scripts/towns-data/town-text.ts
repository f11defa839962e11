/** One town of the data set from its place: its slug, region, ZIP codes and the texts of its page. */
import { fail } from './fail.ts';
import { distanceKm } from './geography.ts';
import { zipsOf, type City, type Place, type Zip } from './sources.ts';
import { REGIONS, type County, type Region } from './town-lists.ts';

const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

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

export interface TownOut {
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

export function buildTown(
  place: Place,
  zips: Zip[],
  cities: City[],
  neighbours: { name: string; km: number }[],
): TownOut {
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
export function neighboursOf(place: Place, places: Place[], count: number): { name: string; km: number }[] {
  return places
    .filter((other) => other.name !== place.name)
    .map((other) => ({ name: other.name, km: distanceKm(place, other) }))
    .sort((a, b) => a.km - b.km || a.name.localeCompare(b.name))
    .slice(0, count);
}
