/**
 * The sample market data of a new local install (data/sample/, seeded by `npm start` through
 * scripts/seed.ts): imported through the real pipeline on the embedded local default only, marked
 * as sample for the town pages, never on a configured database or in production, and replaced by a
 * real import.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resoFileSource } from '../../src/features/market/reso-file-source.server.ts';
import { refreshMarketData } from '../../src/features/market/refresh.server.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { readTowns } from '../../src/app/build-data.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { seedSampleMarketData } from '../../src/app/seed.ts';
import { generateClosedSales } from '../fakes/reso.ts';
import { zhviCsvText } from '../fakes/zillow.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';

const SAMPLE_TOWNS = [
  'babylon',
  'garden-city',
  'huntington',
  'massapequa',
  'northport',
  'patchogue',
  'port-washington',
  'southampton',
];

/** The town pages' data as a build reads it (readTowns, not the build's memoised loadTowns). */
const townPages = (test: TestDatabase) => readTowns(test.db);

describe.each(BACKENDS)('sample market data on %s', (backend) => {
  let test: TestDatabase;
  const marketRows = () =>
    test.db.query<{ town_slug: string; sample: boolean }>(
      'SELECT town_slug, sample FROM town_market_data ORDER BY town_slug COLLATE "C"',
    );
  const soldRows = () =>
    test.db.query<{ town_slug: string; sample: boolean; listing_office: string | null }>(
      'SELECT town_slug, sample, listing_office FROM town_sold_homes ORDER BY listing_key',
    );

  beforeEach(async () => {
    test = await openTestDatabase(backend, 'sample-market');
  });
  afterEach(async () => {
    await test.close();
  });

  it('a new local install gets the sample files through the pipeline, marked as sample on the town pages', async () => {
    const runs = await seedSampleMarketData(test.db, parseEnv({}));
    expect(runs?.map((run) => [run.source, run.status, run.townsUpdated])).toEqual([
      ['zhvi', 'succeeded', 8],
      ['sold', 'succeeded', 8],
    ]);
    expect(await marketRows()).toEqual(SAMPLE_TOWNS.map((town_slug) => ({ town_slug, sample: true })));
    const sold = await soldRows();
    expect(sold).toHaveLength(32);
    expect(sold.every((row) => row.sample && row.listing_office === 'Sample Realty (fictional)')).toBe(true);

    const pages = await townPages(test);
    const gardenCity = pages.find((town) => town.slug === 'garden-city');
    expect(gardenCity?.market?.sample).toBe(true);
    expect(gardenCity?.market?.zhviRange).toHaveLength(24);
    expect(gardenCity?.recentSales.map((sale) => sale.sample)).toEqual([true, true, true]);
    const bayShore = pages.find((town) => town.slug === 'bay-shore');
    expect(bayShore?.market).toBeNull();
    expect(bayShore?.recentSales).toEqual([]);

    // Once there is data, a later start leaves it alone.
    expect(await seedSampleMarketData(test.db, parseEnv({}))).toBeNull();
    expect(await test.db.query('SELECT 1 FROM data_runs')).toHaveLength(2);
  });

  it('never seeds in production or on a configured database', async () => {
    const databaseUrl = 'postgres://user:password@db.example.com/site';
    for (const env of [
      { APP_ENV: 'production', DATABASE_URL: databaseUrl },
      // Netlify's builds: production, and a deploy preview on its own database (decision 0030).
      { NETLIFY: 'true', CONTEXT: 'production', DATABASE_URL: databaseUrl },
      { NETLIFY: 'true', CONTEXT: 'deploy-preview', PREVIEW_DATABASE_URL: databaseUrl },
      { DATABASE_URL: databaseUrl },
    ]) {
      expect(await seedSampleMarketData(test.db, parseEnv(env))).toBeNull();
    }
    expect(await marketRows()).toEqual([]);
    expect(await soldRows()).toEqual([]);
    expect(await test.db.query('SELECT 1 FROM data_runs')).toEqual([]);
  });

  it('a real import replaces the sample rows of the towns it covers, and the mark goes with them', async () => {
    await seedSampleMarketData(test.db, parseEnv({}));
    const huntington = allTowns().filter((town) => town.slug === 'huntington');
    const csv = zhviCsvText({ towns: huntington.map(({ name, county }) => ({ name, county })), months: 24 });
    const now = new Date();
    const { runs } = await refreshMarketData(test.db, {
      zhvi: { origin: 'zhvi.csv', open: () => Promise.resolve(Readable.from([csv])) },
      sold: resoFileSource({ value: generateClosedSales({ towns: huntington, now, perTown: 2 }) }, 'sold.json'),
    });
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);

    const market = await marketRows();
    expect(market.find((row) => row.town_slug === 'huntington')).toEqual({ town_slug: 'huntington', sample: false });
    expect(market.filter((row) => row.sample).map((row) => row.town_slug)).toEqual(
      SAMPLE_TOWNS.filter((slug) => slug !== 'huntington'),
    );
    // The first real sold-homes sync is a full load: it is the whole truth, the sample sales go.
    expect(await soldRows()).toEqual([
      expect.objectContaining({ town_slug: 'huntington', sample: false }),
      expect.objectContaining({ town_slug: 'huntington', sample: false }),
    ]);
    const pages = await townPages(test);
    const page = pages.find((town) => town.slug === 'huntington');
    expect(page?.market?.sample).toBe(false);
    expect(page?.recentSales.every((sale) => !sale.sample)).toBe(true);
  });
});

describe("the README's sample command, npm run data:refresh -- --zhvi data/sample/zhvi.csv --sold data/sample/sold.json", () => {
  const refresh = (env: Record<string, string>) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/data-refresh.ts',
        '--zhvi',
        'data/sample/zhvi.csv',
        '--sold',
        'data/sample/sold.json',
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } },
    );

  it('imports them locally as sample data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sample-refresh-'));
    try {
      const run = refresh({ DATA_DIR: dataDir });
      expect(run.stdout).toContain('zhvi from data/sample/zhvi.csv: succeeded');
      expect(run.status).toBe(0);
      const db = await openDatabase(parseEnv({ DATA_DIR: dataDir }));
      try {
        const rows = await db.query<{ sample: boolean; n: number }>(
          `SELECT sample, count(*)::int AS n FROM (SELECT sample FROM town_market_data
                                                  UNION ALL SELECT sample FROM town_sold_homes) r GROUP BY sample`,
        );
        expect(rows).toEqual([{ sample: true, n: 8 + 32 }]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses them in production, before touching the database', () => {
    const run = refresh({ APP_ENV: 'production', DATABASE_URL: 'postgres://user:password@127.0.0.1:1/none' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('fictional sample data: they are not imported in production');
  });
});
