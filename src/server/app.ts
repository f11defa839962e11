import { Hono } from 'hono';
import { agentRoutes } from '../features/agents/agents.server.ts';
import { estimateRoutes } from '../features/estimate/estimate.server.ts';
import { leadRoutes } from '../features/leads/leads.server.ts';
import { settingsRoutes } from '../features/settings/settings.server.ts';
import type { Db } from './db.ts';
import { errorResponse, HttpError } from './http.ts';

/** On every API answer: JSON that is never cached, sniffed, framed or read cross-origin. */
const API_HEADERS = [
  ['Cache-Control', 'no-store'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
] as const;

export interface AppDeps {
  db: Db;
  /** Where unexpected errors go; defaults to console.error. */
  logError?: (error: unknown, request: Request) => void;
}

/** The whole API: every /api/* route, served by the Netlify Function and by the local server. */
export function createApi({ db, logError = defaultLogError }: AppDeps): Hono {
  const api = new Hono().basePath('/api');
  api.use(async (c, next) => {
    await next();
    for (const [name, value] of API_HEADERS) c.header(name, value);
  });
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
