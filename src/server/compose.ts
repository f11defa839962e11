import { resolve } from 'node:path';
import { sessionKeyFrom } from '../features/auth/sessions.server.ts';
import { fubClient } from '../features/crm/fub-client.server.ts';
import { previewFubClient } from '../features/crm/preview-fub-client.server.ts';
import { hookBuilder, siteBuilds } from '../features/site-build/site-build.server.ts';
import { createOutboxProvider } from '../features/email/email.server.ts';
import { settingsAwareProvider } from '../features/email/providers/choose-provider.server.ts';
import { planFromEnv } from '../features/market/refresh.server.ts';
import type { AppDeps } from './app.ts';
import type { Db } from './db.ts';
import { defaultEdgePurger, type EdgePurger } from './edge-cache.ts';
import { isPreview, isProduction, siteUrl, type Env } from './env.ts';
import { featuredAgentFrom } from './featured-agent.ts';
import { secretFrom } from './secrets.ts';

/**
 * Netlify's purge, except in a deploy preview: its writes change only its own database, and
 * purgeCache addresses the site (site_id, no deploy alias unless given), so it could only empty
 * production's cached answers for changes production never had.
 */
export const edgePurgerFor = (env: Env): EdgePurger => (isPreview(env) ? () => Promise.resolve() : defaultEdgePurger());

/**
 * The API's dependencies as the environment configures them; the Netlify Function, the local
 * servers and the benchmark all build the app from this, adding only what is theirs.
 *
 * A deploy preview or branch deploy (decision 0030) reaches no outside provider whatever its
 * database holds: e-mail goes to the outbox (the log), Follow Up Boss syncs are recorded as not
 * sent, the CDN is not purged and the build hook (production's) is never called.
 */
export function appDepsFrom(env: Env, db: Db): AppDeps & Required<Pick<AppDeps, 'siteUrl' | 'email' | 'auth' | 'crm'>> {
  const preview = isPreview(env);
  // Locally the outbox also keeps each message as a file under DATA_DIR/outbox.
  const outbox = createOutboxProvider(undefined, isProduction(env) ? undefined : resolve(env.DATA_DIR, 'outbox'));
  return {
    db,
    siteUrl: siteUrl(env),
    email: {
      // Mailgun (admin settings) > Resend (RESEND_API_KEY) > the outbox, chosen at each send.
      provider: preview
        ? outbox
        : settingsAwareProvider(db, env, outbox, { encryptionKey: secretFrom(env, 'ENCRYPTION_KEY') }),
      from: { name: env.EMAIL_FROM_NAME, email: env.EMAIL_FROM_ADDRESS },
    },
    auth: {
      // Production refuses to start without SESSION_SECRET; locally one is generated under DATA_DIR.
      sessionKey: sessionKeyFrom(secretFrom(env, 'SESSION_SECRET')),
      secureCookies: isProduction(env),
    },
    leadNoticesPerHour: env.LEAD_NOTICES_PER_HOUR,
    leadExportPageRows: env.LEAD_EXPORT_PAGE_ROWS,
    // The stored Follow Up Boss keys are encrypted with ENCRYPTION_KEY, as the Mailgun key is.
    crm: {
      client: preview ? previewFubClient() : fubClient(env.FUB_API_URL),
      secret: () => secretFrom(env, 'ENCRYPTION_KEY'),
    },
    featuredAgent: featuredAgentFrom(env),
    // Through Netlify's build hook when there is one; the local server adds its own builds (serve.ts).
    siteBuilds: env.BUILD_HOOK_URL && !preview ? siteBuilds(db, hookBuilder(env.BUILD_HOOK_URL)) : undefined,
    purgeCache: edgePurgerFor(env),
    // This environment's feeds, not a second reading of process.env (which knows no deploy context).
    marketFeeds: () => planFromEnv(env),
  };
}
