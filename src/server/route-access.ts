import type { RouteAccess } from '../features/auth/access.server.ts';
import { API_ROUTES } from './api-routes.generated.ts';

/**
 * Who may call each route of a group not yet declared (src/server/operation.ts): read into the
 * generated route table with the group's routes. A declared operation says its own access; this table
 * shrinks as the groups are declared, and goes with the last.
 */
export const LEGACY_ACCESS: RouteAccess = {
  // The public site.
  'GET /api/agents/public/:slug': 'public',
  'POST /api/estimates': 'public',
  'GET /api/estimates/:uuid': 'public',
  'GET /api/estimates/:uuid/pdf': 'public',
  'POST /api/estimates/reverse': 'public',
  'GET /api/estimates/:uuid/sheet': 'public',
  'GET /api/estimates/:uuid/range': 'public',
  'POST /api/offers': 'public',
  'GET /api/offers/:uuid': 'public',
  'GET /api/offers/:uuid/pdf': 'public',
  'POST /api/leads': 'public',
  // Accounts.
  'POST /api/auth/signup': 'public',
  'POST /api/auth/verify-email': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/resend-verification': 'public',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/reset-password': 'public',
  'POST /api/auth/logout': 'public',
  'POST /api/auth/confirm-email-change': 'public',
  'POST /api/auth/undo-email-change': 'public',
  'GET /api/auth/me': 'agent',
  'POST /api/auth/logout-everywhere': 'agent',
  // The agent's dashboard.
  'GET /api/agents/me/overview': 'agent',
  'GET /api/agents/me/settings': 'agent',
  'PATCH /api/agents/me/settings': 'agent',
  // The agent's profile, photo and logo (src/features/agents/profile.server.ts).
  'GET /api/agents/profile': 'agent',
  'PUT /api/agents/profile': 'agent',
  'POST /api/upload/profile-photo': 'agent',
  'DELETE /api/upload/profile-photo': 'agent',
  'POST /api/upload/logo': 'agent',
  'DELETE /api/upload/logo': 'agent',
  // Uploaded images, by content hash (src/features/images/images.server.ts).
  'GET /api/images/:file': 'public',
  // The agent's leads (POST /api/leads above is the public lead form).
  'GET /api/leads': 'agent',
  'DELETE /api/leads': 'agent',
  'GET /api/leads/export.csv': 'agent',
  // Follow Up Boss: sync controls, a lead's sync history, and the agent's connection.
  'POST /api/leads/sync-fub': 'agent',
  'GET /api/leads/:id/crm': 'agent',
  'GET /api/agents/me/integrations/fub': 'agent',
  'PATCH /api/agents/me/integrations/fub': 'agent',
  'DELETE /api/agents/me/integrations/fub': 'agent',
  // The admin overview: the site's figures and recent activity.
  'GET /api/admin/overview': 'admin',
  'GET /api/admin/activity': 'admin',
  // The admin's leads of every agent (src/features/admin/admin-leads.server.ts).
  'GET /api/admin/leads': 'admin',
  'GET /api/admin/leads/export.csv': 'admin',
  'GET /api/admin/leads/:id/timeline': 'admin',
  // The admin's showcase: the home card's figures and images (src/features/showcase/showcase.server.ts).
  'PATCH /api/agents/me/showcase': 'admin',
  'GET /api/images/list': 'admin',
  'POST /api/images/upload': 'admin',
  'DELETE /api/images/delete': 'admin',
  'PUT /api/images/order': 'admin',
};

/** Who may call each API route, `METHOD /api/path`: the generated table's, for the access check and the matrix. */
export const ROUTE_ACCESS: RouteAccess = Object.fromEntries(
  API_ROUTES.flatMap(({ path, methods }) =>
    Object.entries(methods).map(([method, access]) => [`${method} ${path}`, access]),
  ),
);
