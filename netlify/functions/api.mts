import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config, Context } from '@netlify/functions';
import { createApi } from '../../src/server/app.ts';
import { appDepsFrom } from '../../src/server/compose.ts';
import { openDatabase } from '../../src/server/database.ts';
import { perInstance } from '../../src/server/function-instance.ts';

/** The Netlify context of the request being served, so work after the response can use its waitUntil. */
const requestContext = new AsyncLocalStorage<Context>();

// Built once per instance, at its first request (the deploy context comes with it): production
// refuses to start without what it needs, a preview never reaches production's database or providers.
const apiOf = perInstance(async (env) =>
  createApi({
    ...appDepsFrom(env, await openDatabase(env)),
    runAfterResponse(task) {
      const context = requestContext.getStore();
      const logged = task.catch((error: unknown) => console.error('[api] work after the response failed:', error));
      // Netlify keeps the function alive until the task settles, after the response has gone out.
      if (context) context.waitUntil(logged);
    },
    // Netlify's idea of the client (it sets this header itself; a client cannot choose it).
    clientIp: (request) =>
      requestContext.getStore()?.ip ?? request.headers.get('x-nf-client-connection-ip') ?? undefined,
  }),
);

// Netlify Functions (v2) take a web Request and want a Response: exactly Hono's fetch.
export default (request: Request, context: Context): Promise<Response> =>
  requestContext.run(context, async () => (await apiOf(context)).fetch(request));

// Literal paths: Netlify reads this config without running the code. '/sold-api.php' is LEGACY_SOLD_PATH,
// '/town-logo-api.php' LEGACY_TOWN_LOGO_PATH;
// '/r/*', '/estimate/*' and '/offers/*' are SHELL_PAGE_PATHS (src/features/site/shell-pages.server.ts): a function
// path runs before the rules of _redirects, so these pages can answer 404 and carry the agent's name.
// preferStatic: a file at the path (the shells /r/, /estimate/ and /offers/ themselves) is served as a file.
export const config: Config = {
  path: ['/api/*', '/sold-api.php', '/town-logo-api.php', '/r/*', '/estimate/*', '/offers/*'],
  preferStatic: true,
};
