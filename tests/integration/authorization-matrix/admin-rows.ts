/**
 * The matrix's rows of the admin's screens: site-wide settings, every agent's leads and accounts
 * (the admin acts on A's), the showcase, the public pages' content, the fee table, rebuilds and
 * market data. Agents are refused 403.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { signupBody } from '../../support/auth-suite.ts';
import { blobOf, dataUrl, formOf, png } from '../../support/images.ts';
import { adminOnly, leadsOfA, type MatrixRow } from './cells.ts';
import { SAMPLE_ZHVI } from './suite.ts';

export const ADMIN_ROWS: Record<string, MatrixRow> = {
  // Site-wide settings: the admin's alone; each save sends what is stored, so it changes nothing.
  'GET /api/agents/me/integrations/mailgun': {
    request: () => ({ path: '/api/agents/me/integrations/mailgun' }),
    expect: adminOnly(),
  },
  'PATCH /api/agents/me/integrations/mailgun': {
    request: (w) => ({ path: '/api/agents/me/integrations/mailgun', json: w.site.mailgun }),
    expect: adminOnly(),
  },
  'POST /api/admin/email/test': { request: () => ({ path: '/api/admin/email/test', json: {} }), expect: adminOnly() },
  'GET /api/seo/settings': { request: () => ({ path: '/api/seo/settings' }), expect: adminOnly() },
  'PUT /api/seo/settings': { request: (w) => ({ path: '/api/seo/settings', json: w.site.seo }), expect: adminOnly() },
  'POST /api/upload/og-image': {
    request: async () => ({ path: '/api/upload/og-image', json: { image: dataUrl(await png(1200, 630)) } }),
    expect: adminOnly(),
  },
  'DELETE /api/upload/og-image': { request: () => ({ path: '/api/upload/og-image' }), expect: adminOnly() },
  'POST /api/upload/website-logo': {
    request: async () => ({ path: '/api/upload/website-logo', json: { image: dataUrl(await png(240, 60)) } }),
    expect: adminOnly(),
  },
  'DELETE /api/upload/website-logo': { request: () => ({ path: '/api/upload/website-logo' }), expect: adminOnly() },
  'POST /api/upload/town-logo': {
    request: async () => ({ path: '/api/upload/town-logo', json: { image: dataUrl(await png(120, 120)) } }),
    expect: adminOnly(),
  },
  'DELETE /api/upload/town-logo': { request: () => ({ path: '/api/upload/town-logo' }), expect: adminOnly() },
  'GET /api/admin/digests': { request: () => ({ path: '/api/admin/digests' }), expect: adminOnly() },
  'PUT /api/admin/digests/settings': {
    request: () => ({ path: '/api/admin/digests/settings', json: { enabled: true, window_start: 9, window_end: 18 } }),
    expect: adminOnly(),
  },
  'GET /api/admin/overview': { request: () => ({ path: '/api/admin/overview' }), expect: adminOnly() },
  'GET /api/admin/activity': { request: () => ({ path: '/api/admin/activity' }), expect: adminOnly() },
  // Sends what is due: nothing in the matrix's world is subscribed, so it sends nothing.
  'POST /api/admin/digests/run': { request: () => ({ path: '/api/admin/digests/run', json: {} }), expect: adminOnly() },

  // Every agent's leads and accounts: the admin acts on A's.
  'GET /api/admin/leads': {
    request: (w) => ({ path: `/api/admin/leads?agent=${w.a.id}` }),
    expect: adminOnly(200, leadsOfA),
  },
  'GET /api/admin/leads/export.csv': {
    request: (w) => ({ path: `/api/admin/leads/export.csv?agent=${w.a.id}` }),
    expect: adminOnly(200, leadsOfA),
  },
  'GET /api/admin/leads/:id/timeline': {
    request: (w) => ({ path: `/api/admin/leads/${w.a.leadId}/timeline` }),
    expect: adminOnly(200, leadsOfA),
  },
  'GET /api/admin/agents': {
    request: () => ({ path: '/api/admin/agents' }),
    expect: adminOnly(200, (w) => [w.a.email]),
  },
  'POST /api/admin/agents': {
    request: () => {
      const { first_name, last_name, email, slug, brokerage, phone } = signupBody({ phone: '6315550142' });
      return { path: '/api/admin/agents', json: { first_name, last_name, email, slug, brokerage, phone } };
    },
    expect: adminOnly(201),
  },
  'PATCH /api/admin/agents/:id': {
    request: (w) => ({ path: `/api/admin/agents/${w.a.id}`, json: { status: 'active' } }),
    expect: adminOnly(),
  },
  'DELETE /api/admin/agents/:id': {
    fresh: true,
    request: (w) => ({ path: `/api/admin/agents/${w.a.id}` }),
    expect: adminOnly(),
  },
  // Agent A chose a password, so the admin is told the invitation is not needed; nobody else gets that far.
  'POST /api/admin/agents/:id/invitation': {
    request: (w) => ({ path: `/api/admin/agents/${w.a.id}/invitation` }),
    expect: adminOnly(409),
  },

  // The showcase, the public pages' content, the fee table, rebuilds and market data.
  'PATCH /api/agents/me/showcase': {
    request: () => ({
      path: '/api/agents/me/showcase',
      json: {
        showcase_property_price: 899000,
        showcase_property_address: '12 Harbor Road, Northport, NY',
        showcase_property_beds: 4,
        showcase_property_baths: 3,
        showcase_property_sqft: 2400,
      },
    }),
    expect: adminOnly(),
  },
  'GET /api/images/list': { request: () => ({ path: '/api/images/list' }), expect: adminOnly() },
  'POST /api/images/upload': {
    request: async () => ({
      path: '/api/images/upload',
      form: formOf({ image: blobOf(await png(800, 600, `#${randomBytes(3).toString('hex')}`)) }),
    }),
    expect: adminOnly(),
  },
  'DELETE /api/images/delete': {
    request: async (_w, _caller, suite) => {
      // Its own image in the list, so the admin's delete takes nothing another cell reads.
      const path = `/images/matrix-${randomBytes(6).toString('hex')}.jpg`;
      await suite.db.query(
        `UPDATE site_settings SET showcase_images = CASE WHEN showcase_images = '' THEN $1 ELSE showcase_images || ',' || $1 END WHERE id = 1`,
        [path],
      );
      return { path: '/api/images/delete', json: { imagePath: path } };
    },
    expect: adminOnly(),
  },
  'PUT /api/images/order': {
    request: async (_w, _caller, suite) => {
      const [row] = await suite.db.query<{ images: string }>(
        'SELECT showcase_images AS images FROM site_settings WHERE id = 1',
      );
      return { path: '/api/images/order', json: { images: (row?.images ?? '').split(',').filter(Boolean) } };
    },
    expect: adminOnly(),
  },
  'GET /api/admin/site-content': { request: () => ({ path: '/api/admin/site-content' }), expect: adminOnly() },
  'PUT /api/admin/site-content': {
    request: (w) => ({ path: '/api/admin/site-content', json: w.site.content }),
    expect: adminOnly(),
  },
  'GET /api/admin/net-sheet-fees': { request: () => ({ path: '/api/admin/net-sheet-fees' }), expect: adminOnly() },
  'PUT /api/admin/net-sheet-fees': {
    request: (w) => ({ path: '/api/admin/net-sheet-fees', json: w.site.fees }),
    expect: adminOnly(),
  },
  'GET /api/admin/site-build': { request: () => ({ path: '/api/admin/site-build' }), expect: adminOnly() },
  'POST /api/admin/site-build': {
    request: () => ({ path: '/api/admin/site-build', json: {} }),
    expect: adminOnly(202),
  },
  'GET /api/admin/data/runs': { request: () => ({ path: '/api/admin/data/runs' }), expect: adminOnly() },
  'POST /api/admin/data/refresh': {
    request: () => ({ path: '/api/admin/data/refresh', text: { body: '', type: 'text/csv' } }),
    expect: adminOnly(202),
  },
  'PUT /api/admin/data/uploads/:upload/chunks/:index': {
    request: () => ({
      path: `/api/admin/data/uploads/${randomUUID()}/chunks/0?source=zhvi&name=zhvi.csv&size=${SAMPLE_ZHVI.length}`,
      text: { body: SAMPLE_ZHVI, type: 'application/octet-stream' },
    }),
    expect: adminOnly(200),
  },
  'POST /api/admin/data/uploads/:upload/complete': {
    // An upload of the admin's with its one chunk staged, as the screen leaves it before completing.
    request: async (w, _caller, suite) => {
      const upload = randomUUID();
      await suite.db.query(
        `WITH u AS (INSERT INTO market_uploads (id, kind, name, file_bytes, admin_id)
                    VALUES ($1::uuid, 'zhvi', 'zhvi.csv', $2, $3) RETURNING id)
         INSERT INTO market_upload_chunks (upload_id, chunk_index, bytes) SELECT id, 0, convert_to($4, 'UTF8') FROM u`,
        [upload, SAMPLE_ZHVI.length, w.admin.id, SAMPLE_ZHVI],
      );
      return { path: `/api/admin/data/uploads/${upload}/complete`, json: { chunks: 1 } };
    },
    expect: adminOnly(202),
  },
};
