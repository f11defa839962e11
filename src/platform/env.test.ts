import { describe, expect, it } from 'vitest';
import { isPreview, isProduction, parseEnv, type Env } from './env.ts';

describe('parseEnv', () => {
  it('has embedded defaults for everything on a developer machine', () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PORT).toBe(4321);
    expect(env.FEATURED_AGENT_SLUG).toBe('alexmorgan');
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(4321);
  });

  it('names each bad variable', () => {
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x', FEATURED_AGENT_SLUG: 'Bad Slug' })).toThrow(
      /DATABASE_URL: DATABASE_URL must be a postgres:\/\/ connection string\n {2}FEATURED_AGENT_SLUG/,
    );
  });
});

const PRODUCTION_DB = 'postgres://u:p@ep-main.us-east-2.aws.neon.tech/db';
const PREVIEW_DB = 'postgres://u:p@ep-preview.us-east-2.aws.neon.tech/db';
const NETLIFY_DB = 'postgres://u:p@netlify-database-branch/db';
const SECRETS = { SESSION_SECRET: 's'.repeat(32), ENCRYPTION_KEY: 'e'.repeat(32) };
/** What Netlify gives every deployed function besides the variables of its UI (Functions scope). */
const DEPLOYED = { URL: 'https://example.netlify.app', SITE_NAME: 'example', SITE_ID: '1d01c0c0-4554-4747' };
/** What `netlify dev` gives its functions (audit §A5): no NETLIFY, no SITE_ID when not linked. */
const NETLIFY_DEV = { NETLIFY_DEV: 'true', NETLIFY_LOCAL: 'true', CONTEXT: 'dev', URL: 'http://localhost:8888' };

interface Case {
  name: string;
  source: NodeJS.ProcessEnv;
  deployContext?: string;
  /** What parseEnv returns: the database it uses (undefined: the embedded one), production, preview. */
  expected: { database: string | undefined; production: boolean; preview: boolean } | { throws: RegExp };
}

const cases: Case[] = [
  {
    name: 'deployed production, configured',
    source: { ...DEPLOYED, ...SECRETS, DATABASE_URL: PRODUCTION_DB },
    deployContext: 'production',
    expected: { database: PRODUCTION_DB, production: true, preview: false },
  },
  {
    name: 'deployed production without anything: refuses, naming all three and the context',
    source: { ...DEPLOYED },
    deployContext: 'production',
    expected: {
      throws:
        /functions, deploy context "production"[\s\S]*DATABASE_URL: required[\s\S]*SESSION_SECRET: required[\s\S]*ENCRYPTION_KEY: required/,
    },
  },
  {
    name: 'deployed production without the secrets (no generated ones on Netlify, APP_ENV unset)',
    source: { ...DEPLOYED, DATABASE_URL: PRODUCTION_DB },
    deployContext: 'production',
    expected: { throws: /SESSION_SECRET: required on Netlify[\s\S]*ENCRYPTION_KEY: required on Netlify/ },
  },
  {
    name: 'deployed preview: its own database, even with DATABASE_URL set for all contexts',
    source: { ...DEPLOYED, ...SECRETS, DATABASE_URL: PRODUCTION_DB, PREVIEW_DATABASE_URL: PREVIEW_DB },
    deployContext: 'deploy-preview',
    expected: { database: PREVIEW_DB, production: true, preview: true },
  },
  {
    name: "deployed preview on Netlify Database: the deploy's own branch",
    source: { ...DEPLOYED, ...SECRETS, DATABASE_URL: PRODUCTION_DB, NETLIFY_DB_URL: NETLIFY_DB },
    deployContext: 'deploy-preview',
    expected: { database: NETLIFY_DB, production: true, preview: true },
  },
  {
    name: "deployed preview with production's DATABASE_URL only: refuses",
    source: { ...DEPLOYED, ...SECRETS, DATABASE_URL: PRODUCTION_DB },
    deployContext: 'deploy-preview',
    expected: { throws: /deploy context "deploy-preview"[\s\S]*PREVIEW_DATABASE_URL: required/ },
  },
  {
    name: "deployed branch deploy whose preview database is production's: refuses",
    source: { ...DEPLOYED, ...SECRETS, DATABASE_URL: PRODUCTION_DB, PREVIEW_DATABASE_URL: PRODUCTION_DB },
    deployContext: 'branch-deploy',
    expected: { throws: /PREVIEW_DATABASE_URL: is the same database as DATABASE_URL/ },
  },
  {
    name: 'deployed function that did not say its context: never production',
    source: { ...DEPLOYED, ...SECRETS, DATABASE_URL: PRODUCTION_DB },
    expected: { throws: /deploy context "unknown"[\s\S]*PREVIEW_DATABASE_URL: required/ },
  },
  {
    name: 'netlify dev: local, the embedded database',
    source: { ...NETLIFY_DEV },
    deployContext: 'dev',
    expected: { database: undefined, production: false, preview: false },
  },
  {
    name: 'netlify dev of a linked site (SITE_ID set): still local',
    source: { ...NETLIFY_DEV, SITE_ID: DEPLOYED.SITE_ID, DATABASE_URL: PRODUCTION_DB },
    deployContext: 'dev',
    expected: { database: PRODUCTION_DB, production: false, preview: false },
  },
  {
    name: 'npm start: local, the embedded database',
    source: { PORT: '4321' },
    expected: { database: undefined, production: false, preview: false },
  },
  {
    name: 'APP_ENV=production locally (npm start on a host): production, DATABASE_URL',
    source: { APP_ENV: 'production', DATABASE_URL: PRODUCTION_DB },
    expected: { database: PRODUCTION_DB, production: true, preview: false },
  },
  {
    name: 'APP_ENV=production locally without a database: refuses',
    source: { APP_ENV: 'production' },
    expected: { throws: /DATABASE_URL: required in production/ },
  },
  {
    name: "Netlify's build of a deploy preview: the preview's database, no secrets needed to build",
    source: {
      NETLIFY: 'true',
      CONTEXT: 'deploy-preview',
      DATABASE_URL: PRODUCTION_DB,
      PREVIEW_DATABASE_URL: PREVIEW_DB,
    },
    expected: { database: PREVIEW_DB, production: true, preview: true },
  },
  {
    name: "Netlify's build of production without DATABASE_URL: refuses",
    source: { NETLIFY: 'true', CONTEXT: 'production' },
    expected: { throws: /build, deploy context "production"[\s\S]*DATABASE_URL: required in production/ },
  },
  {
    name: 'the CLI building on a machine (netlify build, context production by default): local',
    source: { NETLIFY_LOCAL: 'true', CONTEXT: 'production' },
    expected: { database: undefined, production: false, preview: false },
  },
];

describe('parseEnv decides from what the process really receives', () => {
  it.each(cases)('$name', ({ source, deployContext, expected }) => {
    const parse = (): Env => parseEnv(source, { deployContext });
    if ('throws' in expected) {
      expect(parse).toThrow(expected.throws);
      return;
    }
    const env = parse();
    expect({ database: env.DATABASE_URL, production: isProduction(env), preview: isPreview(env) }).toEqual(expected);
  });
});
