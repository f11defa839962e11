import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { readSiteContent } from '../features/content/site-content.server.ts';
import { logoHeight, logoSource } from '../features/site-images/public/logo.ts';
import { SHOWCASE_FALLBACK, showcaseImages } from '../features/showcase/showcase.ts';
import { zhviPointSchema, type RecentSale, type TownPageData } from '../features/towns/public/town-page.ts';
import { openDatabase, sharedDatabase } from '../platform/database.ts';
import type { Db } from '../platform/db.ts';
import { parseEnv } from '../platform/env.ts';

/**
 * What the static pages read from the database while Astro builds them: one query per kind of data
 * for the whole build, memoised (~120 town pages must not mean ~120 queries). A build the serving
 * process starts (src/app/local-build.server.ts) cannot open the embedded database
 * that process holds locked: it reads the snapshot the server wrote (BUILD_DATA_SNAPSHOT) instead.
 */
let database: Promise<Db> | undefined;
const db = () => (database ??= Promise.resolve(sharedDatabase() ?? openDatabase(parseEnv())));

const memo = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
};
export interface Showcase {
  price: number;
  address: string;
  beds: number;
  baths: number;
  sqft: number;
  images: string[];
}

export interface SiteChrome {
  logo: { src: string; height: number } | null;
  /** The town-page logo, while its show toggle is on. */
  townLogo: { src: string } | null;
  showcase: Showcase;
  seo: {
    title: string;
    description: string;
    ogTitle: string | null;
    ogDescription: string | null;
    ogImage: string | null;
    twitterCard: 'summary' | 'summary_large_image' | 'app' | 'player';
    keywords: string | null;
  };
}

export async function readSiteChrome(db: Db): Promise<SiteChrome> {
  const [row] = await db.query<{
    website_logo: string | null;
    website_logo_type: string | null;
    website_logo_scale: number | null;
    town_page_logo: string | null;
    town_page_logo_type: string | null;
    show_town_page_logo: boolean | null;
    seo_title: string | null;
    seo_description: string | null;
    og_title: string | null;
    og_description: string | null;
    og_image_data: string | null;
    og_image_type: string | null;
    twitter_card: 'summary' | 'summary_large_image' | 'app' | 'player' | null;
    seo_keywords: string | null;
    showcase_property_price_cents: number | null;
    showcase_property_address: string | null;
    showcase_property_beds: number | null;
    showcase_property_baths: number | null;
    showcase_property_sqft: number | null;
    showcase_images: string | null;
  }>(
    `SELECT s.website_logo, s.website_logo_type, s.website_logo_scale, s.town_page_logo, s.town_page_logo_type,
            s.show_town_page_logo, s.showcase_property_price_cents,
            s.showcase_property_address, s.showcase_property_beds, s.showcase_property_baths,
            s.showcase_property_sqft, s.showcase_images, o.seo_title, o.seo_description,
            o.og_title, o.og_description, o.og_image_data, o.og_image_type, o.twitter_card, o.seo_keywords
       FROM (SELECT 1) one
       LEFT JOIN site_settings s ON s.id = 1
       LEFT JOIN seo_settings o ON o.id = 1`,
  );
  return {
    logo: row?.website_logo
      ? {
          src: logoSource(row.website_logo, row.website_logo_type ?? 'png'),
          height: logoHeight(row.website_logo_scale ?? 1),
        }
      : null,
    townLogo:
      row?.show_town_page_logo && row.town_page_logo
        ? { src: logoSource(row.town_page_logo, row.town_page_logo_type ?? 'png') }
        : null,
    showcase: {
      price: (row?.showcase_property_price_cents ?? SHOWCASE_FALLBACK.priceCents) / 100,
      address: row?.showcase_property_address ?? SHOWCASE_FALLBACK.address,
      beds: row?.showcase_property_beds ?? SHOWCASE_FALLBACK.beds,
      baths: row?.showcase_property_baths ?? SHOWCASE_FALLBACK.baths,
      sqft: row?.showcase_property_sqft ?? SHOWCASE_FALLBACK.sqft,
      images: showcaseImages(row?.showcase_images ?? ''),
    },
    seo: {
      title: row?.seo_title ?? 'Long Island Home Sale Net Proceeds Calculator',
      description:
        row?.seo_description ??
        'See what you would walk away with when you sell your Long Island home: commission, NY transfer tax, attorney and recording fees.',
      ogTitle: row?.og_title ?? null,
      ogDescription: row?.og_description ?? null,
      ogImage: row?.og_image_data ? logoSource(row.og_image_data, row.og_image_type ?? 'png') : null,
      twitterCard: row?.twitter_card ?? 'summary_large_image',
      keywords: row?.seo_keywords ?? null,
    },
  };
}

interface TownRow {
  slug: string;
  name: string;
  county: 'Nassau' | 'Suffolk';
  region: 'Hamptons' | 'North Shore' | null;
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
  typical_home_value_cents: number | null;
  for_sale_inventory: number | null;
  market_description: string | null;
  search_url: string | null;
  zhvi_range: unknown;
  last_updated: Date | null;
  market_sample: boolean | null;
  recent_sales: unknown;
}

const recentSalesSchema = z.array(
  z.object({
    address: z.string(),
    beds: z.number().nullable(),
    baths: z.number().nullable(),
    sqft: z.number().nullable(),
    sold_date: z.string(),
    listing_agent: z.string().nullable(),
    listing_office: z.string().nullable(),
    price_cents: z.number().nullable(),
    property_type: z.string().nullable(),
    sample: z.boolean(),
  }),
);

