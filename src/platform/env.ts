import { resolve } from 'node:path';
import * as z from 'zod';
import { databaseFor, deploymentOf, describeDeployment, isPreviewDeployment, type Deployment } from './deployment.ts';
import { localOrigin } from './site-origin.ts';

/**
 * Every environment variable the server reads, parsed once. Each has an embedded default where one
 * can serve, so `npm start` needs no configuration; see .env.example for the documentation.
 */
/** Follow Up Boss's API (fact sheet §1: one host for every account). */
export const DEFAULT_FUB_API_URL = 'https://api.followupboss.com';

const postgresUrl = (variable: string) =>
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, `${variable} must be a postgres:// connection string`)
    .optional();

const envSchema = z.object({
  // Production's database (and the one of npm start when set). Parsed env: the one this deployment uses.
  DATABASE_URL: postgresUrl('DATABASE_URL'),
  // A deploy preview's or branch deploy's own database (src/platform/deployment.ts); never production's.
  PREVIEW_DATABASE_URL: postgresUrl('PREVIEW_DATABASE_URL'),
  // Netlify Database sets it for each deploy, a preview's pointing at the preview's own branch.
  NETLIFY_DB_URL: postgresUrl('NETLIFY_DB_URL'),
  DATABASE_WS_PROXY: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  // The public origin, for canonical URLs, the sitemap and links in e-mails. Netlify sets URL.
  SITE_URL: z.url().optional(),
  // Sender of every e-mail the site sends.
  EMAIL_FROM_NAME: z.string().trim().min(1).max(100).default('Long Island Net Proceeds'),
  EMAIL_FROM_ADDRESS: z.email().default('estimates@example.com'),
  // Signs session cookies (at least 32 characters). Required in production; locally generated once.
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  // Encrypts API keys kept in the database (Mailgun). Required in production; locally generated once.
  ENCRYPTION_KEY: z.string().min(32, 'ENCRYPTION_KEY must be at least 32 characters').optional(),
  // Resend: e-mail goes through it when the key is set (and Mailgun is not configured).
  RESEND_API_KEY: z.string().min(1).optional(),
  RESEND_API_URL: z.url().default('https://api.resend.com'),
  MAILGUN_API_URL: z.url().default('https://api.mailgun.net'),
  FUB_API_URL: z.url().default(DEFAULT_FUB_API_URL),
  // Market data (see npm run data:refresh and netlify/functions/refresh-market-data.mts).
  ZHVI_CSV_URL: z
    .url()
    .default(
      'https://files.zillowstatic.com/research/public_csvs/zhvi/City_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv',
    ),
  ZILLOW_INVENTORY_CSV_URL: z.url().optional(),
  RESO_BASE_URL: z.url().optional(),
  RESO_TOKEN_URL: z.url().optional(),
  RESO_CLIENT_ID: z.string().min(1).optional(),
  RESO_CLIENT_SECRET: z.string().min(1).optional(),
  RESO_BEARER_TOKEN: z.string().min(1).optional(),
  // Netlify build hook: the site is rebuilt through it (admin Rebuild now, the automatic rebuild).
  BUILD_HOOK_URL: z.url().optional(),
  // A change to what the static pages show is built automatically once no other change has come for
  // this long (several saves in a row make one build).
  REBUILD_DEBOUNCE_MS: z.coerce.number().int().min(0).default(60_000),
  // Set by the local server for the build it starts: the file holding the data the pages read
  // (src/app/build-data.ts), as the server holds the embedded database locked.
  BUILD_DATA_SNAPSHOT: z.string().optional(),
  // Comma-separated e-mails made admins by npm run db:seed.
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter((email) => email !== ''),
    ),
  // New-lead notices one agent receives an hour at most; beyond it leads are saved, unannounced.
  LEAD_NOTICES_PER_HOUR: z.coerce.number().int().min(1).optional(),
  // Tests only: fewer leads a page of the CSV exports (at most the platform's bound, decision 0029).
  LEAD_EXPORT_PAGE_ROWS: z.coerce
    .number({ error: 'LEAD_EXPORT_PAGE_ROWS must be a whole number' })
    .int('LEAD_EXPORT_PAGE_ROWS must be a whole number')
    .min(1, 'LEAD_EXPORT_PAGE_ROWS must be at least 1')
    .optional(),
  // npm start only: how often it runs the scheduled jobs (e-mail retries, CRM syncs) itself.
  JOBS_EVERY_MS: z.coerce.number().int().min(100).default(60_000),
  URL: z.url().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  // npm start's interface; with PORT, the site's origin when SITE_URL is unset (localOrigin).
  HOST: z
    .string()
    .trim()
    .regex(/^[\w.:-]+$/, 'HOST must be an interface address or host name, such as 127.0.0.1 or 0.0.0.0')
    .default('127.0.0.1'),
  // Not NODE_ENV: Astro sets that to production for every build, local ones included.
  APP_ENV: z.enum(['development', 'production', 'test']).default('development'),
  FEATURED_AGENT_FIRST_NAME: z.string().min(1).default('Alex'),
  FEATURED_AGENT_LAST_NAME: z.string().min(1).default('Morgan'),
  FEATURED_AGENT_SLUG: z
    .string()
    .regex(/^[a-z0-9]+$/, 'FEATURED_AGENT_SLUG may contain lowercase letters and digits only')
    .default('alexmorgan'),
  FEATURED_AGENT_EMAIL: z.email().default('alex.morgan@example.com'),
  FEATURED_AGENT_PHONE: z
    .string()
    .regex(/^\d{10}$/, 'FEATURED_AGENT_PHONE must be 10 digits')
    .default('6315550142'),
  FEATURED_AGENT_LICENSE: z.string().min(1).default('10401234567'),
  FEATURED_AGENT_TITLE: z
    .enum(['Broker/Principal Broker', 'Licensed Associate Broker', 'Licensed Real Estate Salesperson'])
    .default('Licensed Real Estate Salesperson'),
  FEATURED_AGENT_BROKERAGE: z.string().min(1).default('Harbor Point Realty (demo)'),
  FEATURED_AGENT_WEBSITE: z.url().default('https://example.com'),
  FEATURED_AGENT_OFFICE_STREET: z.string().min(1).default('100 Main Street'),
  FEATURED_AGENT_OFFICE_CITY: z.string().min(1).default('Huntington'),
  FEATURED_AGENT_OFFICE_STATE: z.string().length(2).default('NY'),
  FEATURED_AGENT_OFFICE_ZIP: z
    .string()
    .regex(/^\d{5}$/)
    .default('11743'),
});

