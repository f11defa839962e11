import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '@netlify/functions';
import { createApiApp } from './api-app.ts';
import { backgroundSecret, netlifyBackgroundStarter } from '../platform/background-work.ts';
import { appDepsFrom } from './compose.ts';
import { openDatabase } from '../platform/database.ts';
import { perInstance } from '../platform/function-instance.ts';
import { secretFrom } from '../platform/secrets.ts';

/**
 * The API app as a Netlify function (v2: a web Request in, a Response out: exactly Hono's fetch).
 * Two functions serve it (decision 0026): `api` answers every path but the image uploads, and its
 * zip carries no sharp; `api-images` answers the paths that re-encode images
 * (IMAGE_FUNCTION_PATHS). Both run the same app, so a route answers the same from either.
 */
export function apiFunction(name: string): (request: Request, context: Context) => Promise<Response> {
  /** The Netlify context of the request being served, so work after the response can use its waitUntil. */
  const requestContext = new AsyncLocalStorage<Context>();

  // Built once per instance, at its first request (the deploy context comes with it): production
  // refuses to start without what it needs, a preview never reaches production's database or providers.
  const apiOf = perInstance(async (env) => {
    /** Sent to the background function, which runs only for it (src/platform/background-work.ts). */
    const backgroundKey = backgroundSecret(secretFrom(env, 'SESSION_SECRET'));
    return createApiApp({
      ...appDepsFrom(env, await openDatabase(env)),
      runAfterResponse(task) {
        const context = requestContext.getStore();
        const logged = task.catch((error: unknown) =>
          console.error(`[${name}] work after the response failed:`, error),
        );
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
      clientIp: (request) =>
        requestContext.getStore()?.ip ?? request.headers.get('x-nf-client-connection-ip') ?? undefined,
    });
  });

  return (request, context) => requestContext.run(context, async () => (await apiOf(context)).fetch(request));
}

/**
 * The paths whose routes re-encode an uploaded image with sharp (every operation of the OpenAPI
 * document with `uploads`, and the legacy town-logo path): the `api-images` function claims them and
 * `api` excludes them. netlify/functions/api.mts and api-images.mts repeat them as literals (Netlify
 * reads a function's config without running it); src/app/api-function.test.ts holds the three equal.
 */
export const IMAGE_FUNCTION_PATHS = [
  '/api/agents/profile',
  '/api/upload/*',
  '/api/images/upload',
  '/town-logo-api.php',
] as const;
