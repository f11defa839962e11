import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import { accessControl } from '../features/auth/public/access.server.ts';
import { csrfProtection } from '../features/auth/csrf.server.ts';
import type { CrmContext } from '../features/crm/public/crm-sync.server.ts';
import { WorkersBusy } from '../platform/workers-busy.server.ts';
import { TooManyAttempts } from '../platform/rate-limit.server.ts';
import type { AuthConfig } from '../features/auth/public/sessions.server.ts';
import type { EmailAddress, EmailProvider, MailContext } from '../features/email/public/email.server.ts';
import type { RefreshPlan } from '../features/market/feeds.server.ts';
import type { SiteBuilds } from '../features/site-build/site-build.server.ts';
import type { WebhookContext } from '../features/webhooks/public/webhook-deliveries.server.ts';
import { API_GROUPS, type GroupDeps, type GroupName } from './api-groups.server.ts';
import { API_ROUTES } from './api-routes.generated.ts';
import { DatabaseUnavailable, type Db } from '../platform/db.ts';
import { DEFAULT_FUB_API_URL, parseEnv } from '../platform/env.ts';
import { defaultEdgePurger, purgeAfterWrite, type EdgePurger } from '../platform/edge-cache.ts';
import { featuredAgentFrom, type FeaturedAgent } from '../platform/featured-agent.ts';
import { errorResponse, HttpError } from '../platform/http.ts';
import { inProcessBackgroundStarter, type StartBackgroundWork } from '../platform/background-work.ts';
import { onFirstCall } from '../platform/on-first-call.ts';
import { ROUTE_ACCESS } from './route-access.ts';
import { siteOriginOf } from '../platform/site-origin.ts';

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
   * isLocalClient in src/platform/per-ip.server.ts).
   */
  clientIp?: (request: Request) => string | undefined;
  /**
   * New-lead notices one agent address receives an hour at most (LEAD_NOTICES_PER_HOUR); beyond it
   * leads are saved unannounced. Default 20 (src/features/lead-origin/public/lead-limits.server.ts).
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
   * Starts the market-data imports off the request (src/platform/background-work.ts): on Netlify, the
   * background function. Default: the same job in this process, through runAfterResponse.
   */
  startBackgroundWork?: StartBackgroundWork;
  /**
   * Purges the CDN's cached public answers by tag after a write changed them (src/platform/edge-cache.ts).
   * Default: Netlify's purgeCache when running on Netlify, else nothing.
   */
  purgeCache?: EdgePurger;
  /** Production (APP_ENV=production): refuses the admin's `as_of` of the digest run. Default false. */
  production?: boolean;
  /**
   * Outgoing webhooks (src/features/webhooks): whether loopback receivers pass the address guard
   * (default: outside production; compose.ts: never on Netlify), the key their signing secrets are
   * encrypted with (default: the CRM's), a resolver and a timeout for tests.
   */
  webhooks?: Partial<WebhookContext>;
}

