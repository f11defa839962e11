import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { adminOverviewRoutes } from '../features/admin/admin-overview.server.ts';
import { adminAgentRoutes } from '../features/admin/admin-agents.server.ts';
import { agentRoutes } from '../features/agents/agents.server.ts';
import { profileRoutes } from '../features/agents/profile.server.ts';
import { authRoutes } from '../features/auth/auth-routes.server.ts';
import { accessControl } from '../features/auth/access.server.ts';
import { csrfProtection } from '../features/auth/csrf.server.ts';
import { overviewRoutes } from '../features/dashboard/overview.server.ts';
import type { CrmContext } from '../features/crm/crm-sync.server.ts';
import { fubClient } from '../features/crm/fub-client.server.ts';
import { fubIntegrationRoutes } from '../features/crm/fub-integration.server.ts';
import { leadSyncRoutes } from '../features/crm/lead-sync.server.ts';
import { WorkersBusy } from './workers-busy.server.ts';
import { TooManyAttempts } from '../features/auth/rate-limit.server.ts';
import type { AuthConfig } from '../features/auth/sessions.server.ts';
import { emailRoutes } from '../features/email/email-routes.server.ts';
import { emailSettingsRoutes } from '../features/email/email-settings-routes.server.ts';
import {
  deliverQueued,
  type EmailAddress,
  type EmailProvider,
  type MailContext,
} from '../features/email/email.server.ts';
import { unsubscribeLinks, unsubscribeRoutes, unsubscribeSigner } from '../features/email/unsubscribe.server.ts';
import { estimateRoutes } from '../features/estimate/estimate.server.ts';
import { estimateAttachments, estimatePdfRoutes } from '../features/net-sheet/estimate-pdf.server.ts';
import { imageRoutes } from '../features/images/images.server.ts';
import { showcaseRoutes } from '../features/showcase/showcase.server.ts';
import { leadExportLimits, leadExportRoutes } from '../features/leads/lead-export.server.ts';
import { adminLeadRoutes } from '../features/admin/admin-leads.server.ts';
import { siteContentRoutes } from '../features/content/site-content.server.ts';
import { feeTableRoutes } from '../features/net-sheet/fee-table.server.ts';
import { netSheetRoutes } from '../features/net-sheet/net-sheet.server.ts';
import { leadRoutes } from '../features/leads/leads.server.ts';
import { dataAdminRoutes } from '../features/market/data-admin.server.ts';
import { marketRoutes } from '../features/market/market.server.ts';
import { planFromEnv, type RefreshPlan } from '../features/market/refresh.server.ts';
import { agentSettingsRoutes } from '../features/settings/agent-settings.server.ts';
import { settingsRoutes } from '../features/settings/settings.server.ts';
import { seoSettingsRoutes } from '../features/seo/seo-settings.server.ts';
import { siteImageRoutes } from '../features/site/site-images.server.ts';
import { siteBuildRoutes, type SiteBuilds } from '../features/site-build/site-build.server.ts';
import { DatabaseUnavailable, type Db } from './db.ts';
import { DEFAULT_FUB_API_URL, parseEnv } from './env.ts';
import { defaultEdgePurger, purgeAfterWrite, type EdgePurger } from './edge-cache.ts';
import { featuredAgentFrom, type FeaturedAgent } from './featured-agent.ts';
import { errorResponse, HttpError } from './http.ts';
import { runBackgroundJob } from './background-job.ts';
import { inProcessBackgroundStarter, type StartBackgroundWork } from './background-work.ts';
import { openApiRoutes } from './openapi.server.ts';
import { ROUTE_ACCESS } from './route-access.ts';
import { siteOriginOf } from './site-origin.ts';

/**
 * On every API answer: JSON that is never cached (but the public reads cacheAtEdge marks), sniffed, framed or read cross-origin. A route
 * that sets one of these itself keeps its own (images are cached for a year).
 */
