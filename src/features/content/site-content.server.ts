/**
 * GET and PUT /api/admin/site-content (admins only): the one row of site_content, which the build
 * reads into the home, county, town and about pages and every footer (readSiteContent).
 */
import {
  assertAdmin,
  readJsonAsAdmin,
  sessionAgentCte,
  sessionOf,
  sessionParams,
} from '../auth/public/access.server.ts';
import type { Db, Queryable } from '../../platform/db.ts';
import { apiGroup, json, ok } from '../../platform/operation.ts';
import {
  CONTENT_MESSAGES,
  siteContentSchema,
  type SiteContent,
  siteContentAnswerSchema,
  siteContentSavedSchema,
} from './site-content-schema.ts';

const COLUMNS =
  'claims, track_record, track_record_source, testimonial_quote, testimonial_author, disclaimer, county_stats';

/** A row as read: checked by the schema, since a hand-run SQL fix may have broken it. */
interface ContentRow {
  claims: unknown;
  track_record: unknown;
  track_record_source: unknown;
  testimonial_quote: unknown;
  testimonial_author: unknown;
  disclaimer: unknown;
  county_stats: unknown;
}

/** The row in the API's shape; a row that breaks the limits fails loudly rather than reaching a page. */
const toContent = (row: ContentRow): SiteContent =>
  siteContentSchema.parse({
    claims: row.claims,
    track_record: row.track_record,
    track_record_source: row.track_record_source,
    testimonial: { quote: row.testimonial_quote, author: row.testimonial_author },
    disclaimer: row.disclaimer,
    counties: row.county_stats,
  });

/** The saved content, for the build (src/app/build-data.ts). Migration 0018 seeds the row. */
export async function readSiteContent(db: Queryable): Promise<SiteContent> {
  const [row] = await db.query<ContentRow>(`SELECT ${COLUMNS} FROM site_content WHERE id = 1`);
  if (!row) throw new Error('site_content has no row: run the migrations (0018 seeds it)');
  return toContent(row);
}

type AdminRow = { is_admin: boolean } & ContentRow;

export const siteContentApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    /** One round trip: the admin check and the content. */
    op({
      method: 'GET',
      path: '/api/admin/site-content',
      access: 'admin',
      summary: "The public pages' marketing content",
      tag: 'Admin',
      success: ok('The content', siteContentAnswerSchema),
      handler: async (c, { db }) => {
        const [row] = await db.query<AdminRow>(
          `WITH ${sessionAgentCte(1)}
           SELECT me.is_admin, ${COLUMNS.split(', ')
             .map((column) => `s.${column}`)
             .join(', ')}
             FROM me LEFT JOIN site_content s ON s.id = 1 AND me.is_admin`,
          sessionParams(sessionOf(c)),
        );
        assertAdmin(row);
        return c.json({ success: true, content: row ? toContent(row) : null });
      },
    }),
    /** One statement: the admin check and the whole content replaced; an agent writes nothing. */
    op({
      method: 'PUT',
      path: '/api/admin/site-content',
      access: 'admin',
      summary: "Saves the public pages' marketing content (used at the next build)",
      tag: 'Admin',
      body: json(siteContentSchema),
      success: ok('Saved', siteContentSavedSchema),
      handler: async (c, { db }) => {
        const content = await readJsonAsAdmin(c, db, siteContentSchema);
        const [row] = await db.query<AdminRow>(
          `WITH ${sessionAgentCte(1)},
           saved AS (
             INSERT INTO site_content AS s (id, ${COLUMNS})
             SELECT 1, $3::jsonb, $4::jsonb, $9, $5, $6, $7, $8::jsonb FROM me WHERE me.is_admin
             ON CONFLICT (id) DO UPDATE SET
               claims = EXCLUDED.claims, track_record = EXCLUDED.track_record,
               track_record_source = EXCLUDED.track_record_source,
               testimonial_quote = EXCLUDED.testimonial_quote, testimonial_author = EXCLUDED.testimonial_author,
               disclaimer = EXCLUDED.disclaimer, county_stats = EXCLUDED.county_stats, updated_at = now()
             RETURNING ${COLUMNS}
           )
           SELECT me.is_admin, saved.* FROM me LEFT JOIN saved ON true`,
          [
            ...sessionParams(sessionOf(c)),
            JSON.stringify(content.claims),
            JSON.stringify(content.track_record),
            content.testimonial.quote,
            content.testimonial.author,
            content.disclaimer,
            JSON.stringify(content.counties),
            content.track_record_source,
          ],
        );
        assertAdmin(row);
        return c.json({ success: true, message: CONTENT_MESSAGES.saved, content: row ? toContent(row) : null });
      },
    }),
  ],
);