/** The parsed variables, DATABASE_URL being the database this deployment uses, and where it runs. */
export type Env = z.infer<typeof envSchema> & { deployment: Deployment };

/** What a Netlify function knows of its invocation: `context.deploy.context` of the Functions API. */
export interface Invocation {
  deployContext?: string;
}

/** What a deployed function cannot run without: a generated secret would differ in every instance. */
const FUNCTION_SECRETS = ['SESSION_SECRET', 'ENCRYPTION_KEY'] as const;

export function parseEnv(source: NodeJS.ProcessEnv = process.env, { deployContext }: Invocation = {}): Env {
  // An empty variable (`DATABASE_URL=`) means unset, as in .env.example.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  const deployment = deploymentOf(present, deployContext);
  const database = databaseFor(present, deployment);
  const env: Env = { ...result.data, DATABASE_URL: database.ok ? database.url : undefined, deployment };
  if (deployment.on === 'netlify') {
    // On Netlify nothing falls back to the embedded database or a generated secret.
    const problems = [
      ...(!database.ok ? [`${database.variable}: ${database.problem}`] : []),
      ...(database.ok && !database.url
        ? ['DATABASE_URL: required in production (set it for the Production context, Builds and Functions scopes)']
        : []),
      ...(deployment.phase === 'functions'
        ? FUNCTION_SECRETS.filter((name) => !env[name]).map(
            (name) => `${name}: required on Netlify (set it in Netlify's UI with the Functions scope)`,
          )
        : []),
    ];
    if (problems.length > 0) {
      throw new Error(`Invalid environment (${describeDeployment(deployment)}):\n  ${problems.join('\n  ')}`);
    }
  } else if (isProduction(env) && !env.DATABASE_URL) {
    throw new Error('Invalid environment:\n  DATABASE_URL: required in production');
  }
  return env;
}

/** The site's public origin without a trailing slash. */
export const siteUrl = (env: Env): string =>
  (env.SITE_URL ?? env.URL ?? localOrigin(env.HOST, env.PORT)).replace(/\/$/, '');

/**
 * Deployed on Netlify (any deploy context), or wherever APP_ENV=production: no embedded defaults for
 * what must be configured, no demo accounts, secure cookies.
 */
export const isProduction = (env: Env): boolean => env.APP_ENV === 'production' || env.deployment.on === 'netlify';

/** A deploy preview or branch deploy: its own database, and no e-mail, CRM, purge or build hook. */
export const isPreview = (env: Env): boolean => isPreviewDeployment(env.deployment);

export const pgliteDir = (env: Env): string => resolve(env.DATA_DIR, 'pglite');
