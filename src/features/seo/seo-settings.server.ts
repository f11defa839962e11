/**
 * GET and PUT /api/seo/settings (admins only): the one row of seo_settings, which the build reads
 * into every page's head (src/app/build-data.ts). GET also answers the OG image, which is
 * uploaded apart (src/features/site-images/public/site-images.server.ts); PUT leaves it alone.
 */
import * as z from 'zod';
import {
  assertAdmin,
  readJsonAsAdmin,
  sessionAgentCte,
  sessionOf,
  sessionParams,
} from '../auth/public/access.server.ts';
import type { Db } from '../../platform/db.ts';
import { apiGroup, json, ok } from '../../platform/operation.ts';
import {
  ogImageAnswerSchema,
  SEO_MESSAGES,
  seoAnswerSchema,
  seoSavedSchema,
  seoSettingsSchema,
  type SeoSettings,
} from './seo-settings.ts';

const COLUMNS = 'seo_title, seo_description, og_title, og_description, og_url, twitter_card, seo_keywords';

type Row = { is_admin: boolean } & { [Key in keyof SeoSettings]: SeoSettings[Key] | null };

/** The row as the form shows it; a site never seeded shows empty required fields. */
const toSettings = (row: Row): SeoSettings => ({
  seo_title: row.seo_title ?? '',
  seo_description: row.seo_description ?? '',
  og_title: row.og_title,
  og_description: row.og_description,
  og_url: row.og_url,
  twitter_card: row.twitter_card ?? 'summary_large_image',
  seo_keywords: row.seo_keywords,
});

export const seoSettingsApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    /** One round trip: the admin check and the settings. */
    op({
      method: 'GET',
      path: '/api/seo/settings',
      access: 'admin',
      summary: "The site's SEO defaults",
      tag: 'Admin settings',
      success: ok(
        'The settings and the Open Graph image',
        z.object({ ...seoAnswerSchema.shape, ...ogImageAnswerSchema.shape }),
      ),
      handler: async (c, { db }) => {
        const [row] = await db.query<Row & { og_image_data: string | null }>(
          `WITH ${sessionAgentCte(1)}
           SELECT me.is_admin, ${COLUMNS.split(', ')
             .map((column) => `o.${column}`)
             .join(', ')}, o.og_image_data
             FROM me LEFT JOIN seo_settings o ON o.id = 1 AND me.is_admin`,
          sessionParams(sessionOf(c)),
        );
        assertAdmin(row);
        return c.json({ success: true, settings: row ? toSettings(row) : null, og_image: row?.og_image_data ?? null });
      },
    }),
    /** One statement: the admin check and the upsert; an agent who is not an admin writes nothing. */
    op({
      method: 'PUT',
      path: '/api/seo/settings',
      access: 'admin',
      summary: "Saves the site's SEO defaults (used at the next build)",
      tag: 'Admin settings',
      body: json(seoSettingsSchema),
      success: ok('Saved', seoSavedSchema),
      handler: async (c, { db }) => {
        const settings = await readJsonAsAdmin(c, db, seoSettingsSchema);
        const [row] = await db.query<Row>(
          `WITH ${sessionAgentCte(1)},
           saved AS (
             INSERT INTO seo_settings AS o (id, ${COLUMNS})
             SELECT 1, $3, $4, $5, $6, $7, $8, $9 FROM me WHERE me.is_admin
             ON CONFLICT (id) DO UPDATE SET
               seo_title = EXCLUDED.seo_title, seo_description = EXCLUDED.seo_description,
               og_title = EXCLUDED.og_title, og_description = EXCLUDED.og_description, og_url = EXCLUDED.og_url,
               twitter_card = EXCLUDED.twitter_card, seo_keywords = EXCLUDED.seo_keywords, updated_at = now()
             RETURNING ${COLUMNS}
           )
           SELECT me.is_admin, saved.* FROM me LEFT JOIN saved ON true`,
          [
            ...sessionParams(sessionOf(c)),
            settings.seo_title,
            settings.seo_description,
            settings.og_title,
            settings.og_description,
            settings.og_url,
            settings.twitter_card,
            settings.seo_keywords,
          ],
        );
        assertAdmin(row);
        return c.json({ success: true, message: SEO_MESSAGES.saved, settings: row ? toSettings(row) : null });
      },
    }),
  ],
);
