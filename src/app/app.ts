import { Hono } from 'hono';
import { shellPageRoutes } from './shell-pages.server.ts';
import { createApiApp, defaultLogError, type AppDeps } from './api-app.ts';
import { errorResponse, HttpError } from '../platform/http.ts';
import { siteOriginOf } from '../platform/site-origin.ts';

/**
 * The whole app the local server, the dev server and the tests run: the API (src/app/api-app.ts)
 * and the pages the function renders (/r/, /estimate/, /offers/). Deployed, two functions serve
 * them apart (decision 0026): `api` carries no React, `pages` no API.
 */
export function createApi(deps: AppDeps): Hono {
  const app = new Hono();
  app.route('/', shellPageRoutesOf(deps));
  app.route('/', createApiApp(deps));
  // A mounted app's notFound is not consulted: the outer one answers unknown paths.
  app.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
  return app;
}

/** The pages the function renders, with what they need of the app's dependencies. */
export function shellPageRoutesOf({ db, fetchSite, siteUrl, logError = defaultLogError }: AppDeps): Hono {
  return shellPageRoutes({ db, fetchSite, siteUrl: siteOriginOf(siteUrl), logError });
}