const API_HEADERS = [
  ['Cache-Control', 'no-store'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  // public/_headers gives these to pages only: Netlify applies it to static files, not to functions.
  ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
] as const;

export interface AppDeps {
  db: Db;
  /** Where unexpected errors go; defaults to console.error. */
  logError?: (error: unknown, request: Request) => void;
  /**
   * Sends the e-mail a request queued right after its response. Without it, queued e-mail waits
   * for the scheduled deliverer (netlify/functions/deliver-email.mts).
   */
  email?: { provider: EmailProvider & { refresh?(): void }; from: EmailAddress };
  /** Origin of links in e-mails (https://example.com); defaults to the request's origin. */
  siteUrl?: string;
  /**
   * Keeps work going after the response is sent (Netlify: context.waitUntil). Default: let it run
   * and log its failure.
   */
  runAfterResponse?: (task: Promise<unknown>) => void;
  /**
   * Signs and reads session cookies (built from SESSION_SECRET by compose.ts). Without it the app
   * signs with a random key of its own: sessions work but end when the process does.
   */
  auth?: AuthConfig;
  /**
   * The client's IP address, for per-IP rate limits. Netlify: its context.ip
   * (netlify/functions/api.mts). Default: the socket's remote address when @hono/node-server serves
   * the app, else "unknown". Loopback and unknown clients get only the per-e-mail limits (see
   * isLocalClient in src/features/auth/auth-routes.server.ts).
   */
  clientIp?: (request: Request) => string | undefined;
  /**
   * New-lead notices one agent address receives an hour at most (LEAD_NOTICES_PER_HOUR); beyond it
   * leads are saved unannounced. Default 20 (src/features/leads/lead-limits.server.ts).
   */
  leadNoticesPerHour?: number;
  /**
   * Leads a page of the CSV exports holds (LEAD_EXPORT_PAGE_ROWS): fewer than the platform's bound
   * (decision 0029) only so that tests export a few leads in several pages. Default: the bound.
   */
  leadExportPageRows?: number;
  /**
   * Fetches a file of the built site as visitors get it: the shells that answer /r/{slug} and
   * /estimate/{uuid} (shell-pages.server.ts). Default: over HTTP from the request's own origin (on
   * Netlify, the CDN); the local site server (site-server.ts) serves it from dist/ directly.
   */
  fetchSite?: (url: URL) => Promise<Response>;
  /**
   * Lead sync to Follow Up Boss (FUB_API_URL; keys encrypted with ENCRYPTION_KEY). Default: the real
   * API and a random key of the app's own, as for sessions.
   */
  crm?: CrmContext;
  /** How long a visitor's lead request waits for its CRM sync (default 3 s). */
  crmWaitMs?: number;
  /** The featured agent, whom admins cannot delete (default: the FEATURED_AGENT_* defaults). */
  featuredAgent?: Pick<FeaturedAgent, 'slug' | 'email'>;
  /**
   * Rebuilds of the static site (BUILD_HOOK_URL, or the local server's own builds). Without it the
   * admin sees the build state but Rebuild now answers 409.
   */
  siteBuilds?: SiteBuilds;
  /** The market-data feeds /admin/data's Refresh now reads (default: planFromEnv of the environment). */
  marketFeeds?: () => RefreshPlan;
  /**
   * Starts the market-data imports off the request (src/server/background-work.ts): on Netlify, the
   * background function. Default: the same job in this process, through runAfterResponse.
   */
  startBackgroundWork?: StartBackgroundWork;
  /**
   * Purges the CDN's cached public answers by tag after a write changed them (src/server/edge-cache.ts).
   * Default: Netlify's purgeCache when running on Netlify, else nothing.
   */
  purgeCache?: EdgePurger;
}

/**
 * The API: every /api/* route and the old product's API paths, served by the `api` and `api-images`
 * functions and (with the pages, src/server/app.ts) by the local server. No page is rendered here,
 * so the API's functions load no React (decision 0026).
 */
export function createApiApp({
  db,
  logError = defaultLogError,
  email,
  siteUrl,
  runAfterResponse = defaultRunAfterResponse,
  auth = { sessionKey: randomBytes(32), secureCookies: false },
  clientIp,
  leadNoticesPerHour,
  leadExportPageRows,
  crm = { client: fubClient(DEFAULT_FUB_API_URL), secret: randomBytes(32).toString('hex') },
  crmWaitMs,
  featuredAgent = featuredAgentFrom(parseEnv({})),
  siteBuilds,
  marketFeeds = () => planFromEnv(parseEnv()),
  purgeCache = defaultEdgePurger(),
  startBackgroundWork,
}: AppDeps): Hono {
  const purge = purgeAfterWrite(purgeCache, logError);
  const startBackground =
    startBackgroundWork ??
    inProcessBackgroundStarter(
      (job) =>
        runBackgroundJob(db, job, {
          feeds: marketFeeds,
          // The data is saved either way; a failed purge leaves the CDN's copies to their TTL (decision 0020).
          purge: (tags) => purgeCache(tags).catch((error: unknown) => console.error('[imports] purge failed:', error)),
        }),
      runAfterResponse,
    );
  // Unsubscribe links are signed with a key derived from the session key (SESSION_SECRET).
  const signer = unsubscribeSigner(auth.sessionKey);
  const mail: MailContext = {
    siteUrl: siteOriginOf(siteUrl),
    deliverSoon(ids, request) {
      if (!email || ids.length === 0) return;
      const unsubscribe = unsubscribeLinks(mail.siteUrl(request), signer);
      runAfterResponse(
        deliverQueued(db, email.provider, {
          ids,
          from: email.from,
          unsubscribe,
          attachments: estimateAttachments(db, mail.siteUrl(request)),
          attachmentError: (error) => logError(error, request),
        }).catch((error: unknown) => logError(error, request)),
      );
    },
  };
  const api = new Hono().basePath('/api');
  api.use(async (c, next) => {
    await next();
    for (const [name, value] of API_HEADERS) if (!c.res.headers.has(name)) c.header(name, value);
  });
  // Before every route: a cross-site POST with the session cookie changes nothing.
  api.use(csrfProtection({ trustedOrigins: siteUrl ? [new URL(siteUrl).origin] : [] }));
  // Then who may call what (src/server/route-access.ts): signed-out calls to agent routes are 401 here.
  api.use(accessControl(ROUTE_ACCESS, auth));
  const clientAddress = (c: Context) => clientIp?.(c.req.raw) ?? socketAddress(c);
  api.route('/', authRoutes({ db, mail, config: auth, clientIp: clientAddress }));
  api.route('/', settingsRoutes(db));
  api.route('/', agentRoutes(db));
  api.route('/', overviewRoutes(db));
  api.route('/', adminOverviewRoutes(db));
  api.route('/', agentSettingsRoutes(db, purge));
  api.route('/', profileRoutes(db, purge, mail));
  // Before imageRoutes: its /images/:file would take /images/list and the other showcase image paths.
  api.route('/', showcaseRoutes(db, purge));
  api.route('/', imageRoutes(db));
  // Before the estimate routes: their `/estimates/:uuid` would take `/estimates/reverse` (405).
  api.route('/', netSheetRoutes(db, clientAddress));
  api.route('/', estimateRoutes(db, clientAddress));
  api.route(
    '/',
    estimatePdfRoutes(db, (request) => mail.siteUrl(request), clientAddress),
  );
  api.route(
    '/',
    leadSyncRoutes(db, crm, (request) => mail.siteUrl(request)),
  );
  api.route(
    '/',
    leadRoutes(
      db,
      mail,
      clientAddress,
      { noticesPerHour: leadNoticesPerHour, crm, runAfterResponse, crmWaitMs },
      logError,
    ),
  );
  api.route('/', fubIntegrationRoutes(db, crm));
  const exportLimits = leadExportLimits(leadExportPageRows);
  api.route('/', leadExportRoutes(db, exportLimits));
  api.route('/', adminLeadRoutes(db, exportLimits));
  api.route('/', emailRoutes(db, mail, clientAddress));
  api.route('/', unsubscribeRoutes(db, signer, clientAddress));
  // The Mailgun key is encrypted with ENCRYPTION_KEY, the secret the CRM keys use too.
  api.route(
    '/',
    emailSettingsRoutes(db, {
      secret: crm.secret,
      email,
      unsubscribe: (request) => unsubscribeLinks(mail.siteUrl(request), signer),
    }),
  );
  api.route('/', seoSettingsRoutes(db));
  api.route('/', siteImageRoutes(db, purge));
  api.route('/', siteContentRoutes(db));
  api.route('/', feeTableRoutes(db));
  api.route('/', marketRoutes(db));
  api.route('/', adminAgentRoutes({ db, mail, featured: featuredAgent, purge }));
  api.route('/', siteBuildRoutes({ db, builds: siteBuilds, runAfterResponse }));
  api.route('/', dataAdminRoutes({ db, feeds: marketFeeds, startImports: () => startBackground('imports') }));
  api.route('/', openApiRoutes());
  api.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
  api.onError((error, c) => {
    if (error instanceof TooManyAttempts || error instanceof WorkersBusy) {
      c.header('Retry-After', String(error.retryAfterSeconds));
    }
    if (error instanceof HttpError) return errorResponse(c, error);
    logError(error, c.req.raw);
    if (error instanceof DatabaseUnavailable) {
      // A passing outage: say so, and when to try again, rather than a failure of ours.
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return errorResponse(c, new HttpError(503, DATABASE_UNAVAILABLE_MESSAGE));
    }
    return errorResponse(c, new HttpError(500, 'Something went wrong on our side. Please try again.'));
  });
  // The old product's sold-homes address, kept working: /sold-api.php?town= is /api/sold?town=.
  const app = new Hono();
  app.get(LEGACY_SOLD_PATH, (c) => {
    const url = new URL(c.req.url);
    url.pathname = '/api/sold';
    return api.fetch(new Request(url, c.req.raw), c.env);
  });
  // The old product's town-page logo upload: /town-logo-api.php is /api/upload/town-logo.
  app.all(LEGACY_TOWN_LOGO_PATH, (c) => {
    const url = new URL(c.req.url);
    url.pathname = '/api/upload/town-logo';
    return api.fetch(new Request(url, c.req.raw), c.env);
  });
  app.route('/', api);
  // A mounted app's notFound is not consulted: the outer one answers unknown /api paths.
  app.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
  return app;
}

/** The answer while the database cannot be reached (503). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'We could not reach our database just now. Please try again in a moment.';
/** A dropped connection is replaced at once and a restarting database is back within seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 10;

/** Served by the API besides /api/* (the Netlify Function claims it too). */
export const LEGACY_SOLD_PATH = '/sold-api.php';
export const LEGACY_TOWN_LOGO_PATH = '/town-logo-api.php';

/** What @hono/node-server passes as env: the request's IncomingMessage, read by its socket's address. */
const nodeServerEnv = z.object({
  incoming: z.object({ socket: z.object({ remoteAddress: z.string().optional() }) }),
});

/**
 * The remote address of the socket when @hono/node-server serves the app. Read by shape, not by
 * `instanceof IncomingMessage`: importing node:http would load it at every function's cold start.
 */
function socketAddress(c: Context): string {
  const parsed = nodeServerEnv.safeParse(c.env);
  return (parsed.success ? parsed.data.incoming.socket.remoteAddress : undefined) ?? 'unknown';
}

function defaultRunAfterResponse(task: Promise<unknown>): void {
  void task.catch((error: unknown) => console.error('[api] work after the response failed:', error));
}

export function defaultLogError(error: unknown, request: Request): void {
  console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed:`, error);
}
