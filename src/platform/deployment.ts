/**
 * Where this process runs and which database it may use, decided from what Netlify really gives it
 * (facts and sources: docs/research/netlify-platform.md; decision 0030):
 * - Netlify's own (CI) build sets NETLIFY=true and CONTEXT; a build of the CLI on a machine sets
 *   NETLIFY_LOCAL=true instead, and `netlify dev` sets NETLIFY_DEV=true.
 * - A deployed function gets none of those: only the variables set in Netlify's UI, CLI or API with
 *   the Functions scope, plus URL, SITE_NAME and SITE_ID. Its deploy context comes with each
 *   invocation, as `context.deploy.context` of the Functions API.
 * Only the production context may use DATABASE_URL. A deploy preview or branch deploy (or a context
 * this code does not know) reads its own database from PREVIEW_DATABASE_URL, or Netlify Database's
 * NETLIFY_DB_URL (Netlify sets it to the deploy's own branch), and never DATABASE_URL: a value set for
 * "all deploy contexts" in Netlify's UI cannot lead a preview to the production database.
 */

export type Deployment =
  /** npm start, npm run dev, tests, scripts; `netlify dev` and the CLI's `netlify build` too. */
  | { on: 'local' }
  /** Netlify's build of a deploy, or a deployed function, in deploy context `context`. */
  | { on: 'netlify'; phase: 'build' | 'functions'; context: string };

/** The one deploy context that owns the production database. */
export const PRODUCTION_CONTEXT = 'production';

/**
 * `deployContext` is what the function's invocation says (`context.deploy.context`); a function
 * that does not pass it runs as an unknown context, which is never production.
 */
export function deploymentOf(source: NodeJS.ProcessEnv, deployContext?: string): Deployment {
  // The CLI's local server and builds run on a developer's machine (or CI), with its database.
  if (source.NETLIFY_DEV === 'true' || source.NETLIFY_LOCAL === 'true') return { on: 'local' };
  if (source.NETLIFY === 'true') return { on: 'netlify', phase: 'build', context: source.CONTEXT || 'unknown' };
  if (source.SITE_ID) return { on: 'netlify', phase: 'functions', context: deployContext || 'unknown' };
  return { on: 'local' };
}

/** A deploy of Netlify other than production: deploy previews, branch deploys, anything unknown. */
export const isPreviewDeployment = (deployment: Deployment): boolean =>
  deployment.on === 'netlify' && deployment.context !== PRODUCTION_CONTEXT;

/** The variables a preview's database can come from, in order. */
export const PREVIEW_DATABASE_VARIABLES = ['PREVIEW_DATABASE_URL', 'NETLIFY_DB_URL'] as const;

export type DatabaseChoice =
  { ok: true; url: string | undefined; variable: string } | { ok: false; variable: string; problem: string };

/**
 * The database URL this deployment may use. Locally and in production: DATABASE_URL (unset locally
 * means the embedded database). In a preview: its own, which must not be DATABASE_URL's.
 */
export function databaseFor(source: NodeJS.ProcessEnv, deployment: Deployment): DatabaseChoice {
  const configured = (name: string): string | undefined => source[name] || undefined;
  if (!isPreviewDeployment(deployment)) return { ok: true, url: configured('DATABASE_URL'), variable: 'DATABASE_URL' };
  const variable = PREVIEW_DATABASE_VARIABLES.find((name) => configured(name));
  const url = variable ? configured(variable) : undefined;
  if (!variable || !url) {
    return {
      ok: false,
      variable: 'PREVIEW_DATABASE_URL',
      problem:
        'required in a deploy preview or branch deploy, which never uses DATABASE_URL: set it (a Neon branch ' +
        "of its own) for the Deploy Previews and Branch deploys contexts, or use Netlify Database's NETLIFY_DB_URL",
    };
  }
  if (url === configured('DATABASE_URL')) {
    return {
      ok: false,
      variable,
      problem: `is the same database as DATABASE_URL (production's); a ${deployment.on === 'netlify' ? deployment.context : 'preview'} needs a database of its own`,
    };
  }
  return { ok: true, url, variable };
}

/** How a message names the deployment: "Netlify's functions, deploy context deploy-preview". */
export const describeDeployment = (deployment: Deployment): string =>
  deployment.on === 'local'
    ? 'this machine'
    : `Netlify's ${deployment.phase === 'build' ? 'build' : 'functions'}, deploy context "${deployment.context}"`;
