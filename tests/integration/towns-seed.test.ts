/**
 * The towns of src/features/towns/towns.data.json in the `towns` table, on both backends: seeded
 * with the rest of the seed, every field as in the file, and seeding again changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTowns, type Town } from '../../src/features/towns/public/town-data.ts';
import { seedTowns } from '../../src/features/towns/towns-seed.server.ts';
import { seed } from '../../src/app/seed.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';

interface TownRow {
  slug: string;
  name: string;
  county: string;
  region: string | null;
  zip_codes: string[];
  latitude: number;
  longitude: number;
  population: number | null;
  meta_title: string;
  meta_description: string;
  h1_title: string;
  description: string;
  unique_facts: string[];
  landmarks: string[];
  median_home_price_cents: number | null;
  featured_image: string | null;
}

const SELECT_TOWNS = `SELECT slug, name, county, region, zip_codes, latitude, longitude, population, meta_title,
                             meta_description, h1_title, description, unique_facts, landmarks,
                             median_home_price_cents, featured_image
                        FROM towns`;
const ALL_TOWNS = `${SELECT_TOWNS} ORDER BY slug COLLATE "C"`;
const ONE_TOWN = `${SELECT_TOWNS} WHERE slug = $1`;

const expectedRow = (town: Town): TownRow => ({
  slug: town.slug,
  name: town.name,
  county: town.county,
  region: town.region,
  zip_codes: town.zipCodes,
  latitude: town.latitude,
  longitude: town.longitude,
  population: town.population,
  meta_title: town.metaTitle,
  meta_description: town.metaDescription,
  h1_title: town.h1Title,
  description: town.description,
  unique_facts: town.uniqueFacts,
  landmarks: town.landmarks,
  median_home_price_cents: town.medianHomePriceCents,
  featured_image: town.featuredImage,
});

describe.each(BACKENDS)('towns seed on %s', (backend) => {
  let test: TestDatabase;
  const rows = () => test.db.query<TownRow>(ALL_TOWNS);
  const updatedAt = () =>
    test.db.query<{ slug: string; updated_at: string }>(
      'SELECT slug, updated_at::text AS updated_at FROM towns ORDER BY slug COLLATE "C"',
    );

  beforeAll(async () => {
    test = await openTestDatabase(backend, 'towns-seed');
  });
  afterAll(async () => {
    await test?.close();
  });

  it('holds every town of the data file, field for field', async () => {
    const stored = await rows();
    expect(stored.length).toBe(allTowns().length);
    const expected = [...allTowns()].sort((a, b) => (a.slug < b.slug ? -1 : 1)).map(expectedRow);
    expect(stored).toEqual(expected);
    const bayShore = stored.find((row) => row.slug === 'bay-shore');
    expect(bayShore?.zip_codes).toEqual(['11706']);
    expect(bayShore?.county).toBe('Suffolk');
    const counts = await test.db.query<{ county: string; n: number }>(
      'SELECT county, count(*)::int AS n FROM towns GROUP BY county ORDER BY county',
    );
    expect(counts).toEqual([
      { county: 'Nassau', n: allTowns().filter((town) => town.county === 'Nassau').length },
      { county: 'Suffolk', n: allTowns().filter((town) => town.county === 'Suffolk').length },
    ]);
  });

  it('changes nothing when seeded again, in one statement', async () => {
    const before = await rows();
    const stamps = await updatedAt();
    const trips = test.db.roundTrips;
    expect(await seedTowns(test.db)).toBe(allTowns().length);
    expect(test.db.roundTrips - trips).toBe(1);
    expect(await seed(test.db, test.featuredAgent)).toEqual({
      agentId: test.featuredAgent.id,
      towns: allTowns().length,
    });
    expect(await rows()).toEqual(before);
    expect(await updatedAt()).toEqual(stamps);
  });

  it('updates a changed town, keeps the pipeline’s price and image, and leaves towns gone from the file', async () => {
    const [first, ...rest] = allTowns();
    if (!first) throw new Error('no towns');
    await test.db.query(
      `UPDATE towns SET median_home_price_cents = 65000000, featured_image = '/img/town.webp' WHERE slug = $1`,
      [first.slug],
    );
    expect(await seedTowns(test.db, [{ ...first, description: 'Changed.' }])).toBe(1);
    const [changed] = await test.db.query<TownRow>(ONE_TOWN, [first.slug]);
    expect(changed?.description).toBe('Changed.');
    expect(changed?.median_home_price_cents).toBe(65000000);
    expect(changed?.featured_image).toBe('/img/town.webp');

    // Seeding without the first town restores nothing for it and deletes nothing.
    expect(await seedTowns(test.db, rest)).toBe(allTowns().length - 1);
    expect((await rows()).length).toBe(allTowns().length);

    await seedTowns(test.db);
    const [restored] = await test.db.query<TownRow>(ONE_TOWN, [first.slug]);
    expect(restored?.description).toBe(first.description);
    expect(restored?.median_home_price_cents).toBe(65000000);
  });
});
