import { planFromEnv } from '../features/market/feeds.server.ts';
import type { AppDeps } from './api-app.ts';
import { authFrom } from './compose/auth.ts';
import { crmFrom } from './compose/crm.ts';
import { emailFrom } from './compose/email.ts';
import { siteBuildsFrom } from './compose/site-builds.ts';
import { webhooksFrom } from './compose/webhooks.ts';
import type { Db } from '../platform/db.ts';
import { defaultEdgePurger, type EdgePurger } from '../platform/edge-cache.ts';
import { isPreview, siteUrl, type Env } from '../platform/env.ts';
import { featuredAgentFrom } from '../platform/featured-agent.ts';

/**
 * Netlify's purge, except in a deploy preview: its writes change only its own database, and
 * purgeCache addresses the site (site_id, no deploy alias unless given), so it could only empty
 * production's cached answers for changes production never had.
 */
export const edgePurgerFor = (env: Env): EdgePurger => (isPreview(env) ? () => Promise.resolve() : defaultEdgePurger());

/**
 * The API's dependencies as the environment configures them; the Netlify Function, the local
 * servers and the benchmark all build the app from this, adding only what is theirs. The scheduled
 * functions build only the part their job runs (src/app/compose/*), so that each carries only
 * what it runs (decision 0026).
 *
 * A deploy preview or branch deploy (decision 0030) reaches no outside provider whatever its
 * database holds: e-mail goes to the outbox (the log), Follow Up Boss syncs are recorded as not
 * sent, the CDN is not purged and the build hook (production's) is never called.
 */
export function appDepsFrom(env: Env, db: Db): AppDeps & Required<Pick<AppDeps, 'siteUrl' | 'email' | 'auth' | 'crm'>> {
  return {
    db,
    siteUrl: siteUrl(env),
    email: emailFrom(env, db),
    auth: authFrom(env),
    leadNoticesPerHour: env.LEAD_NOTICES_PER_HOUR,
    leadExportPageRows: env.LEAD_EXPORT_PAGE_ROWS,
    crm: crmFrom(env),
    featuredAgent: featuredAgentFrom(env),
    siteBuilds: siteBuildsFrom(env, db),
    purgeCache: edgePurgerFor(env),
    // This environment's feeds, not a second reading of process.env (which knows no deploy context).
    marketFeeds: () => planFromEnv(env),
    production: env.APP_ENV === 'production',
    webhooks: webhooksFrom(env),
  };
}
