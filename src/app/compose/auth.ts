import { sessionKeyFrom, type AuthConfig } from '../../features/auth/public/sessions.server.ts';
import { isProduction, type Env } from '../../platform/env.ts';
import { secretFrom } from '../../platform/secrets.ts';

/** Session signing as the environment configures it. */
export const authFrom = (env: Env): AuthConfig => ({
  // Production refuses to start without SESSION_SECRET; locally one is generated under DATA_DIR.
  sessionKey: sessionKeyFrom(secretFrom(env, 'SESSION_SECRET')),
  secureCookies: isProduction(env),
});
