import { Hono } from 'hono';
import { agentRoutes } from '../features/agents/agents.server.ts';
import { emailRoutes } from '../features/email/email-routes.server.ts';
import {
  deliverQueued,
  type EmailAddress,
  type EmailProvider,
  type MailContext,
} from '../features/email/email.server.ts';
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
  /**
   * Sends the e-mail a request queued right after its response. Without it, queued e-mail waits
   * for the scheduled deliverer (netlify/functions/deliver-email.mts).
   */
  email?: { provider: EmailProvider; from: EmailAddress };
  /** Origin of links in e-mails (https://example.com); defaults to the request's origin. */
  siteUrl?: string;
  /**
   * Keeps work going after the response is sent (Netlify: context.waitUntil). Default: let it run
   * and log its failure.
   */
  runAfterResponse?: (task: Promise<unknown>) => void;
}

/** The whole API: every /api/* route, served by the Netlify Function and by the local server. */
export function createApi({
  db,
  logError = defaultLogError,
  email,
  siteUrl,
  runAfterResponse = defaultRunAfterResponse,
}: AppDeps): Hono {
  const mail: MailContext = {
    siteUrl: (request) => (siteUrl ?? new URL(request.url).origin).replace(/\/+$/, ''),
    deliverSoon(ids, request) {
      if (!email || ids.length === 0) return;
      runAfterResponse(
        deliverQueued(db, email.provider, { ids, from: email.from }).catch((error: unknown) =>
          logError(error, request),
        ),
      );
    },
  };
  const api = new Hono().basePath('/api');
  api.use(async (c, next) => {
    await next();
    for (const [name, value] of API_HEADERS) c.header(name, value);
  });
  api.route('/', settingsRoutes(db));
  api.route('/', agentRoutes(db));
  api.route('/', estimateRoutes(db));
  api.route('/', leadRoutes(db, mail));
  api.route('/', emailRoutes(db, mail));
  api.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
  api.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error);
    logError(error, c.req.raw);
    return errorResponse(c, new HttpError(500, 'Something went wrong on our side. Please try again.'));
  });
  return api;
}

function defaultRunAfterResponse(task: Promise<unknown>): void {
  void task.catch((error: unknown) => console.error('[api] work after the response failed:', error));
}

function defaultLogError(error: unknown, request: Request): void {
  console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed:`, error);
}
