/**
 * The site-wide images (admins only): POST and DELETE /api/upload/og-image, /api/upload/website-logo
 * and /api/upload/town-logo (also answered at the old product's /town-logo-api.php, see createApi),
 * and shapes 2 and 3 of PATCH /api/agents/me/settings (the logo scale and the town-page logo toggle).
 * Each save is ONE statement that checks the admin, stores the image (storeImageCte) and points the
 * settings row at it, so a refusal stores nothing; the site_changes trigger marks the pages stale.
 * An upload checks the admin once more before its body is read (checkAdmin): nobody else has an
 * image decoded (finding 3 of the 2026-11-26 audit).
 */
import type { Context } from 'hono';
import type { Db } from '../../../platform/db.ts';
import { CACHE_TAGS, type PurgeAfterWrite } from '../../../platform/edge-cache.ts';
import { HttpError, parseOrThrow } from '../../../platform/http.ts';
import { apiGroup, ok } from '../../../platform/operation.ts';
import {
  adminFirst,
  assertAdmin,
  checkAdmin,
  sessionAgentCte,
  sessionOf,
  sessionParams,
} from '../../auth/public/access.server.ts';
import {
  base64ImageBytes,
  imageParams,
  processImage,
  storeImageCte,
  UPLOAD_BODY_LIMIT,
  type ImageRules,
} from '../../images/public/images.server.ts';
import type { StoredSize } from '../../../ui/uploads.ts';
import {
  SITE_IMAGE_MESSAGES,
  SITE_IMAGE_SIZES,
  siteImageAnswerSchema,
  siteImageDeletedSchema,
  siteImageUploadSchema,
  siteLogoSettingsSchema,
  type SiteLogos,
} from './site-images.ts';

interface SiteImageKind {
  path: string;
  /** What the image is, as the operations' summaries name it. */
  what: string;
  /** How large it is stored, as the document states it. */
  stored: StoredSize;
  table: 'seo_settings' | 'site_settings';
  column: 'og_image_data' | 'website_logo' | 'town_page_logo';
  typeColumn: 'og_image_type' | 'website_logo_type' | 'town_page_logo_type';
  /** website_logo_type is NOT NULL (its default 'png'): a deleted logo leaves it as it is. */
  clearType: boolean;
  /** The cached answers showing the image (the OG image is in the built pages only). */
  purges: readonly string[];
  rules: ImageRules;
  uploaded: string;
  deleted: string;
}

/** Logos keep transparency as PNG; an SVG holding only shapes (svg-logo.ts) is rasterised. */
const LOGO_FORMATS: ImageRules['accepts'] = ['jpeg', 'png', 'webp', 'svg'];

const KINDS: SiteImageKind[] = [
  {
    path: '/api/upload/og-image',
    what: 'the Open Graph image',
    stored: SITE_IMAGE_SIZES.ogImage,
    table: 'seo_settings',
    column: 'og_image_data',
    typeColumn: 'og_image_type',
    clearType: true,
    purges: [],
    rules: { ...SITE_IMAGE_SIZES.ogImage, accepts: ['jpeg', 'png', 'webp'] },
    uploaded: SITE_IMAGE_MESSAGES.ogUploaded,
    deleted: SITE_IMAGE_MESSAGES.ogDeleted,
  },
  {
    path: '/api/upload/website-logo',
    what: "the website's logo",
    stored: SITE_IMAGE_SIZES.websiteLogo,
    table: 'site_settings',
    column: 'website_logo',
    typeColumn: 'website_logo_type',
    clearType: false,
    purges: [CACHE_TAGS.settings],
    rules: { ...SITE_IMAGE_SIZES.websiteLogo, accepts: LOGO_FORMATS },
    uploaded: SITE_IMAGE_MESSAGES.logoUploaded,
    deleted: SITE_IMAGE_MESSAGES.logoDeleted,
  },
  {
    path: '/api/upload/town-logo',
    what: 'the town-page logo (also /town-logo-api.php)',
    stored: SITE_IMAGE_SIZES.townLogo,
    table: 'site_settings',
    column: 'town_page_logo',
    typeColumn: 'town_page_logo_type',
    clearType: true,
    purges: [CACHE_TAGS.settings],
    rules: { ...SITE_IMAGE_SIZES.townLogo, accepts: LOGO_FORMATS },
    uploaded: SITE_IMAGE_MESSAGES.townLogoUploaded,
    deleted: SITE_IMAGE_MESSAGES.townLogoDeleted,
  },
];

/** The one row of site_settings and seo_settings is seeded; without it nothing can be saved. */
const settingsMissing = () => new HttpError(500, 'Site settings are missing; run npm run db:seed');

const LOGO_COLUMNS =
  'website_logo, website_logo_type, website_logo_scale, town_page_logo, town_page_logo_type, show_town_page_logo';

