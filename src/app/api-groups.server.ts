/**
 * The API's routes in groups, one per feature module that registers them, each loaded at the first
 * request that needs it (decision 0026, amendment 3). A function's cold start then loads and builds
 * only the group its first request asks for, not every feature's schemas and handlers.
 *
 * A group is a feature's declared operations (src/platform/operation.ts) and how the composition root
 * wires what they need. Where two paths both match a request, the one with a static segment where the
 * other has a parameter answers (/images/list before /images/:file), whatever the groups' order. Which
 * paths each group answers, with which methods and for whom, is read off the groups themselves by
 * `apiRouteTable` into src/app/api-routes.generated.ts (`npm run generate:api-routes`);
 * src/app/api-routes.test.ts fails when that file is stale.
 */
import { Hono, type Context } from 'hono';
import type { AuthConfig } from '../features/auth/public/sessions.server.ts';
import type { CrmContext } from '../features/crm/public/crm-sync.server.ts';
import type { EmailAddress, EmailProvider, MailContext } from '../features/email/public/email.server.ts';
import type { UnsubscribeSigner } from '../features/email/unsubscribe.server.ts';
import type { UpdateLinkSigner } from '../features/seller-updates/public/update-links.server.ts';
import type { RefreshPlan } from '../features/market/feeds.server.ts';
import type { WebhookDispatch } from '../features/webhooks/public/webhook-deliveries.server.ts';
import type { SiteBuilds } from '../features/site-build/site-build.server.ts';
import type { Db } from '../platform/db.ts';
import type { SecretSource } from '../platform/encryption.ts';
import type { PurgeAfterWrite } from '../platform/edge-cache.ts';
import type { FeaturedAgent } from '../platform/featured-agent.ts';
import { comparePaths, type Access, type ApiGroup, type Method, type OperationDoc } from '../platform/operation.ts';

/** What the groups are built from: the app's dependencies, resolved (src/app/api-app.ts). */
export interface GroupDeps {
  db: Db;
  mail: MailContext;
  /** Outgoing webhooks: how they are sent, and sending a request's queued ones after its answer. */
  webhooks: WebhookDispatch;
  auth: AuthConfig;
  clientAddress: (c: Context) => string;
  purge: PurgeAfterWrite;
  /** The CRM context, made at its first use (the Follow Up Boss client is a module of its own). */
  crm: () => Promise<CrmContext>;
  /** The secret the CRM and Mailgun keys are encrypted with (ENCRYPTION_KEY). */
  crmSecret: SecretSource;
  /** Signs unsubscribe links, made at its first use. */
  unsubscribeSigner: () => Promise<UnsubscribeSigner>;
  /** Signs seller updates' links (confirmation, sheet, agent), made at its first use. */
  updateLinkSigner: () => Promise<UpdateLinkSigner>;
  email?: { provider: EmailProvider & { refresh?(): void }; from: EmailAddress };
  leadNoticesPerHour?: number;
  leadExportPageRows?: number;
  runAfterResponse: (task: Promise<unknown>) => void;
  crmWaitMs?: number;
  featuredAgent: Pick<FeaturedAgent, 'slug' | 'email'>;
  siteBuilds?: SiteBuilds;
  /** The market-data feeds, as the data admin's Refresh now reads them (made at its first use). */
  marketFeeds: () => Promise<() => RefreshPlan>;
  startImports: () => Promise<void>;
  logError: (error: unknown, request: Request) => void;
  /** Production (APP_ENV): some admin tools (the digest run's `as_of`) are refused there. */
  production: boolean;
}

type GroupLoader = (deps: GroupDeps) => Promise<Hono>;

/** A group as the app loads it: its app (every route under its full /api path), and its declarations. */
interface GroupEntry {
  build: GroupLoader;
  operations: () => Promise<readonly OperationDoc[]>;
}

/** A feature's declared operations (`load`), and what the composition root gives their handlers (`wire`). */
function declared<Input>(
  load: () => Promise<ApiGroup<Input>>,
  wire: (deps: GroupDeps) => Input | Promise<Input>,
): GroupEntry {
  return {
    build: async (deps) => (await load()).build(await wire(deps)),
    operations: async () => (await load()).operations,
  };
}

const siteUrlOf = (mail: MailContext) => (request: Request) => mail.siteUrl(request);

async function exportLimitsOf(deps: GroupDeps) {
  return (await import('../features/leads/public/lead-export.server.ts')).leadExportLimits(deps.leadExportPageRows);
}

