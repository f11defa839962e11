import type { Queryable } from '../../platform/db.ts';
import { allTowns, type Town } from './public/town-data.ts';

/** One row of the `towns` table as jsonb_to_recordset reads it. */
function townRow(town: Town) {
  return {
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
  };
}

/**
 * Upserts every town of towns.data.json into `towns` in one statement and returns how many towns
 * the file holds. Idempotent: a row whose values already match is not touched (its updated_at
 * stays). The median home price and the featured image belong to the data pipeline once it has set
 * them, so a null in the file never overwrites a value there.
 *
 * Towns that are no longer in the file are left in place, not deleted: deleting one would cascade
 * to its market data and sold homes, and a removal is better done on purpose in a migration.
 *
 * Takes any Queryable, so it runs on the database itself or inside the caller's transaction.
 */
export async function seedTowns(db: Queryable, towns: readonly Town[] = allTowns()): Promise<number> {
  await db.query(
    `INSERT INTO towns (slug, name, county, region, zip_codes, latitude, longitude, population, meta_title,
                        meta_description, h1_title, description, unique_facts, landmarks,
                        median_home_price_cents, featured_image)
     SELECT slug, name, county, region, zip_codes, latitude, longitude, population, meta_title,
            meta_description, h1_title, description, unique_facts, landmarks,
            median_home_price_cents, featured_image
       FROM jsonb_to_recordset($1::jsonb) AS t(
              slug text, name text, county text, region text, zip_codes text[], latitude double precision,
              longitude double precision, population integer, meta_title text, meta_description text,
              h1_title text, description text, unique_facts text[], landmarks text[],
              median_home_price_cents bigint, featured_image text)
     ON CONFLICT (slug) DO UPDATE SET
       name = EXCLUDED.name, county = EXCLUDED.county, region = EXCLUDED.region,
       zip_codes = EXCLUDED.zip_codes, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
       population = EXCLUDED.population, meta_title = EXCLUDED.meta_title,
       meta_description = EXCLUDED.meta_description, h1_title = EXCLUDED.h1_title,
       description = EXCLUDED.description, unique_facts = EXCLUDED.unique_facts, landmarks = EXCLUDED.landmarks,
       median_home_price_cents = COALESCE(EXCLUDED.median_home_price_cents, towns.median_home_price_cents),
       featured_image = COALESCE(EXCLUDED.featured_image, towns.featured_image),
       updated_at = now()
     WHERE (towns.name, towns.county, towns.region, towns.zip_codes, towns.latitude, towns.longitude,
            towns.population, towns.meta_title, towns.meta_description, towns.h1_title, towns.description,
            towns.unique_facts, towns.landmarks, towns.median_home_price_cents, towns.featured_image)
           IS DISTINCT FROM
           (EXCLUDED.name, EXCLUDED.county, EXCLUDED.region, EXCLUDED.zip_codes, EXCLUDED.latitude,
            EXCLUDED.longitude, EXCLUDED.population, EXCLUDED.meta_title, EXCLUDED.meta_description,
            EXCLUDED.h1_title, EXCLUDED.description, EXCLUDED.unique_facts, EXCLUDED.landmarks,
            COALESCE(EXCLUDED.median_home_price_cents, towns.median_home_price_cents),
            COALESCE(EXCLUDED.featured_image, towns.featured_image))`,
    [JSON.stringify(towns.map(townRow))],
  );
  return towns.length;
}