export const siteImagesApi = apiGroup(
  (deps: { db: Db; purge: PurgeAfterWrite }) => deps,
  (op) =>
    KINDS.flatMap((kind) => [
      op({
        method: 'POST',
        path: kind.path,
        access: 'admin',
        summary: `Sets ${kind.what} (a data URL)`,
        tag: 'Admin settings',
        json: siteImageUploadSchema,
        uploads: { image: kind.stored },
        success: ok('Saved', siteImageAnswerSchema),
        handler: async (c, { db, purge }, input) => {
          // A caller who may not upload gets 403 before the body is read or decoded (audit finding 3:
          // decoding first let any agent spend the server's CPU); the statement checks again, as the
          // admin may change meanwhile.
          await checkAdmin(c, db);
          const body = await input.body(UPLOAD_BODY_LIMIT);
          const image = await processImage(
            base64ImageBytes(body.image, UPLOAD_BODY_LIMIT, 'base64-or-data-url'),
            kind.rules,
          );
          const [row] = await db.query<{ is_admin: boolean; image_data: string | null }>(
            `WITH ${sessionAgentCte(1)}, ${storeImageCte('stored', 3, 'EXISTS (SELECT 1 FROM me WHERE me.is_admin)')},
             saved AS (UPDATE ${kind.table} AS t SET ${kind.column} = $8, ${kind.typeColumn} = $9, updated_at = now()
                         FROM me WHERE t.id = 1 AND me.is_admin
                       RETURNING t.${kind.column} AS image_data)
             SELECT me.is_admin, saved.image_data FROM me LEFT JOIN saved ON true`,
            [
              ...sessionParams(sessionOf(c)),
              ...imageParams(image),
              image.url,
              image.contentType.slice('image/'.length),
            ],
          );
          assertAdmin(row);
          if (!row?.image_data) throw settingsMissing();
          await purge(c.req.raw, kind.purges);
          return c.json({
            success: true,
            message: kind.uploaded,
            image_data: row.image_data,
            mime_type: image.contentType,
          });
        },
      }),
      op({
        method: 'DELETE',
        path: kind.path,
        access: 'admin',
        summary: `Removes ${kind.what}`,
        tag: 'Admin settings',
        success: ok('Removed', siteImageDeletedSchema),
        handler: async (c, { db, purge }) => {
          const [row] = await db.query<{ is_admin: boolean; saved: boolean }>(
            `WITH ${sessionAgentCte(1)},
             saved AS (UPDATE ${kind.table} AS t SET ${kind.column} = NULL,
                              ${kind.clearType ? `${kind.typeColumn} = NULL,` : ''} updated_at = now()
                         FROM me WHERE t.id = 1 AND me.is_admin RETURNING 1)
             SELECT me.is_admin, EXISTS (SELECT 1 FROM saved) AS saved FROM me`,
            sessionParams(sessionOf(c)),
          );
          assertAdmin(row);
          if (!row?.saved) throw settingsMissing();
          await purge(c.req.raw, kind.purges);
          return c.json({ success: true, message: kind.deleted });
        },
      }),
    ]),
);

/**
 * Shapes 2 and 3 of PATCH /api/agents/me/settings, for a body naming a site-wide key: one statement
 * that checks the admin and changes the scale and/or the toggle.
 */
export async function saveSiteLogoSettings(
  c: Context,
  db: Db,
  purge: PurgeAfterWrite,
  body: Record<string, unknown>,
): Promise<Response> {
  const settings = await adminFirst(c, db, () => parseOrThrow(siteLogoSettingsSchema, body));
  const [row] = await db.query<{ is_admin: boolean } & { [Key in keyof SiteLogos]: SiteLogos[Key] | null }>(
    `WITH ${sessionAgentCte(1)},
     saved AS (UPDATE site_settings AS s
                  SET website_logo_scale = COALESCE($3::numeric, s.website_logo_scale),
                      show_town_page_logo = COALESCE($4::boolean, s.show_town_page_logo), updated_at = now()
                 FROM me WHERE s.id = 1 AND me.is_admin
               RETURNING ${LOGO_COLUMNS})
     SELECT me.is_admin, saved.* FROM me LEFT JOIN saved ON true`,
    [...sessionParams(sessionOf(c)), settings.website_logo_scale ?? null, settings.show_town_page_logo ?? null],
  );
  assertAdmin(row);
  if (!row || row.website_logo_type === null || row.website_logo_scale === null || row.show_town_page_logo === null) {
    throw settingsMissing();
  }
  await purge(c.req.raw, [CACHE_TAGS.settings]);
  const saved: SiteLogos = {
    website_logo: row.website_logo,
    website_logo_type: row.website_logo_type,
    website_logo_scale: row.website_logo_scale,
    town_page_logo: row.town_page_logo,
    town_page_logo_type: row.town_page_logo_type,
    show_town_page_logo: row.show_town_page_logo,
  };
  const message =
    settings.website_logo_scale === undefined ? SITE_IMAGE_MESSAGES.townLogoSaved : SITE_IMAGE_MESSAGES.websiteSaved;
  return c.json({ success: true, message, settings: saved });
}