/** Every group, in the order the OpenAPI document lists their operations (precedence is comparePaths'). */
export const API_GROUPS = {
  auth: declared(
    async () => (await import('../features/sign-in/auth-routes.server.ts')).authApi,
    ({ db, mail, auth, clientAddress }) => ({ db, mail, config: auth, clientIp: clientAddress }),
  ),
  settings: declared(
    async () => (await import('../features/settings/settings.server.ts')).settingsApi,
    ({ db }) => ({ db }),
  ),
  agents: declared(
    async () => (await import('../features/agents/agents.server.ts')).agentsApi,
    ({ db }) => ({ db }),
  ),
  overview: declared(
    async () => (await import('../features/dashboard/public/overview.server.ts')).overviewApi,
    ({ db }) => ({ db }),
  ),
  adminOverview: declared(
    async () => (await import('../features/admin/admin-overview.server.ts')).adminOverviewApi,
    ({ db }) => ({ db }),
  ),
  agentSettings: declared(
    async () => (await import('../features/settings/agent-settings.server.ts')).agentSettingsApi,
    ({ db, purge }) => ({ db, purge }),
  ),
  profile: declared(
    async () => (await import('../features/agents/profile.server.ts')).profileApi,
    ({ db, purge, mail }) => ({ db, purge, mail }),
  ),
  showcase: declared(
    async () => (await import('../features/showcase/showcase.server.ts')).showcaseApi,
    ({ db, purge }) => ({ db, purge }),
  ),
  images: declared(
    async () => (await import('../features/images/public/images.server.ts')).imagesApi,
    ({ db }) => ({ db }),
  ),
  netSheet: declared(
    async () => (await import('../features/net-sheet/net-sheet.server.ts')).netSheetApi,
    ({ db, clientAddress }) => ({ db, clientIp: clientAddress }),
  ),
  estimates: declared(
    async () => (await import('../features/estimate/estimate.server.ts')).estimatesApi,
    ({ db, clientAddress }) => ({ db, clientIp: clientAddress }),
  ),
  estimatePdf: declared(
    async () => (await import('../features/net-sheet/public/estimate-pdf.server.ts')).estimatePdfApi,
    ({ db, mail, clientAddress }) => ({ db, siteUrl: siteUrlOf(mail), clientIp: clientAddress }),
  ),
  offersPdf: declared(
    async () => (await import('../features/net-sheet/offers-pdf.server.ts')).offersPdfApi,
    ({ db, mail, clientAddress }) => ({ db, siteUrl: siteUrlOf(mail), clientIp: clientAddress }),
  ),
  leadSync: declared(
    async () => (await import('../features/crm/lead-sync.server.ts')).leadSyncApi,
    async ({ db, crm, mail }) => ({ db, crm: await crm(), siteUrl: siteUrlOf(mail) }),
  ),
  leads: declared(
    async () => (await import('../features/leads/leads.server.ts')).leadsApi,
    async (deps) => ({
      db: deps.db,
      mail: deps.mail,
      clientIp: deps.clientAddress,
      options: {
        noticesPerHour: deps.leadNoticesPerHour,
        crm: await deps.crm(),
        runAfterResponse: deps.runAfterResponse,
        crmWaitMs: deps.crmWaitMs,
      },
      logError: deps.logError,
      updateSigner: await deps.updateLinkSigner(),
      webhooks: deps.webhooks,
    }),
  ),
  fubIntegration: declared(
    async () => (await import('../features/crm/fub-integration.server.ts')).fubIntegrationApi,
    async ({ db, crm }) => ({ db, crm: await crm() }),
  ),
  leadExport: declared(
    async () => (await import('../features/leads/public/lead-export.server.ts')).leadExportApi,
    async (deps) => ({ db: deps.db, limits: await exportLimitsOf(deps) }),
  ),
  adminLeads: declared(
    async () => (await import('../features/admin/admin-leads.server.ts')).adminLeadsApi,
    async (deps) => ({ db: deps.db, exportLimits: await exportLimitsOf(deps) }),
  ),
  email: declared(
    async () => (await import('../features/email/email-routes.server.ts')).emailApi,
    ({ db, mail, clientAddress }) => ({ db, mail, clientIp: clientAddress }),
  ),
  unsubscribe: declared(
    async () => (await import('../features/email/unsubscribe.server.ts')).unsubscribeApi,
    async ({ db, unsubscribeSigner, clientAddress }) => ({
      db,
      signer: await unsubscribeSigner(),
      clientIp: clientAddress,
    }),
  ),
  updateConfirm: declared(
    async () => (await import('../features/seller-updates/confirm-routes.server.ts')).confirmApi,
    async ({ db, updateLinkSigner, clientAddress }) => ({
      db,
      signer: await updateLinkSigner(),
      clientIp: clientAddress,
    }),
  ),
  sellerUpdateLinks: declared(
    async () => (await import('../features/seller-updates/link-routes.server.ts')).updateLinkApi,
    async ({ db, mail, auth, crm, runAfterResponse }) => ({
      db,
      mail,
      crm: await crm(),
      runAfterResponse,
      signer: (await import('../features/seller-updates/public/update-links.server.ts')).updateLinkSigner(
        auth.sessionKey,
      ),
    }),
  ),
  // The Mailgun key is encrypted with ENCRYPTION_KEY, the secret the CRM keys use too.
  emailSettings: declared(
    async () => (await import('../features/email/email-settings-routes.server.ts')).emailSettingsApi,
    async ({ db, crmSecret, email, mail, unsubscribeSigner }) => {
      const [{ unsubscribeLinks }, signer] = await Promise.all([
        import('../features/email/unsubscribe.server.ts'),
        unsubscribeSigner(),
      ]);
      return {
        db,
        secret: crmSecret,
        email,
        unsubscribe: (request: Request) => unsubscribeLinks(mail.siteUrl(request), signer),
      };
    },
  ),
  seoSettings: declared(
    async () => (await import('../features/seo/seo-settings.server.ts')).seoSettingsApi,
    ({ db }) => ({ db }),
  ),
  siteImages: declared(
    async () => (await import('../features/site-images/public/site-images.server.ts')).siteImagesApi,
    ({ db, purge }) => ({ db, purge }),
  ),
  siteContent: declared(
    async () => (await import('../features/content/site-content.server.ts')).siteContentApi,
    ({ db }) => ({ db }),
  ),
  feeTable: declared(
    async () => (await import('../features/net-sheet/fee-table.server.ts')).feeTableApi,
    ({ db }) => ({ db }),
  ),
  market: declared(
    async () => (await import('../features/market/market.server.ts')).marketApi,
    ({ db }) => ({ db }),
  ),
  adminAgents: declared(
    async () => (await import('../features/admin/admin-agents.server.ts')).adminAgentsApi,
    ({ db, mail, featuredAgent, purge }) => ({ db, mail, featured: featuredAgent, purge }),
  ),
  siteBuild: declared(
    async () => (await import('../features/site-build/site-build.server.ts')).siteBuildApi,
    ({ db, siteBuilds, runAfterResponse }) => ({ db, builds: siteBuilds, runAfterResponse }),
  ),
  dataAdmin: declared(
    async () => (await import('../features/market/data-admin.server.ts')).dataAdminApi,
    async ({ db, marketFeeds, startImports }) => ({ db, feeds: await marketFeeds(), startImports }),
  ),
  digests: declared(
    async () => (await import('../features/seller-updates/digest-routes.server.ts')).digestApi,
    async ({ db, mail, auth, production }) => ({
      db,
      mail,
      production,
      signer: (await import('../features/seller-updates/public/update-links.server.ts')).updateLinkSigner(
        auth.sessionKey,
      ),
    }),
  ),
  sellerUpdatesScreen: declared(
    async () => (await import('../features/seller-updates/updates-screen-routes.server.ts')).updatesScreenApi,
    ({ db }) => ({ db }),
  ),
  sellerUpdatesAdmin: declared(
    async () => (await import('../features/seller-updates/digests-screen-routes.server.ts')).digestsScreenApi,
    ({ db }) => ({ db }),
  ),
  webhooks: declared(
    async () => (await import('../features/webhooks/webhook-endpoints.server.ts')).webhookEndpointsApi,
    ({ db, webhooks, production, mail }) => ({ db, webhooks: webhooks.context, production, siteUrl: siteUrlOf(mail) }),
  ),
  embed: declared(
    async () => (await import('../features/embed/embed-routes.server.ts')).embedApi,
    ({ db, purge, production }) => ({ db, purge, production }),
  ),
  // The document of every group's operations, this one's included.
  openApi: declared(
    async () => (await import('./openapi-route.server.ts')).openApiApi,
    () => ({ operations: apiOperations }),
  ),
} satisfies Record<string, GroupEntry>;

