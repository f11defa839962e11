/** The automatic rebuild (netlify/functions/rebuild-site.mts every minute; `npm start` about once a minute). */
import { rebuildWhenDue } from '../../features/site-build/site-build.server.ts';
import type { AppDeps } from '../api-app.ts';
import type { Db } from '../../platform/db.ts';

/**
 * Starts a rebuild of the static site once its changes have settled for `debounceMs`
 * (REBUILD_DEBOUNCE_MS): several saves in a row make one build. Does not wait for the build.
 */
export const rebuildSiteWhenDue = async (
  db: Db,
  { siteBuilds }: Pick<AppDeps, 'siteBuilds'>,
  debounceMs: number,
  now = new Date(),
) => (siteBuilds ? rebuildWhenDue(db, siteBuilds, { debounceMs, now }) : 'no way to build');
