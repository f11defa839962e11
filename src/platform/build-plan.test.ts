import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildPlan } from './build-plan.ts';

const PRODUCTION_DB = 'postgres://u:p@ep-main.us-east-2.aws.neon.tech/db';
const PREVIEW_DB = 'postgres://u:p@ep-preview.us-east-2.aws.neon.tech/db';
const NETLIFY_DB = 'postgres://u:p@netlify-database-branch/db';

/** Netlify's CI build (NETLIFY=true, its CONTEXT and BRANCH), with netlify.toml's flag for the context. */
const netlifyBuild = (
  context: string,
  branch: string,
  flag: string | undefined,
  variables: NodeJS.ProcessEnv = {},
) => ({
  NETLIFY: 'true',
  CONTEXT: context,
  BRANCH: branch,
  SITE_ID: '1d01c0c0-4554-4747-93b8-34ce3448ab95',
  ...(flag ? { BUILD_DATABASE: flag } : {}),
  ...variables,
});

type Expected = { database: 'production' | 'preview' | 'local'; variable: string } | { stops: RegExp };

const cases: [string, NodeJS.ProcessEnv, Expected][] = [
  [
    'production deploy of main: migrate and seed production',
    netlifyBuild('production', 'main', 'production', { DATABASE_URL: PRODUCTION_DB }),
    { database: 'production', variable: 'DATABASE_URL' },
  ],
  [
    'production deploy without DATABASE_URL: stop',
    netlifyBuild('production', 'main', 'production'),
    { stops: /needs DATABASE_URL[\s\S]*Production context/ },
  ],
  [
    'production context without netlify.toml saying so: stop',
    netlifyBuild('production', 'main', undefined, { DATABASE_URL: PRODUCTION_DB }),
    { stops: /\[context\.production\.environment\] must set BUILD_DATABASE = "production"/ },
  ],
  [
    'production context of another branch: stop',
    netlifyBuild('production', 'release', 'production', { DATABASE_URL: PRODUCTION_DB }),
    { stops: /production deploy of branch "release"; only main/ },
  ],
  [
    'deploy preview with its own database (DATABASE_URL set for all contexts too): migrate and seed the branch',
    netlifyBuild('deploy-preview', 'feature', 'preview', {
      DATABASE_URL: PRODUCTION_DB,
      PREVIEW_DATABASE_URL: PREVIEW_DB,
    }),
    { database: 'preview', variable: 'PREVIEW_DATABASE_URL' },
  ],
  [
    "deploy preview on Netlify Database: the preview's own branch",
    netlifyBuild('deploy-preview', 'feature', 'preview', { DATABASE_URL: PRODUCTION_DB, NETLIFY_DB_URL: NETLIFY_DB }),
    { database: 'preview', variable: 'NETLIFY_DB_URL' },
  ],
  [
    "deploy preview with production's DATABASE_URL only: stop, saying what to set",
    netlifyBuild('deploy-preview', 'feature', 'preview', { DATABASE_URL: PRODUCTION_DB }),
    { stops: /deploy-preview never uses the production database[\s\S]*PREVIEW_DATABASE_URL: required/ },
  ],
  [
    'deploy preview with no database at all: stop',
    netlifyBuild('deploy-preview', 'feature', 'preview'),
    { stops: /PREVIEW_DATABASE_URL: required/ },
  ],
  [
    "branch deploy whose preview database is production's: stop",
    netlifyBuild('branch-deploy', 'staging', 'preview', {
      DATABASE_URL: PRODUCTION_DB,
      PREVIEW_DATABASE_URL: PRODUCTION_DB,
    }),
    { stops: /is the same database as DATABASE_URL/ },
  ],
  [
    'branch deploy with its own database: migrate and seed it',
    netlifyBuild('branch-deploy', 'staging', 'preview', { PREVIEW_DATABASE_URL: PREVIEW_DB }),
    { database: 'preview', variable: 'PREVIEW_DATABASE_URL' },
  ],
  [
    'a preview claiming the production database in netlify.toml: stop',
    netlifyBuild('deploy-preview', 'feature', 'production', {
      DATABASE_URL: PRODUCTION_DB,
      PREVIEW_DATABASE_URL: PREVIEW_DB,
    }),
    { stops: /BUILD_DATABASE = "production" in deploy context "deploy-preview"/ },
  ],
  ['npm run build on a machine: the embedded database', {}, { database: 'local', variable: 'DATABASE_URL' }],
  [
    'npm run build on a machine with DATABASE_URL: that database',
    { DATABASE_URL: PRODUCTION_DB },
    { database: 'local', variable: 'DATABASE_URL' },
  ],
  [
    "the CLI's netlify build --offline (NETLIFY_LOCAL, context production by default): the local database",
    { NETLIFY_LOCAL: 'true', CONTEXT: 'production', BUILD_DATABASE: 'production' },
    { database: 'local', variable: 'DATABASE_URL' },
  ],
];

describe('what the build does to a database, per deploy context', () => {
  it.each(cases)('%s', (_name, source, expected) => {
    const plan = buildPlan(source);
    if ('stops' in expected) {
      expect(plan.action).toBe('stop');
      expect(plan.say).toMatch(expected.stops);
      return;
    }
    expect(plan).toMatchObject({ action: 'migrate-and-seed', ...expected });
  });
});

/** netlify.toml's BUILD_DATABASE in each [context.NAME.environment] section (the file's own shape). */
function buildDatabaseFlags(): Record<string, string> {
  const toml = readFileSync('netlify.toml', 'utf8');
  const sections = toml.split(/^\[/m).slice(1);
  return Object.fromEntries(
    sections.flatMap((section) => {
      const name = /^context\.([\w-]+)\.environment\]/.exec(section)?.[1];
      const flag = /^\s*BUILD_DATABASE\s*=\s*"([^"]*)"/m.exec(section)?.[1];
      return name && flag ? [[name, flag]] : [];
    }),
  );
}

describe('netlify.toml', () => {
  it('flags each deploy context so that only production migrates the production database', () => {
    const flags = buildDatabaseFlags();
    expect(flags).toEqual({ production: 'production', 'deploy-preview': 'preview', 'branch-deploy': 'preview' });
    const databases = Object.entries(flags).map(([context, flag]) => {
      const plan = buildPlan(
        netlifyBuild(context, context === 'production' ? 'main' : 'feature', flag, {
          DATABASE_URL: PRODUCTION_DB,
          PREVIEW_DATABASE_URL: PREVIEW_DB,
        }),
      );
      return [context, plan.action === 'migrate-and-seed' ? plan.database : plan.say];
    });
    expect(Object.fromEntries(databases)).toEqual({
      production: 'production',
      'deploy-preview': 'preview',
      'branch-deploy': 'preview',
    });
  });
});
