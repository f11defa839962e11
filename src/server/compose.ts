import { resolve } from 'node:path';
import { sessionKeyFrom } from '../features/auth/sessions.server.ts';
import { fubClient } from '../features/crm/fub-client.server.ts';
import { hookBuilder, siteBuilds } from '../features/site-build/site-build.server.ts';
import { createOutboxProvider } from '../features/email/email.server.ts';
import { settingsAwareProvider } from '../features/email/providers/choose-provider.server.ts';
import type { AppDeps } from './app.ts';
import type { Db } from './db.ts';
import { isProduction, siteUrl, type Env } from './env.ts';
import { featuredAgentFrom } from './featured-agent.ts';
import { secretFrom } from './secrets.ts';

/**
 * The API's dependencies as the environment configures them; the Netlify Function, the local
 * servers and the benchmark all build the app from this, adding only what is theirs.
 */
export function appDepsFrom(env: Env, db: Db): AppDeps & Required<Pick<AppDeps, 'siteUrl' | 'email' | 'auth' | 'crm'>> {
  return {
    db,
    siteUrl: siteUrl(env),
    email: {
      // Mailgun (admin settings) > Resend (RESEND_API_KEY) > the outbox, chosen at each send.
      // Locally the outbox also keeps each message as a file under DATA_DIR/outbox.
      provider: settingsAwareProvider(
        db,
        env,
        createOutboxProvider(undefined, isProduction(env) ? undefined : resolve(env.DATA_DIR, 'outbox')),
        { encryptionKey: secretFrom(env, 'ENCRYPTION_KEY') },
      ),
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
    crm: { client: fubClient(env.FUB_API_URL), secret: () => secretFrom(env, 'ENCRYPTION_KEY') },
    featuredAgent: featuredAgentFrom(env),
    // Through Netlify's build hook when there is one; the local server adds its own builds (serve.ts).
    siteBuilds: env.BUILD_HOOK_URL ? siteBuilds(db, hookBuilder(env.BUILD_HOOK_URL)) : undefined,
  };
}
