/** Where Long Island is, where the Nassau/Suffolk line runs, and how far apart two places are. */
import { fail } from './fail.ts';
import type { County } from './town-lists.ts';

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
export const SUBDIVISION_COUNTY: Record<string, County> = {
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

export const inBox = (lat: number, lon: number): boolean =>
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

export const countyBySide = (lat: number, lon: number): County =>
  lon < countyLineLongitude(lat) ? 'Nassau' : 'Suffolk';

/** Great-circle distance in kilometres (haversine, mean Earth radius). */
export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}
