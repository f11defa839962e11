/**
 * The API's routes in groups, one per feature module that registers them, each loaded at the first
 * request that needs it (decision 0026, amendment 3). A function's cold start then loads and builds
 * only the group its first request asks for, not every feature's schemas and handlers.
 *
 * The order of API_GROUPS is the order of precedence: where two groups' paths both match a request,
 * the earlier one answers (showcase's /images/list before images' /images/:file, net-sheet's
 * /estimates/reverse before estimate's /estimates/:uuid). Which paths each group registers is read off
 * the groups themselves by `apiRouteTable` into src/server/api-routes.generated.ts
 * (`npm run generate:api-routes`); src/server/api-routes.test.ts fails when that file is stale.
 */
import type { Context, Hono } from 'hono';
import type { AuthConfig } from '../features/auth/sessions.server.ts';
import type { CrmContext } from '../features/crm/crm-sync.server.ts';
import type { EmailAddress, EmailProvider, MailContext } from '../features/email/email.server.ts';
import type { UnsubscribeSigner } from '../features/email/unsubscribe.server.ts';
import type { RefreshPlan } from '../features/market/feeds.server.ts';
import type { SiteBuilds } from '../features/site-build/site-build.server.ts';
import type { Db } from './db.ts';
import type { SecretSource } from './encryption.ts';
import type { PurgeAfterWrite } from './edge-cache.ts';
import type { FeaturedAgent } from './featured-agent.ts';

/** What the groups are built from: the app's dependencies, resolved (src/server/api-app.ts). */
export interface GroupDeps {
  db: Db;
  mail: MailContext;
  auth: AuthConfig;
  clientAddress: (c: Context) => string;
  purge: PurgeAfterWrite;
  /** The CRM context, made at its first use (the Follow Up Boss client is a module of its own). */
  crm: () => Promise<CrmContext>;
  /** The secret the CRM and Mailgun keys are encrypted with (ENCRYPTION_KEY). */
  crmSecret: SecretSource;
  /** Signs unsubscribe links, made at its first use. */
  unsubscribeSigner: () => Promise<UnsubscribeSigner>;
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
}

type GroupLoader = (deps: GroupDeps) => Promise<Hono>;

const siteUrlOf = (mail: MailContext) => (request: Request) => mail.siteUrl(request);

async function exportLimitsOf(deps: GroupDeps) {
  return (await import('../features/leads/lead-export.server.ts')).leadExportLimits(deps.leadExportPageRows);
}

