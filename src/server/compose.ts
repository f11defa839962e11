import type { AppDeps } from './app.ts';
import { authFrom } from './compose/auth.ts';
import { crmFrom } from './compose/crm.ts';
import { emailFrom } from './compose/email.ts';
import { siteBuildsFrom } from './compose/site-builds.ts';
import type { Db } from './db.ts';
import { siteUrl, type Env } from './env.ts';
import { featuredAgentFrom } from './featured-agent.ts';

/**
 * The API's dependencies as the environment configures them; the Netlify Function, the local
 * servers and the benchmark all build the app from this, adding only what is theirs. The scheduled
 * functions build only the part their job runs (src/server/compose/*), so that each carries only
 * what it runs (decision 0026).
 */
export function appDepsFrom(env: Env, db: Db): AppDeps & Required<Pick<AppDeps, 'siteUrl' | 'email' | 'auth' | 'crm'>> {
  return {
    db,
    siteUrl: siteUrl(env),
    email: emailFrom(env, db),
    auth: authFrom(env),
    leadNoticesPerHour: env.LEAD_NOTICES_PER_HOUR,
    crm: crmFrom(env),
    featuredAgent: featuredAgentFrom(env),
    siteBuilds: siteBuildsFrom(env, db),
  };
}
