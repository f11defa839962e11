import { resolve } from 'node:path';
import { createOutboxProvider } from '../../features/email/email.server.ts';
import { settingsAwareProvider } from '../../features/email/providers/choose-provider.server.ts';
import type { AppDeps } from '../api-app.ts';
import type { Db } from '../db.ts';
import { isPreview, isProduction, type Env } from '../env.ts';
import { secretFrom } from '../secrets.ts';

/**
 * Sending e-mail as the environment configures it. A deploy preview or branch deploy (decision
 * 0030) only ever writes to the outbox (the log), whatever providers its database or variables name.
 */
export const emailFrom = (env: Env, db: Db): Required<AppDeps>['email'] => {
  // Locally the outbox also keeps each message as a file under DATA_DIR/outbox.
  const outbox = createOutboxProvider(undefined, isProduction(env) ? undefined : resolve(env.DATA_DIR, 'outbox'));
  return {
    // Mailgun (admin settings) > Resend (RESEND_API_KEY) > the outbox, chosen at each send.
    provider: isPreview(env)
      ? outbox
      : settingsAwareProvider(db, env, outbox, { encryptionKey: secretFrom(env, 'ENCRYPTION_KEY') }),
    from: { name: env.EMAIL_FROM_NAME, email: env.EMAIL_FROM_ADDRESS },
  };
};
