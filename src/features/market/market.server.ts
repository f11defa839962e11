import type { Context } from 'hono';
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, cacheAtEdge, MARKET_TTL } from '../../platform/edge-cache.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { nearestTowns, townSlug } from '../towns/public/town-data.ts';
import { zhviPointSchema } from '../towns/public/town-page.ts';

const NEARBY_COUNT = 6;
/** Sold homes the API lists at most (the pages show the first 3). */
const SOLD_LIMIT = 50;

interface TownRow {
  slug: string;
  name: string;
  county: string;
  region: string | null;
  zip_codes: string[];
  latitude: number;
  longitude: number;
  meta_title: string;
  meta_description: string;
  h1_title: string;
  description: string;
  unique_facts: string[];
  landmarks: string[];
  median_home_price_cents: number | null;
  population: number | null;
  featured_image: string | null;
}

/** `town` as the spec's query names it: a slug ("bay-shore") or a name ("Bay Shore"). */
export const townQuerySchema = z.object({
  town: z
    .string({ error: 'Add ?town= with a town name or slug' })
    .trim()
    .min(1, 'Add ?town= with a town name or slug')
    .max(100, 'Town must be at most 100 characters')
    .transform(townSlug)
    .refine((slug) => slug !== '', 'Town is not valid'),
});
export const townParamsSchema = z.object({
  slug: z
    .string()
    .max(100, 'Town is not valid')
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Town is not valid'),
});

const townNotFound = () => new HttpError(404, 'Town not found');

function townJson(row: TownRow) {
  const { median_home_price_cents, ...town } = row;
  return { ...town, median_home_price: median_home_price_cents === null ? null : median_home_price_cents / 100 };
}

/** Where every town is: enough to find a town's neighbours, without every town's page text. */
const placesSchema = z.array(
  z.object({ slug: z.string(), name: z.string(), county: z.string(), latitude: z.number(), longitude: z.number() }),
);

/**
 * One round trip: the town's row, and where every town is (about 120 small objects) so the
 * neighbours come from the same read. Reading every town's whole row instead (descriptions, facts,
 * landmarks) made this the slowest public read on a CDN miss.
 */
async function townWithNeighbours(db: Db, slug: string) {
  const [row] = await db.query<TownRow & { places: unknown }>(
    `SELECT slug, name, county, region, zip_codes, latitude, longitude, meta_title, meta_description, h1_title,
            description, unique_facts, landmarks, median_home_price_cents, population, featured_image,
            (SELECT json_agg(json_build_object('slug', p.slug, 'name', p.name, 'county', p.county,
                                               'latitude', p.latitude, 'longitude', p.longitude))
               FROM towns p) AS places
       FROM towns WHERE slug = $1`,
    [slug],
  );
  if (!row) throw townNotFound();
  const { places, ...town } = row;
  return {
    success: true,
    town: townJson(town),
    nearby_towns: nearestTowns(town, placesSchema.parse(places), NEARBY_COUNT).map(
      ({ slug: nearSlug, name, county }) => ({ slug: nearSlug, name, county }),
    ),
  };
}

async function marketOf(db: Db, slug: string) {
  const [row] = await db.query<{
    known: boolean;
    typical_home_value_cents: number | null;
    for_sale_inventory: number | null;
    description: string | null;
    search_url: string | null;
    last_updated: Date | null;
    zhvi_range: unknown;
  }>(
    `SELECT true AS known, m.typical_home_value_cents, m.for_sale_inventory, m.description, m.search_url,
            m.last_updated, m.zhvi_range
       FROM towns t LEFT JOIN town_market_data m ON m.town_slug = t.slug
      WHERE t.slug = $1`,
    [slug],
  );
  if (!row) throw townNotFound();
  return {
    success: true,
    data: row.last_updated
      ? {
          typical_home_value: row.typical_home_value_cents === null ? null : row.typical_home_value_cents / 100,
          for_sale_inventory: row.for_sale_inventory,
          description: row.description,
          search_url: row.search_url,
          last_updated: row.last_updated.toISOString(),
          zhvi_range: z.array(zhviPointSchema).parse(row.zhvi_range),
        }
      : null,
  };
}

async function soldHomesOf(db: Db, slug: string) {
  const rows = await db.query<{
    known: boolean;
    address: string | null;
    beds: number | null;
    baths: number | null;
    sqft: number | null;
    sold_date: string | null;
    listing_agent: string | null;
    listing_office: string | null;
    price_cents: number | null;
    property_type: string | null;
  }>(
    `SELECT true AS known, h.address, h.beds, h.baths::float8 AS baths, h.sqft, h.sold_date::text AS sold_date,
            h.listing_agent, h.listing_office, h.price_cents, h.property_type
       FROM towns t
       LEFT JOIN LATERAL (SELECT * FROM town_sold_homes s WHERE s.town_slug = t.slug
                           ORDER BY s.sold_date DESC, s.listing_key LIMIT ${SOLD_LIMIT}) h ON true
      WHERE t.slug = $1`,
    [slug],
  );
  if (rows.length === 0) throw townNotFound();
  return {
    success: true,
    sold_homes: rows
      .filter((row) => row.address !== null && row.sold_date !== null)
      .map((row) => ({
        address: row.address,
        beds: row.beds,
        baths: row.baths,
        sqft: row.sqft,
        sold_date: row.sold_date,
        listing_agent: row.listing_agent,
        listing_office: row.listing_office,
        price: row.price_cents === null ? null : row.price_cents / 100,
        property_type: row.property_type,
      })),
  };
}

/** The answer, kept at the edge under `tag` once it is known to be one (an error is not kept). */
const cached = async (c: Context, tag: string, answer: Promise<object>, query: readonly string[] = []) => {
  const body = await answer;
  cacheAtEdge(c, [tag], MARKET_TTL, query);
  return c.json(body);
};

/** Towns, their market data and their recent sales, as the public pages and old clients read them. */
export const marketApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/towns/:slug',
      access: 'public',
      summary: "A town's market figures and its neighbours",
      tag: 'Market data',
      params: townParamsSchema,
      success: ok('The town'),
      errors: [404],
      handler: (c, { db }, input) => cached(c, CACHE_TAGS.towns, townWithNeighbours(db, input.params().slug)),
    }),
    op({
      method: 'GET',
      path: '/api/towns/:slug/sold',
      access: 'public',
      summary: "A town's recently sold homes",
      tag: 'Market data',
      params: townParamsSchema,
      success: ok('The sold homes'),
      errors: [404],
      handler: (c, { db }, input) => cached(c, CACHE_TAGS.sold, soldHomesOf(db, input.params().slug)),
    }),
    op({
      method: 'GET',
      path: '/api/zillow/market',
      access: 'public',
      summary: "A town's market figures, by name or slug",
      tag: 'Market data',
      query: townQuerySchema,
      success: ok('The market'),
      errors: [404],
      handler: (c, { db }, input) => cached(c, CACHE_TAGS.market, marketOf(db, input.query().town), ['town']),
    }),
    // The old product's /sold-api.php?town= is rewritten here (see createApi).
    op({
      method: 'GET',
      path: '/api/sold',
      access: 'public',
      summary: "A town's recently sold homes, by name or slug (also /sold-api.php)",
      tag: 'Market data',
      query: townQuerySchema,
      success: ok('The sold homes'),
      errors: [404],
      handler: (c, { db }, input) => cached(c, CACHE_TAGS.sold, soldHomesOf(db, input.query().town), ['town']),
    }),
  ],
);
