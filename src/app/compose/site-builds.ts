import type { SiteBuilds } from '../../features/site-build/site-build.server.ts';
import type { Db } from '../../platform/db.ts';
import { isPreview, type Env } from '../../platform/env.ts';
import { onFirstCall } from '../../platform/on-first-call.ts';

/**
 * Rebuilds through Netlify's build hook when there is one; the local server adds its own builds
 * (serve.ts). A preview never calls the hook: it is production's (decision 0030). The builds' module
 * is loaded at the first rebuild asked for, not at every cold start of the API (decision 0026).
 */
export function siteBuildsFrom(env: Env, db: Db): SiteBuilds | undefined {
  const hook = env.BUILD_HOOK_URL;
  if (!hook || isPreview(env)) return undefined;
  const made = onFirstCall(async () => {
    const { siteBuilds, hookBuilder } = await import('../../features/site-build/site-build.server.ts');
    return siteBuilds(db, hookBuilder(hook));
  });
  return {
    mode: 'hook',
    request: async (trigger, requestedBy) => (await made()).request(trigger, requestedBy),
    idle: async () => (await made()).idle(),
  };
}
