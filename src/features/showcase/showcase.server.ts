/**
 * The admin's showcase (admins only): PATCH /api/agents/me/showcase (the home card's figures) and
 * the card's images, GET /api/images/list, POST /api/images/upload, DELETE /api/images/delete and
 * PUT /api/images/order. Each is ONE statement that checks the admin (sessionAgentCte) and writes
 * site_settings (whose trigger marks the site as changed), so a refused request writes nothing.
 * The home page's carousel reads the list at run time from GET /api/showcase/settings.
 */
import type { Context } from 'hono';
import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, type PurgeAfterWrite } from '../../platform/edge-cache.ts';
import { HttpError, readBody } from '../../platform/http.ts';
import { apiGroup, json, ok } from '../../platform/operation.ts';
import { centsToDollars } from '../../ui/money.ts';
import {
  assertAdmin,
  checkAdmin,
  readJsonAsAdmin,
  sessionAgentCte,
  sessionOf,
  sessionParams,
} from '../auth/public/access.server.ts';
import {
  IMAGE_MESSAGES,
  imageParams,
  processImage,
  storeImageCte,
  UPLOAD_BODY_LIMIT,
  type ImageRules,
  type ProcessedImage,
} from '../images/public/images.server.ts';
import { showcaseImages } from './showcase.ts';
import {
  deleteImageSchema,
  imageListSchema,
  imageOrderSchema,
  imagesChangedSchema,
  imageUploadedSchema,
  SHOWCASE_DEFAULT_IMAGES,
  SHOWCASE_IMAGE_SIZE,
  SHOWCASE_LIMITS,
  SHOWCASE_MESSAGES,
  showcaseFieldsSchema,
  type ShowcaseFields,
} from './public/showcase-settings.ts';

const SHOWCASE_RULES: ImageRules = {
  ...SHOWCASE_IMAGE_SIZE,
  accepts: ['jpeg', 'png', 'webp'],
  wrongFormat: SHOWCASE_MESSAGES.wrongFormat,
};

interface FieldsRow {
  is_admin: boolean;
  showcase_property_price_cents: number | null;
  showcase_property_address: string | null;
  showcase_property_beds: number | null;
  showcase_property_baths: number | null;
  showcase_property_sqft: number | null;
}

interface ListRow {
  is_admin: boolean;
  /** The list after the write; null when nothing was written. */
  images: string | null;
}

/** The file of an upload's `image` field, in a body within UPLOAD_BODY_LIMIT (checked before anything decodes it). */
async function uploadedImage(c: Context): Promise<ProcessedImage> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new HttpError(415, 'Send the image as multipart/form-data (field "image")');
  }
  const body = await readBody(c, UPLOAD_BODY_LIMIT);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new HttpError(400, 'The request body is not a valid form');
  }
  const file = form.get('image');
  if (file === null || typeof file === 'string' || file.size === 0) {
    throw new HttpError(400, IMAGE_MESSAGES.notAnImage, { image: IMAGE_MESSAGES.notAnImage });
  }
  return processImage(Buffer.from(await file.arrayBuffer()), SHOWCASE_RULES);
}