/** Every town with its market data and its three most recent sales, in one query. */
export async function readTowns(db: Db): Promise<TownPageData[]> {
  const rows = await db.query<TownRow>(
    `SELECT t.slug, t.name, t.county, t.region, t.zip_codes, t.latitude, t.longitude, t.population,
            t.meta_title, t.meta_description, t.h1_title, t.description, t.unique_facts, t.landmarks,
            t.median_home_price_cents, m.typical_home_value_cents, m.for_sale_inventory,
            m.description AS market_description, m.search_url, m.zhvi_range, m.last_updated,
            m.sample AS market_sample,
            coalesce((SELECT json_agg(s ORDER BY s.sold_date DESC)
                        FROM (SELECT address, beds, baths::float8 AS baths, sqft, sold_date::text AS sold_date,
                                     listing_agent, listing_office, price_cents::float8 AS price_cents, property_type,
                                     sample
                                FROM town_sold_homes h
                               WHERE h.town_slug = t.slug
                               ORDER BY sold_date DESC
                               LIMIT 3) s), '[]') AS recent_sales
       FROM towns t LEFT JOIN town_market_data m ON m.town_slug = t.slug
      ORDER BY t.name`,
  );
  return rows.map((row) => ({
    slug: row.slug,
    name: row.name,
    county: row.county,
    region: row.region,
    zipCodes: row.zip_codes,
    latitude: row.latitude,
    longitude: row.longitude,
    population: row.population,
    metaTitle: row.meta_title,
    metaDescription: row.meta_description,
    h1Title: row.h1_title,
    description: row.description,
    uniqueFacts: row.unique_facts,
    landmarks: row.landmarks,
    medianHomePrice: row.median_home_price_cents === null ? null : row.median_home_price_cents / 100,
    market: row.last_updated
      ? {
          typicalHomeValue: row.typical_home_value_cents === null ? null : row.typical_home_value_cents / 100,
          forSaleInventory: row.for_sale_inventory,
          description: row.market_description,
          searchUrl: row.search_url,
          lastUpdated: row.last_updated.toISOString(),
          zhviRange: z.array(zhviPointSchema).parse(row.zhvi_range),
          sample: row.market_sample ?? false,
        }
      : null,
    recentSales: recentSalesSchema.parse(row.recent_sales).map((sale): RecentSale => ({
      address: sale.address,
      beds: sale.beds,
      baths: sale.baths,
      sqft: sale.sqft,
      soldDate: sale.sold_date,
      listingAgent: sale.listing_agent,
      listingOffice: sale.listing_office,
      price: sale.price_cents === null ? null : sale.price_cents / 100,
      propertyType: sale.property_type,
      sample: sale.sample,
    })),
  }));
}

/**
 * Every kind of data the pages read, by name: each a query of the database whose result is plain
 * JSON, so that the server can hand it to a build as a file. Add a kind here and read it with
 * `loader('name')` below.
 */
const LOADERS = { chrome: readSiteChrome, towns: readTowns, content: readSiteContent };

type Loaded = { [Name in keyof typeof LOADERS]: Awaited<ReturnType<(typeof LOADERS)[Name]>> };

/** What a build reads, with the time of the last change to it that it includes. */
export interface BuildSnapshot {
  /** site_changes.changed_at when the data was read (ISO): the build includes every change until then. */
  dataAt: string;
  data: Record<string, unknown>;
}

/**
 * Reads everything the pages show. The change time is read first: a write during the reads makes
 * the snapshot newer than it says (one rebuild too many at worst), never older.
 */
export async function snapshotBuildData(db: Db): Promise<BuildSnapshot> {
  // As text: a Date would drop the microseconds, and the build would look older than its data.
  const [change] = await db.query<{ changed_at: string }>(
    `SELECT to_json(changed_at) #>> '{}' AS changed_at FROM site_changes WHERE id = 1`,
  );
  const data: Record<string, unknown> = {};
  for (const [name, load] of Object.entries(LOADERS)) data[name] = await load(db);
  return { dataAt: change?.changed_at ?? new Date(0).toISOString(), data };
}

const snapshotSchema = z.object({ dataAt: z.iso.datetime({ offset: true }), data: z.record(z.string(), z.unknown()) });

/** The whole build's data, read once: from the snapshot file the server wrote, or from the database. */
const buildData = memo(async (): Promise<BuildSnapshot> => {
  const { BUILD_DATA_SNAPSHOT: file } = parseEnv();
  if (file) return snapshotSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  return snapshotBuildData(await db());
});

/**
 * One kind of the build's data. The snapshot is written by snapshotBuildData from this same table
 * by this same code moments before the build starts, so each kind has the shape its loader gives.
 */
const loader = <Name extends keyof Loaded>(name: Name) =>
  memo(async (): Promise<Loaded[Name]> =>
    z
      .custom<Loaded[Name]>((value) => value !== undefined, `The build data has no ${name}`)
      .parse((await buildData()).data[name]),
  );

export const loadSiteChrome = loader('chrome');
export const loadTowns = loader('towns');
/** The admin-edited marketing content (claims, track record, testimonial, disclaimer, county figures). */
export const loadSiteContent = loader('content');
/** The change time the build includes (written into dist/build.json by src/pages/build.json.ts). */
export const loadDataAt = async (): Promise<string> => (await buildData()).dataAt;
