import type { RouteAccess } from '../features/auth/public/access.server.ts';
import { API_ROUTES } from './api-routes.generated.ts';

/** Who may call each API route, `METHOD /api/path`: the generated table's, for the access check and the matrix. */
export const ROUTE_ACCESS: RouteAccess = Object.fromEntries(
  API_ROUTES.flatMap(({ path, methods }) =>
    Object.entries(methods).map(([method, access]) => [`${method} ${path}`, access]),
  ),
);
