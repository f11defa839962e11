import { createApi } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db.ts';

/** Every METHOD PATH the app registers under /api (not the 405 catch-alls route() adds). */
export function registeredRoutes(db: Db): string[] {
  const app = createApi({ db });
  const keys = app.routes
    .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/'))
    .map((route) => `${route.method} ${route.path}`);
  return [...new Set(keys)].sort();
}
