import { hookBuilder, siteBuilds, type SiteBuilds } from '../../features/site-build/site-build.server.ts';
import type { Db } from '../db.ts';
import { isPreview, type Env } from '../env.ts';

/**
 * Rebuilds through Netlify's build hook when there is one; the local server adds its own builds
 * (serve.ts). A preview never calls the hook: it is production's (decision 0030).
 */
export const siteBuildsFrom = (env: Env, db: Db): SiteBuilds | undefined =>
  env.BUILD_HOOK_URL && !isPreview(env) ? siteBuilds(db, hookBuilder(env.BUILD_HOOK_URL)) : undefined;