export type GroupName = keyof typeof API_GROUPS;

const isGroupName = (name: string): name is GroupName => name in API_GROUPS;

/** The groups' names, in their declared order (an object's string keys keep their order). */
export const GROUP_NAMES: readonly GroupName[] = Object.keys(API_GROUPS).filter(isGroupName);

/** One path a group answers, with who may call each method there (every other method answers 405). */
export interface GroupRoute {
  /** As the route registers it: `/api/estimates/:uuid`. */
  path: string;
  group: GroupName;
  methods: Partial<Record<Method, Access>>;
}

/**
 * Every path the groups answer, in order of precedence (comparePaths): what
 * src/app/api-routes.generated.ts holds, and what the authorization matrix checks. A path is one
 * group's: two groups answering the same path is refused here.
 */
export async function apiRouteTable(): Promise<GroupRoute[]> {
  const table = new Map<string, GroupRoute>();
  for (const group of GROUP_NAMES) {
    for (const { method, path, access } of await API_GROUPS[group].operations()) {
      const row = table.get(path) ?? { path, group, methods: {} };
      if (row.group !== group) throw new Error(`${path} is answered by both ${row.group} and ${group}`);
      if (row.methods[method]) throw new Error(`${method} ${path} is declared twice`);
      row.methods[method] = access;
      table.set(path, row);
    }
  }
  return [...table.values()].sort((a, b) => comparePaths(a.path, b.path));
}

/** Every operation of the API, in the groups' order: what the OpenAPI document and its tests read. */
export async function apiOperations(): Promise<OperationDoc[]> {
  const declared = await Promise.all(GROUP_NAMES.map((group) => API_GROUPS[group].operations()));
  return declared.flat();
}
