import { databaseFor, deploymentOf, PRODUCTION_CONTEXT } from './deployment.ts';

/**
 * What `npm run build` does to a database before Astro builds the pages from it (decision 0030).
 * Only Netlify's build of a production deploy of main migrates and seeds the production database;
 * a deploy preview or branch deploy migrates and seeds its own, or stops and says what to set.
 * A build on a machine (npm run build, or the CLI's `netlify build`, NETLIFY_LOCAL) uses the
 * database its environment names, the embedded one by default, as it always has.
 */
export type BuildPlan =
  | { action: 'migrate-and-seed'; database: 'production' | 'preview' | 'local'; variable: string; say: string }
  | { action: 'stop'; say: string };

/** The production branch: netlify.toml's [context.production] builds it, and nothing else may migrate production. */
export const PRODUCTION_BRANCH = 'main';

/**
 * The flag netlify.toml sets per deploy context ([context.*.environment], build-only): the database
 * the context's build may migrate. Netlify's CONTEXT and the repository's configuration must agree.
 */
export const BUILD_DATABASE = 'BUILD_DATABASE';

const stop = (say: string): BuildPlan => ({ action: 'stop', say: `The build stops: ${say}` });

export function buildPlan(source: NodeJS.ProcessEnv): BuildPlan {
  const deployment = deploymentOf(source);
  if (deployment.on === 'local') {
    const where = source.NETLIFY_LOCAL === 'true' ? "Netlify's CLI on this machine" : 'this machine';
    return {
      action: 'migrate-and-seed',
      database: 'local',
      variable: 'DATABASE_URL',
      say: `Build on ${where}: migrating and seeding ${source.DATABASE_URL ? 'the database of DATABASE_URL' : 'the embedded database'}.`,
    };
  }
  const { context } = deployment;
  const flag = source[BUILD_DATABASE];
  if (context === PRODUCTION_CONTEXT) {
    if (flag !== 'production') {
      return stop(
        `netlify.toml's [context.production.environment] must set ${BUILD_DATABASE} = "production" (found ${flag ? `"${flag}"` : 'nothing'}); ` +
          'the production database is migrated only when Netlify and the repository agree that this is production.',
      );
    }
    if (source.BRANCH && source.BRANCH !== PRODUCTION_BRANCH) {
      return stop(
        `a production deploy of branch "${source.BRANCH}"; only ${PRODUCTION_BRANCH} migrates the production database ` +
          `(set the production branch to ${PRODUCTION_BRANCH} in Project configuration > Build & deploy > Branches and deploy contexts).`,
      );
    }
    if (!source.DATABASE_URL) {
      return stop(
        'a production deploy needs DATABASE_URL (the Neon connection string): set it in Netlify for the Production ' +
          'context, with the Builds and Functions scopes.',
      );
    }
    return {
      action: 'migrate-and-seed',
      database: 'production',
      variable: 'DATABASE_URL',
      say: `Production deploy of ${PRODUCTION_BRANCH}: migrating and seeding the production database (DATABASE_URL).`,
    };
  }
  if (flag === 'production') {
    return stop(
      `${BUILD_DATABASE} = "production" in deploy context "${context}": only [context.production] may say so in netlify.toml.`,
    );
  }
  const database = databaseFor(source, deployment);
  if (!database.ok) {
    return stop(
      `a ${context} never uses the production database (DATABASE_URL). ${database.variable}: ${database.problem} ` +
        '(README, Deploy to Netlify).',
    );
  }
  return {
    action: 'migrate-and-seed',
    database: 'preview',
    variable: database.variable,
    say: `${context}: migrating and seeding its own database (${database.variable}), never production's.`,
  };
}
