import { groupDepsFor } from '../../src/app/api-app.ts';
import { API_GROUPS, GROUP_NAMES } from '../../src/app/api-groups.server.ts';
import type { Db } from '../../src/platform/db.ts';

/**
 * Every METHOD PATH the app's route groups register, read off each group's built app (not the 405
 * catch-alls route() adds): what the app really answers, to hold the derived tables against.
 */
export async function registeredRoutes(db: Db): Promise<string[]> {
  const deps = groupDepsFor({ db });
  const keys: string[] = [];
  for (const group of GROUP_NAMES) {
    const app = await API_GROUPS[group].build(deps);
    for (const { method, path } of app.routes) if (method !== 'ALL') keys.push(`${method} ${path}`);
  }
  return [...new Set(keys)].sort();
}
