import { resolve } from 'node:path';
import { createOutboxProvider } from '../features/email/email.server.ts';
import type { AppDeps } from './app.ts';
import type { Db } from './db.ts';
import { isProduction, siteUrl, type Env } from './env.ts';

/**
 * The API's dependencies as the environment configures them; the Netlify Function, the local
 * servers and the benchmark all build the app from this, adding only what is theirs.
 */
export function appDepsFrom(env: Env, db: Db): AppDeps {
  return {
    db,
    siteUrl: siteUrl(env),
    email: {
      // Locally the outbox also keeps each message as a file under DATA_DIR/outbox.
      provider: createOutboxProvider(undefined, isProduction(env) ? undefined : resolve(env.DATA_DIR, 'outbox')),
      from: { name: env.EMAIL_FROM_NAME, email: env.EMAIL_FROM_ADDRESS },
    },
  };
}