/** Every group, in order of precedence (see above). */
export const API_GROUPS = {
  auth: async ({ db, mail, auth, clientAddress }) =>
    (await import('../features/auth/auth-routes.server.ts')).authRoutes({
      db,
      mail,
      config: auth,
      clientIp: clientAddress,
    }),
  settings: async ({ db }) => (await import('../features/settings/settings.server.ts')).settingsRoutes(db),
  agents: async ({ db }) => (await import('../features/agents/agents.server.ts')).agentRoutes(db),
  overview: async ({ db }) => (await import('../features/dashboard/overview.server.ts')).overviewRoutes(db),
  adminOverview: async ({ db }) => (await import('../features/admin/admin-overview.server.ts')).adminOverviewRoutes(db),
  agentSettings: async ({ db, purge }) =>
    (await import('../features/settings/agent-settings.server.ts')).agentSettingsRoutes(db, purge),
  profile: async ({ db, purge, mail }) =>
    (await import('../features/agents/profile.server.ts')).profileRoutes(db, purge, mail),
  showcase: async ({ db, purge }) =>
    (await import('../features/showcase/showcase.server.ts')).showcaseRoutes(db, purge),
  images: async ({ db }) => (await import('../features/images/images.server.ts')).imageRoutes(db),
  netSheet: async ({ db, clientAddress }) =>
    (await import('../features/net-sheet/net-sheet.server.ts')).netSheetRoutes(db, clientAddress),
  estimates: async ({ db, clientAddress }) =>
    (await import('../features/estimate/estimate.server.ts')).estimateRoutes(db, clientAddress),
  estimatePdf: async ({ db, mail, clientAddress }) =>
    (await import('../features/net-sheet/estimate-pdf.server.ts')).estimatePdfRoutes(
      db,
      siteUrlOf(mail),
      clientAddress,
    ),
  offersPdf: async ({ db, mail, clientAddress }) =>
    (await import('../features/net-sheet/offers-pdf.server.ts')).offersPdfRoutes(db, siteUrlOf(mail), clientAddress),
  leadSync: async ({ db, crm, mail }) =>
    (await import('../features/crm/lead-sync.server.ts')).leadSyncRoutes(db, await crm(), siteUrlOf(mail)),
  leads: async ({ db, mail, clientAddress, leadNoticesPerHour, crm, runAfterResponse, crmWaitMs, logError }) =>
    (await import('../features/leads/leads.server.ts')).leadRoutes(
      db,
      mail,
      clientAddress,
      { noticesPerHour: leadNoticesPerHour, crm: await crm(), runAfterResponse, crmWaitMs },
      logError,
    ),
  fubIntegration: async ({ db, crm }) =>
    (await import('../features/crm/fub-integration.server.ts')).fubIntegrationRoutes(db, await crm()),
  leadExport: async (deps) =>
    (await import('../features/leads/lead-export.server.ts')).leadExportRoutes(deps.db, await exportLimitsOf(deps)),
  adminLeads: async (deps) =>
    (await import('../features/admin/admin-leads.server.ts')).adminLeadRoutes(deps.db, await exportLimitsOf(deps)),
  email: async ({ db, mail, clientAddress }) =>
    (await import('../features/email/email-routes.server.ts')).emailRoutes(db, mail, clientAddress),
  unsubscribe: async ({ db, unsubscribeSigner, clientAddress }) =>
    (await import('../features/email/unsubscribe.server.ts')).unsubscribeRoutes(
      db,
      await unsubscribeSigner(),
      clientAddress,
    ),
  // The Mailgun key is encrypted with ENCRYPTION_KEY, the secret the CRM keys use too.
  emailSettings: async ({ db, crmSecret, email, mail, unsubscribeSigner }) => {
    const [{ emailSettingsRoutes }, { unsubscribeLinks }, signer] = await Promise.all([
      import('../features/email/email-settings-routes.server.ts'),
      import('../features/email/unsubscribe.server.ts'),
      unsubscribeSigner(),
    ]);
    return emailSettingsRoutes(db, {
      secret: crmSecret,
      email,
      unsubscribe: (request) => unsubscribeLinks(mail.siteUrl(request), signer),
    });
  },
  seoSettings: async ({ db }) => (await import('../features/seo/seo-settings.server.ts')).seoSettingsRoutes(db),
  siteImages: async ({ db, purge }) =>
    (await import('../features/site/site-images.server.ts')).siteImageRoutes(db, purge),
  siteContent: async ({ db }) => (await import('../features/content/site-content.server.ts')).siteContentRoutes(db),
  feeTable: async ({ db }) => (await import('../features/net-sheet/fee-table.server.ts')).feeTableRoutes(db),
  market: async ({ db }) => (await import('../features/market/market.server.ts')).marketRoutes(db),
  adminAgents: async ({ db, mail, featuredAgent, purge }) =>
    (await import('../features/admin/admin-agents.server.ts')).adminAgentRoutes({
      db,
      mail,
      featured: featuredAgent,
      purge,
    }),
  siteBuild: async ({ db, siteBuilds, runAfterResponse }) =>
    (await import('../features/site-build/site-build.server.ts')).siteBuildRoutes({
      db,
      builds: siteBuilds,
      runAfterResponse,
    }),
  dataAdmin: async ({ db, marketFeeds, startImports }) =>
    (await import('../features/market/data-admin.server.ts')).dataAdminRoutes({
      db,
      feeds: await marketFeeds(),
      startImports,
    }),
  openApi: async () => (await import('./openapi-route.server.ts')).openApiRoutes(),
} satisfies Record<string, GroupLoader>;

export type GroupName = keyof typeof API_GROUPS;

const isGroupName = (name: string): name is GroupName => name in API_GROUPS;

/** The groups' names in order of precedence (an object's string keys keep their order). */
export const GROUP_NAMES: readonly GroupName[] = Object.keys(API_GROUPS).filter(isGroupName);

/** One path a group registers (under /api), with the methods it answers there (405 catch-alls aside). */
export interface GroupRoute {
  path: string;
  group: GroupName;
  methods: string[];
}

/**
 * Every group built, and the paths each registers, in order of precedence: what
 * src/server/api-routes.generated.ts holds, and what the authorization matrix checks.
 */
export async function apiRouteTable(deps: GroupDeps): Promise<GroupRoute[]> {
  const table: GroupRoute[] = [];
  for (const group of GROUP_NAMES) {
    const app = await API_GROUPS[group](deps);
    for (const { method, path } of app.routes) {
      let row = table.find((entry) => entry.path === path && entry.group === group);
      if (!row) {
        row = { path, group, methods: [] };
        table.push(row);
      }
      if (method !== 'ALL' && !row.methods.includes(method)) row.methods.push(method);
    }
  }
  return table;
}
