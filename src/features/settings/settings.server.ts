import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, cacheAtEdge, EDITED_TTL } from '../../platform/edge-cache.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { showcasePublicSchema } from '../showcase/public/showcase-settings.ts';
import { centsToDollars } from '../../ui/money.ts';
import { siteLogosAnswerSchema, type SiteLogos } from '../site-images/public/site-images.ts';

interface SiteSettingsRow {
  website_logo: string | null;
  website_logo_scale: number;
  website_logo_type: string;
  town_page_logo: string | null;
  town_page_logo_type: string | null;
  show_town_page_logo: boolean;
  showcase_property_price_cents: number;
  showcase_property_address: string;
  showcase_property_beds: number;
  showcase_property_baths: number;
  showcase_property_sqft: number;
  showcase_images: string;
}

async function siteSettings(db: Db, columns: string): Promise<SiteSettingsRow> {
  const [row] = await db.query<SiteSettingsRow>(`SELECT ${columns} FROM site_settings WHERE id = 1`);
  if (!row) throw new HttpError(500, 'Site settings are missing; run npm run db:seed');
  return row;
}

/** The public site's settings: its logos, and the home page's showcase card. */
export const settingsApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/global/settings',
      access: 'public',
      summary: "The website's logos and the town-page logo switch",
      tag: 'Site settings',
      success: ok('The logos', siteLogosAnswerSchema),
      handler: async (c, { db }) => {
        const row = await siteSettings(
          db,
          'website_logo, website_logo_scale, website_logo_type, town_page_logo, town_page_logo_type, show_town_page_logo',
        );
        const settings: SiteLogos = {
          website_logo: row.website_logo,
          website_logo_scale: row.website_logo_scale,
          website_logo_type: row.website_logo_type,
          town_page_logo: row.town_page_logo,
          town_page_logo_type: row.town_page_logo_type,
          show_town_page_logo: row.show_town_page_logo,
        };
        cacheAtEdge(c, [CACHE_TAGS.settings], EDITED_TTL);
        return c.json({ success: true, settings });
      },
    }),
    op({
      method: 'GET',
      path: '/api/showcase/settings',
      access: 'public',
      summary: "The home page's showcase card: figures and images",
      tag: 'Showcase',
      success: ok('The showcase', showcasePublicSchema),
      handler: async (c, { db }) => {
        const row = await siteSettings(
          db,
          'showcase_property_price_cents, showcase_property_address, showcase_property_beds, showcase_property_baths, showcase_property_sqft, showcase_images',
        );
        cacheAtEdge(c, [CACHE_TAGS.showcase], EDITED_TTL);
        return c.json({
          success: true,
          settings: {
            showcase_property_price: centsToDollars(row.showcase_property_price_cents),
            showcase_property_address: row.showcase_property_address,
            showcase_property_beds: row.showcase_property_beds,
            showcase_property_baths: row.showcase_property_baths,
            showcase_property_sqft: row.showcase_property_sqft,
            showcase_images: row.showcase_images,
          },
        });
      },
    }),
  ],
);
