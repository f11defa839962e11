import { resolve } from 'node:path';
import { createOutboxProvider, unconfiguredProvider } from '../../features/email/public/email.server.ts';
import { chooseProvider, settingsAwareProvider } from '../../features/email/providers/choose-provider.server.ts';
import type { AppDeps } from '../api-app.ts';
import type { Db, Queryable } from '../../platform/db.ts';
import { isPreview, isProduction, type Env } from '../../platform/env.ts';
import { secretFrom } from '../../platform/secrets.ts';

/**
 * Production (not a preview) sends through Mailgun or Resend only: the outbox would leave account
 * mail unsent and, as it printed the body, put live links in the log (security audit, finding 9).
 */
const needsRealProvider = (env: Env): boolean => isProduction(env) && !isPreview(env);

/**
 * Sending e-mail as the environment configures it. A deploy preview or branch deploy (decision
 * 0030) only ever writes to the outbox (the log), whatever providers its database or variables name.
 * Production without a provider refuses each send and the message stays queued (EmailNotConfigured).
 */
export const emailFrom = (env: Env, db: Db): Required<AppDeps>['email'] => {
  // Locally the outbox also keeps each message as a file under DATA_DIR/outbox.
  const outbox = createOutboxProvider(undefined, isProduction(env) ? undefined : resolve(env.DATA_DIR, 'outbox'));
  const fallback = needsRealProvider(env) ? unconfiguredProvider() : outbox;
  return {
    // Mailgun (admin settings) > Resend (RESEND_API_KEY) > the outbox (never in production), chosen at each send.
    provider: isPreview(env)
      ? outbox
      : settingsAwareProvider(db, env, fallback, { encryptionKey: secretFrom(env, 'ENCRYPTION_KEY') }),
    from: { name: env.EMAIL_FROM_NAME, email: env.EMAIL_FROM_ADDRESS },
  };
};

/**
 * Why production cannot start: no e-mail provider (neither RESEND_API_KEY nor complete Mailgun
 * settings in the database), or Mailgun settings that ENCRYPTION_KEY cannot read. Undefined when
 * it can, and always outside production. One round trip, none when RESEND_API_KEY is set.
 */
export async function emailProviderProblem(db: Queryable, env: Env): Promise<string | undefined> {
  if (!needsRealProvider(env) || env.RESEND_API_KEY) return undefined;
  try {
    if ((await chooseProvider(db, env)).kind !== 'outbox') return undefined;
  } catch (error) {
    return `The Mailgun settings could not be read (${error instanceof Error ? error.message : String(error)}).`;
  }
  return (
    'No e-mail provider in production: set RESEND_API_KEY, or save complete Mailgun settings (Admin → ' +
    'Settings; a site that will send through Mailgun starts with RESEND_API_KEY until then). Without one, ' +
    'no verification or reset e-mail could be sent.'
  );
}