/** What the route groups are built from: `deps` with every default filled in. */
export function groupDepsFor({
  db,
  logError = defaultLogError,
  email,
  siteUrl,
  runAfterResponse = defaultRunAfterResponse,
  auth = { sessionKey: randomBytes(32), secureCookies: false },
  clientIp,
  leadNoticesPerHour,
  leadExportPageRows,
  crm,
  crmWaitMs,
  featuredAgent = featuredAgentFrom(parseEnv({})),
  siteBuilds,
  marketFeeds,
  purgeCache = defaultEdgePurger(),
  startBackgroundWork,
  production = false,
  webhooks = {},
}: AppDeps): GroupDeps {
  const purge = purgeAfterWrite(purgeCache, logError);
  // The default reads the environment's feeds, from a module loaded only by the routes that need it.
  const feeds = onFirstCall(async (): Promise<() => RefreshPlan> => {
    if (marketFeeds) return marketFeeds;
    const { planFromEnv } = await import('../features/market/feeds.server.ts');
    return () => planFromEnv(parseEnv());
  });
  const startBackground =
    startBackgroundWork ??
    inProcessBackgroundStarter(async (job) => {
      const [{ runBackgroundJob }, plan] = await Promise.all([import('./background-job.ts'), feeds()]);
      return runBackgroundJob(db, job, {
        feeds: plan,
        // The data is saved either way; a failed purge leaves the CDN's copies to their TTL (decision 0020).
        purge: (tags) => purgeCache(tags).catch((error: unknown) => console.error('[imports] purge failed:', error)),
      });
    }, runAfterResponse);
  const crmSecret = crm?.secret ?? randomBytes(32).toString('hex');
  const crmOf = onFirstCall(
    async (): Promise<CrmContext> =>
      crm ?? {
        client: (await import('../features/crm/fub-client.server.ts')).fubClient(DEFAULT_FUB_API_URL),
        secret: crmSecret,
      },
  );
  // Unsubscribe links are signed with a key derived from the session key (SESSION_SECRET).
  const signer = onFirstCall(async () =>
    (await import('../features/email/unsubscribe.server.ts')).unsubscribeSigner(auth.sessionKey),
  );
  const mail: MailContext = {
    siteUrl: siteOriginOf(siteUrl),
    deliverSoon(ids, request) {
      if (!email || ids.length === 0) return;
      const siteOrigin = mail.siteUrl(request);
      // After the response, so the modules that send are loaded then, not before it.
      const delivery = async () => {
        const [{ deliverQueued }, { unsubscribeLinks }, { estimateAttachments }, unsubscribeKey] = await Promise.all([
          import('../features/email/email-delivery.server.ts'),
          import('../features/email/unsubscribe.server.ts'),
          import('../features/email/estimate-attachments.server.ts'),
          signer(),
        ]);
        await deliverQueued(db, email.provider, {
          ids,
          from: email.from,
          unsubscribe: unsubscribeLinks(siteOrigin, unsubscribeKey),
          attachments: estimateAttachments(db, siteOrigin),
          attachmentError: (error) => logError(error, request),
        });
      };
      runAfterResponse(delivery().catch((error: unknown) => logError(error, request)));
    },
  };
  // Webhook signing secrets are encrypted with the same key as the CRM's (ENCRYPTION_KEY).
  const webhookContext: WebhookContext = { allowLoopback: !production, secret: crmSecret, ...webhooks };
  return {
    db,
    mail,
    auth,
    webhooks: {
      context: webhookContext,
      deliverSoon(ids, request) {
        if (ids.length === 0) return;
        const delivery = async () => {
          const [{ deliverWebhooks }, { estimateRenderer }] = await Promise.all([
            import('../features/webhooks/public/webhook-deliveries.server.ts'),
            import('./compose/webhook-estimates.ts'),
          ]);
          const renderEstimate = webhookContext.renderEstimate ?? estimateRenderer(mail.siteUrl(request));
          await deliverWebhooks(db, { ...webhookContext, renderEstimate }, { ids });
        };
        runAfterResponse(delivery().catch((error: unknown) => logError(error, request)));
      },
    },
    clientAddress: (c) => clientIp?.(c.req.raw) ?? socketAddress(c),
    purge,
    crm: crmOf,
    crmSecret,
    unsubscribeSigner: signer,
    // Seller updates' links are signed with a key of their own derived from the session key too.
    updateLinkSigner: onFirstCall(async () =>
      (await import('../features/seller-updates/public/update-links.server.ts')).updateLinkSigner(auth.sessionKey),
    ),
    email,
    leadNoticesPerHour,
    leadExportPageRows,
    runAfterResponse,
    crmWaitMs,
    featuredAgent,
    siteBuilds,
    marketFeeds: feeds,
    startImports: () => startBackground('imports'),
    logError,
    production,
  };
}

/**
 * The API: every /api/* route and the old product's API paths, served by the `api` and `api-images`
 * functions and (with the pages, src/app/app.ts) by the local server. No page is rendered here,
 * so the API's functions load no React (decision 0026); a group of routes is loaded at its first
 * request (src/app/api-groups.server.ts).
 */
export function createApiApp(deps: AppDeps): Hono {
  const groupDeps = groupDepsFor(deps);
  const { auth, logError } = groupDeps;

  function answerError(error: unknown, c: Context): Response {
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
  }

  /** A group's routes as an app of their own, built at the first request to one of them and kept. */
  const groups = new Map<GroupName, Promise<Hono>>();
  const groupApp = (group: GroupName): Promise<Hono> => {
    let built = groups.get(group);
    if (!built) {
      built = API_GROUPS[group].build(groupDeps).then((routes) => {
        const app = new Hono();
        app.route('/', routes);
        app.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
        app.onError(answerError);
        return app;
      });
      // A failed load (a passing fault) is tried again at the next request, not kept.
      built.catch(() => groups.delete(group));
      groups.set(group, built);
    }
    return built;
  };

  const api = new Hono().basePath('/api');
  api.use(async (c, next) => {
    await next();
    for (const [name, value] of API_HEADERS) if (!c.res.headers.has(name)) c.header(name, value);
  });
  // Before every route: a cross-site POST with the session cookie changes nothing.
  api.use(csrfProtection({ trustedOrigins: deps.siteUrl ? [new URL(deps.siteUrl).origin] : [] }));
  // Then who may call what (src/app/route-access.ts): signed-out calls to agent routes are 401 here.
  // The session it reads is kept with the request itself, which the group's app is handed.
  api.use(accessControl(ROUTE_ACCESS, auth));
  // Every path a group answers, in order of precedence, answered by that group (src/app/api-groups.server.ts).
  for (const { path, group } of API_ROUTES) {
    api.all(path.slice('/api'.length), async (c) => (await groupApp(group)).fetch(c.req.raw, c.env));
  }
  api.notFound((c) => errorResponse(c, new HttpError(404, 'Not found')));
  api.onError(answerError);
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
