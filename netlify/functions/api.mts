import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config, Context } from '@netlify/functions';
import { createApi } from '../../src/server/app.ts';
import { appDepsFrom } from '../../src/server/compose.ts';
import { openDatabase } from '../../src/server/database.ts';
import { backgroundSecret, netlifyBackgroundStarter } from '../../src/server/background-work.ts';
import { parseEnv } from '../../src/server/env.ts';
import { secretFrom } from '../../src/server/secrets.ts';

// Parsed once per instance: production refuses to start without what it needs.
const env = parseEnv();
const db = await openDatabase(env);

/** Sent to the background function, which runs only for it (src/server/background-work.ts). */
const backgroundKey = backgroundSecret(secretFrom(env, 'SESSION_SECRET'));

/** The Netlify context of the request being served, so work after the response can use its waitUntil. */
const requestContext = new AsyncLocalStorage<Context>();

const api = createApi({
  ...appDepsFrom(env, db),
  runAfterResponse(task) {
    const context = requestContext.getStore();
    const logged = task.catch((error: unknown) => console.error('[api] work after the response failed:', error));
    // Netlify keeps the function alive until the task settles, after the response has gone out.
    if (context) context.waitUntil(logged);
  },
  // Market-data imports run in the background function (15 minutes), not in this one (60 s), of the
  // deploy that answered the request: a deploy preview's own, not the production site's URL.
  startBackgroundWork(job) {
    const origin = requestContext.getStore()?.url.origin ?? env.URL;
    if (!origin) return Promise.reject(new Error('no address to reach the background function at'));
    return netlifyBackgroundStarter(origin, backgroundKey)(job);
  },
  // Netlify's idea of the client (it sets this header itself; a client cannot choose it).
  clientIp: (request) => requestContext.getStore()?.ip ?? request.headers.get('x-nf-client-connection-ip') ?? undefined,
});

// Netlify Functions (v2) take a web Request and want a Response: exactly Hono's fetch.
export default (request: Request, context: Context): Response | Promise<Response> =>
  requestContext.run(context, () => api.fetch(request));

// Literal paths: Netlify reads this config without running the code. '/sold-api.php' is LEGACY_SOLD_PATH,
// '/town-logo-api.php' LEGACY_TOWN_LOGO_PATH;
// '/r/*', '/estimate/*' and '/offers/*' are SHELL_PAGE_PATHS (src/features/site/shell-pages.server.ts): a function
// path runs before the rules of _redirects, so these pages can answer 404 and carry the agent's name.
// preferStatic: a file at the path (the shells /r/, /estimate/ and /offers/ themselves) is served as a file.
export const config: Config = {
  path: ['/api/*', '/sold-api.php', '/town-logo-api.php', '/r/*', '/estimate/*', '/offers/*'],
  preferStatic: true,
};