/** The admin's showcase (see above). */
export const showcaseApi = apiGroup(
  ({ db, purge }: { db: Db; purge: PurgeAfterWrite }) => ({
    db,
    purge,
    /** Runs a statement answering `is_admin` and `images` (the list it wrote, or null). */
    writeList: async (c: Context, sql: string, params: unknown[]): Promise<string[] | null> => {
      const [row] = await db.query<ListRow>(sql, [...sessionParams(sessionOf(c)), ...params]);
      assertAdmin(row);
      if (row?.images === null || row?.images === undefined) return null;
      await purge(c.req.raw, [CACHE_TAGS.showcase]);
      return showcaseImages(row.images);
    },
  }),
  (op) => [
    op({
      method: 'PATCH',
      path: '/api/agents/me/showcase',
      access: 'admin',
      summary: "Saves the home page's showcase figures",
      tag: 'Showcase',
      body: json(showcaseFieldsSchema),
      success: ok('Saved'),
      handler: async (c, { db, purge }) => {
        const fields = await readJsonAsAdmin(c, db, showcaseFieldsSchema);
        const [row] = await db.query<FieldsRow>(
          `WITH ${sessionAgentCte(1)},
         updated AS (
           UPDATE site_settings s SET showcase_property_price_cents = $3, showcase_property_address = $4,
                  showcase_property_beds = $5, showcase_property_baths = $6, showcase_property_sqft = $7,
                  updated_at = now()
             FROM me WHERE s.id = 1 AND me.is_admin
           RETURNING s.showcase_property_price_cents, s.showcase_property_address, s.showcase_property_beds,
                     s.showcase_property_baths, s.showcase_property_sqft
         )
         SELECT me.is_admin, updated.* FROM me LEFT JOIN updated ON true`,
          [
            ...sessionParams(sessionOf(c)),
            Math.round(fields.showcase_property_price * 100),
            fields.showcase_property_address,
            fields.showcase_property_beds,
            fields.showcase_property_baths,
            fields.showcase_property_sqft,
          ],
        );
        assertAdmin(row);
        if (!row || row.showcase_property_price_cents === null) {
          throw new HttpError(500, 'Site settings are missing; run npm run db:seed');
        }
        await purge(c.req.raw, [CACHE_TAGS.showcase]);
        const settings: ShowcaseFields = {
          showcase_property_price: centsToDollars(row.showcase_property_price_cents),
          showcase_property_address: row.showcase_property_address ?? '',
          showcase_property_beds: row.showcase_property_beds ?? 1,
          showcase_property_baths: row.showcase_property_baths ?? 1,
          showcase_property_sqft: row.showcase_property_sqft ?? 1,
        };
        return c.json({ success: true, message: SHOWCASE_MESSAGES.saved, settings });
      },
    }),

    op({
      method: 'GET',
      path: '/api/images/list',
      access: 'admin',
      summary: 'The showcase images in order',
      tag: 'Showcase',
      success: ok('The images', imageListSchema),
      handler: async (c, { db }) => {
        const [row] = await db.query<ListRow>(
          `WITH ${sessionAgentCte(1)}
         SELECT me.is_admin, s.showcase_images AS images FROM me LEFT JOIN site_settings s ON s.id = 1 AND me.is_admin`,
          sessionParams(sessionOf(c)),
        );
        assertAdmin(row);
        const images = showcaseImages(row?.images ?? '');
        return images.length > 0
          ? c.json({ success: true, images, is_default: false })
          : c.json({ success: true, images: [...SHOWCASE_DEFAULT_IMAGES], is_default: true });
      },
    }),

    /**
     * Appends the image to the list; the image is stored only when the list takes it (not already
     * in it, and not full), both in the one statement.
     */
    op({
      method: 'POST',
      path: '/api/images/upload',
      access: 'admin',
      summary: 'Adds a showcase image (form part `image`)',
      tag: 'Showcase',
      body: { 'multipart/form-data': { files: ['image'] } },
      uploads: { image: SHOWCASE_IMAGE_SIZE },
      success: ok('Added', imageUploadedSchema),
      errors: [409],
      handler: async (c, { db, purge }) => {
        // The one heavy body of the admin routes: a caller who may not upload gets 403 before it is
        // read or decoded (the statement below checks again, as the admin may change meanwhile).
        await checkAdmin(c, db);
        const image = await uploadedImage(c);
        const [row] = await db.query<ListRow & { before: string | null }>(
          `WITH ${sessionAgentCte(1)},
         updated AS (
           UPDATE site_settings s
              SET showcase_images = CASE WHEN s.showcase_images = '' THEN $8 ELSE s.showcase_images || ',' || $8 END,
                  updated_at = now()
             FROM me
            WHERE s.id = 1 AND me.is_admin
              AND NOT ($8 = ANY (string_to_array(s.showcase_images, ',')))
              AND cardinality(string_to_array(s.showcase_images, ',')) < $9
           RETURNING s.showcase_images
         ),
         ${storeImageCte('stored', 3, 'EXISTS (SELECT 1 FROM updated)')}
         SELECT me.is_admin, (SELECT showcase_images FROM updated) AS images,
                (SELECT showcase_images FROM site_settings WHERE id = 1) AS before
           FROM me`,
          [...sessionParams(sessionOf(c)), ...imageParams(image), image.url, SHOWCASE_LIMITS.maxImages],
        );
        assertAdmin(row);
        if (!row?.images) {
          const full = `At most ${SHOWCASE_LIMITS.maxImages} showcase images: delete one first`;
          throw new HttpError(
            409,
            showcaseImages(row?.before ?? '').includes(image.url) ? SHOWCASE_MESSAGES.alreadyShown : full,
          );
        }
        await purge(c.req.raw, [CACHE_TAGS.showcase]);
        return c.json({ success: true, filename: image.url, images: showcaseImages(row.images) });
      },
    }),

    /** Only a path in the list is taken out of it; the stored image stays (others may show the same bytes). */
    op({
      method: 'DELETE',
      path: '/api/images/delete',
      access: 'admin',
      summary: 'Removes a showcase image',
      tag: 'Showcase',
      body: json(deleteImageSchema),
      success: ok('Removed', imagesChangedSchema),
      errors: [404],
      handler: async (c, { db, writeList }) => {
        const { imagePath } = await readJsonAsAdmin(c, db, deleteImageSchema);
        const images = await writeList(
          c,
          `WITH ${sessionAgentCte(1)},
         updated AS (
           UPDATE site_settings s
              SET showcase_images = array_to_string(array_remove(string_to_array(s.showcase_images, ','), $3::text), ','),
                  updated_at = now()
             FROM me
            WHERE s.id = 1 AND me.is_admin AND $3::text = ANY (string_to_array(s.showcase_images, ','))
           RETURNING s.showcase_images
         )
         SELECT me.is_admin, (SELECT showcase_images FROM updated) AS images FROM me`,
          [imagePath],
        );
        if (!images) throw new HttpError(404, SHOWCASE_MESSAGES.notInList);
        return c.json({ success: true, message: SHOWCASE_MESSAGES.deleted, images });
      },
    }),

    /** The new order must hold exactly the images of the list (compared sorted), else nothing changes. */
    op({
      method: 'PUT',
      path: '/api/images/order',
      access: 'admin',
      summary: 'Reorders the showcase images (every image, in the new order)',
      tag: 'Showcase',
      body: json(imageOrderSchema),
      success: ok('Reordered', imagesChangedSchema),
      errors: [409],
      handler: async (c, { db, writeList }) => {
        const { images: wanted } = await readJsonAsAdmin(c, db, imageOrderSchema);
        const images = await writeList(
          c,
          `WITH ${sessionAgentCte(1)},
         wanted AS (SELECT ARRAY(SELECT json_array_elements_text($3::json)) AS list),
         updated AS (
           UPDATE site_settings s SET showcase_images = array_to_string(wanted.list, ','), updated_at = now()
             FROM me, wanted
            WHERE s.id = 1 AND me.is_admin
              AND (SELECT array_agg(x ORDER BY x) FROM unnest(string_to_array(s.showcase_images, ',')) x)
                  IS NOT DISTINCT FROM (SELECT array_agg(x ORDER BY x) FROM unnest(wanted.list) x)
           RETURNING s.showcase_images
         )
         SELECT me.is_admin, (SELECT showcase_images FROM updated) AS images FROM me`,
          [JSON.stringify(wanted)],
        );
        if (!images) throw new HttpError(409, SHOWCASE_MESSAGES.listChanged);
        return c.json({ success: true, message: SHOWCASE_MESSAGES.reordered, images });
      },
    }),
  ],
);
