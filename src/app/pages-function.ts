import type { Context } from '@netlify/functions';
import { Hono } from 'hono';
import { shellPageRoutes } from './shell-pages.server.ts';
import { openDatabase } from '../platform/database.ts';
import { siteUrl } from '../platform/env.ts';
import { perInstance } from '../platform/function-instance.ts';
import { errorResponse, HttpError } from '../platform/http.ts';
import { siteOriginOf } from '../platform/site-origin.ts';

/**
 * The pages a function renders (/r/{slug}, /estimate/{uuid}, /offers/{uuid}: SHELL_PAGE_PATHS) as a
 * Netlify function of their own (decision 0026): React's server renderer goes into this zip and
 * loads at this function's cold starts, not at every API call's.
 */
export function pagesFunction(): (request: Request, context: Context) => Promise<Response> {
  // Built once per instance, at its first request, as the API's functions are (api-function.ts).
  const pagesOf = perInstance(async (env) => {
    const app = new Hono();
    app.route(
      '/',
      shellPageRoutes({
        db: await openDatabase(env),
        siteUrl: siteOriginOf(siteUrl(env)),
        logError: (error, request) => console.error(`[pages] ${new URL(request.url).pathname} failed:`, error),
      }),
    );
    app.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
    return app;
  });
  return async (request, context) => (await pagesOf(context)).fetch(request);
}
