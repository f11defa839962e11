import type { RouteAccess } from '../features/auth/access.server.ts';
import { API_ROUTES } from './api-routes.generated.ts';

/**
 * Who may call each route of a group not yet declared (src/server/operation.ts): read into the
 * generated route table with the group's routes. A declared operation says its own access; this table
 * shrinks as the groups are declared, and goes with the last.
 */
export const LEGACY_ACCESS: RouteAccess = {
  // The public site.
  'POST /api/email/send-estimate': 'public',
  'POST /api/templates': 'public',
  'GET /api/email/unsubscribe': 'public',
  'POST /api/email/unsubscribe': 'public',
  'DELETE /api/email/unsubscribe': 'public',
  'GET /api/towns/:slug': 'public',
  'GET /api/towns/:slug/sold': 'public',
  'GET /api/zillow/market': 'public',
  'GET /api/sold': 'public',
  // The API's OpenAPI document (src/server/openapi.server.ts).
  'GET /api/openapi.json': 'public',
  // Admin settings: e-mail sending (the test e-mail goes to the admin's own address) and SEO.
  'GET /api/agents/me/integrations/mailgun': 'admin',
  'PATCH /api/agents/me/integrations/mailgun': 'admin',
  'POST /api/admin/email/test': 'admin',
  'GET /api/seo/settings': 'admin',
  'PUT /api/seo/settings': 'admin',
  // Site-wide images (src/features/site/site-images.server.ts; /town-logo-api.php is the town logo's).
  'POST /api/upload/og-image': 'admin',
  'DELETE /api/upload/og-image': 'admin',
  'POST /api/upload/website-logo': 'admin',
  'DELETE /api/upload/website-logo': 'admin',
  'POST /api/upload/town-logo': 'admin',
  'DELETE /api/upload/town-logo': 'admin',
  // The admin's agents (src/features/admin/admin-agents.server.ts).
  'GET /api/admin/agents': 'admin',
  'POST /api/admin/agents': 'admin',
  'PATCH /api/admin/agents/:id': 'admin',
  'DELETE /api/admin/agents/:id': 'admin',
  'POST /api/admin/agents/:id/invitation': 'admin',
  // The public pages' marketing content (src/features/content/site-content.server.ts).
  'GET /api/admin/site-content': 'admin',
  'PUT /api/admin/site-content': 'admin',
  // The Long Island closing-fee table (src/features/net-sheet/fee-table.server.ts).
  'GET /api/admin/net-sheet-fees': 'admin',
  'PUT /api/admin/net-sheet-fees': 'admin',
  // Rebuilds of the static site (src/features/site-build/site-build.server.ts).
  'GET /api/admin/site-build': 'admin',
  'POST /api/admin/site-build': 'admin',
  // Market data: runs, Refresh now, file uploads (src/features/market/data-admin.server.ts).
  'GET /api/admin/data/runs': 'admin',
  'POST /api/admin/data/refresh': 'admin',
  'PUT /api/admin/data/uploads/:upload/chunks/:index': 'admin',
  'POST /api/admin/data/uploads/:upload/complete': 'admin',
};

/** Who may call each API route, `METHOD /api/path`: the generated table's, for the access check and the matrix. */
export const ROUTE_ACCESS: RouteAccess = Object.fromEntries(
  API_ROUTES.flatMap(({ path, methods }) =>
    Object.entries(methods).map(([method, access]) => [`${method} ${path}`, access]),
  ),
);
