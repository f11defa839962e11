import { currentRouteTable } from '../../scripts/api-routes/table.ts';
import type { Db } from '../../src/server/db.ts';

/** Every METHOD PATH the app's route groups register under /api (not the 405 catch-alls route() adds). */
export async function registeredRoutes(db: Db): Promise<string[]> {
  const table = await currentRouteTable(db);
  const keys = table.flatMap(({ path, methods }) => methods.map((method) => `${method} /api${path}`));
  return [...new Set(keys)].sort();
}
