/**
 * The whole refresh as the scheduled function runs it: Zillow's file host and a RESO Web API (local
 * fakes), every run recorded in data_runs, a failing source leaving its previous data in place
 * while the other source still runs.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResoClient } from '../../src/features/market/reso-client.server.ts';
import { csvFromUrl } from '../../src/features/market/feeds.server.ts';
import { refreshMarketData } from '../../src/features/market/refresh.server.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { generateClosedSales, startFakeReso, type FakeReso } from '../fakes/reso.ts';
import { startFakeZillow, zhviCsvText, ZHVI_PATH, type FakeZillow } from '../fakes/zillow.ts';

const towns = allTowns().filter((town) => ['huntington', 'smithtown', 'bay-shore'].includes(town.slug));

describe.each(BACKENDS)('market refresh on %s', (backend) => {
  let test: TestDatabase;
  let zillow: FakeZillow;
  let reso: FakeReso;
  const sleeps: number[] = [];

  beforeAll(async () => {
    test = await openTestDatabase(backend, 'refresh');
    zillow = await startFakeZillow({
      [ZHVI_PATH]: zhviCsvText({
        towns: towns.map(({ name, county }) => ({ name, county })),
        months: 30,
        extraRows: 50,
      }),
    });
    reso = await startFakeReso();
    reso.properties = generateClosedSales({ towns, now: new Date(), perTown: 3, monthsBack: 6 });
  });
  afterAll(async () => {
    await zillow.close();
    await reso.close();
    await test.close();
  });

  const plan = () => ({
    zhvi: csvFromUrl(zillow.urlOf(ZHVI_PATH), fetch, (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    }),
    sold: createResoClient({
      baseUrl: reso.url,
      tokenUrl: reso.tokenUrl,
      clientId: reso.clientId,
      clientSecret: reso.clientSecret,
    }),
  });
  const runs = () =>
    test.db.query<{
      source: string;
      status: string;
      rows_read: number;
      towns_updated: number;
      changed: boolean;
      error: string | null;
    }>('SELECT source, status, rows_read, towns_updated, changed, error FROM data_runs ORDER BY id');
  const marketRows = () =>
    test.db.query<{ town_slug: string; typical_home_value_cents: number }>(
      'SELECT town_slug, typical_home_value_cents FROM town_market_data ORDER BY town_slug',
    );

  it('imports both sources, records each run, and says the pages need a rebuild', async () => {
    const result = await refreshMarketData(test.db, plan());
    expect(result.changed).toBe(true);
    expect(result.runs.map((run) => [run.source, run.status, run.townsUpdated])).toEqual([
      ['zhvi', 'succeeded', 3],
      ['sold', 'succeeded', 3],
    ]);
    expect((await marketRows()).map((row) => row.town_slug)).toEqual(['bay-shore', 'huntington', 'smithtown']);
    const sold = await test.db.query<{ count: number }>('SELECT count(*)::int AS count FROM town_sold_homes');
    expect(sold[0]?.count).toBe(9);
    expect(await runs()).toEqual([
      expect.objectContaining({ source: 'zhvi', status: 'succeeded', rows_read: 53, towns_updated: 3, changed: true }),
      expect.objectContaining({ source: 'sold', status: 'succeeded', towns_updated: 3, changed: true }),
    ]);
  });

  it('a second run with the same data changes nothing', async () => {
    const result = await refreshMarketData(test.db, plan());
    expect(result.changed).toBe(false);
  });

  it('waits out a 429 within the bound, then imports', async () => {
    zillow.trouble({ kind: 'rate-limit', retryAfter: 7 }, 1);
    const result = await refreshMarketData(test.db, { zhvi: plan().zhvi });
    expect(result.runs[0]?.status).toBe('succeeded');
    expect(sleeps).toContain(7000);
  });

  it('a failing source is recorded, keeps its old data, and the other source still runs', async () => {
    const before = await marketRows();
    zillow.trouble({ kind: 'server-error' }, 1);
    const cut = await refreshMarketData(test.db, plan());
    expect(cut.runs.map((run) => [run.source, run.status])).toEqual([
      ['zhvi', 'failed'],
      ['sold', 'succeeded'],
    ]);
    // In words, saying nothing changed (minor 31).
    expect(cut.runs[0]?.error).toBe(
      'Zillow’s research data (home values) answered with an error (HTTP 500). Nothing was changed; the last good data stays.',
    );
    expect(await marketRows()).toEqual(before);

    zillow.trouble({ kind: 'cut', afterBytes: 2000 }, 1);
    const broken = await refreshMarketData(test.db, { zhvi: plan().zhvi });
    expect(broken.runs[0]?.status).toBe('failed');
    expect(await marketRows()).toEqual(before);
    const recorded = await runs();
    expect(recorded.filter((run) => run.status === 'failed')).toHaveLength(2);
  });
  it('a feed that cannot be reached is said in words, not "fetch failed" (minor 31)', async () => {
    const before = await marketRows();
    // A port that was just free: nothing listens there, so the connection is refused.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 9));
      });
    });
    const result = await refreshMarketData(test.db, { zhvi: csvFromUrl(`http://127.0.0.1:${closed}/zhvi.csv`) });
    expect(result.runs[0]).toMatchObject({
      status: 'failed',
      error:
        'Could not reach Zillow’s research data (home values) (network error). Nothing was changed; the last good data stays.',
    });
    expect(await marketRows()).toEqual(before);
  });
});
