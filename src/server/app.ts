import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { agentRoutes } from '../features/agents/agents.server.ts';
import { estimateRoutes } from '../features/estimate/estimate.server.ts';
import { leadRoutes } from '../features/leads/leads.server.ts';
import { settingsRoutes } from '../features/settings/settings.server.ts';
import type { Db } from './db.ts';
import { errorResponse, HttpError, MAX_JSON_BYTES } from './http.ts';

export interface AppDeps {
  db: Db;
  /** Where unexpected errors go; defaults to console.error. */
  logError?: (error: unknown, request: Request) => void;
}

/** The whole API: every /api/* route, served by the Netlify Function and by the local server. */
export function createApi({ db, logError = defaultLogError }: AppDeps): Hono {
  const api = new Hono().basePath('/api');
  api.use(secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
  api.use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  api.use(
    bodyLimit({
      maxSize: MAX_JSON_BYTES,
      onError: (c) =>
        errorResponse(c, new HttpError(413, `The request body is larger than ${MAX_JSON_BYTES / 1024} KB`)),
    }),
  );
  api.route('/', settingsRoutes(db));
  api.route('/', agentRoutes(db));
  api.route('/', estimateRoutes(db));
  api.route('/', leadRoutes(db));
  api.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
  api.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error);
    logError(error, c.req.raw);
    return errorResponse(c, new HttpError(500, 'Something went wrong on our side. Please try again.'));
  });
  return api;
}

function defaultLogError(error: unknown, request: Request): void {
  console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed:`, error);
}
