/**
 * /admin/data's routes over real HTTP on both backends: the runs (newest first, one round trip),
 * Refresh now (202 with the run ids at once, 409 while a run runs), and uploads of a ZHVI CSV and a
 * RESO JSON file imported in the background with their progress, refused with nothing written when
 * the caller is not an admin, the file is not the kind it says, empty or too large.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_MESSAGES, dataRunsResponseSchema, dataStartedSchema } from '../../src/features/market/data-admin.ts';
import type { CsvSource, RefreshPlan } from '../../src/features/market/refresh.server.ts';
import { SETTINGS_MESSAGES } from '../../src/features/settings/agent-settings.ts';
import { TOWNS } from '../../src/features/towns/town-data.ts';
import { generateClosedSales } from '../fakes/reso.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import {
  clientAs,
  IP_HEADER,
  SESSION_COOKIE,
  useAuthSuite,
  type AuthSuite,
  type Client,
} from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { rawRequest } from '../support/http.ts';

const SAMPLE_ZHVI = readFileSync('data/sample/zhvi.csv', 'utf8');
/** The sample file with Garden City's latest value changed to $987,654. */
const CHANGED_ZHVI = SAMPLE_ZHVI.replace(/^(900000,.*,)\d+(\.\d+)?$/m, '$1987654');

/** A feed that sends the header and a row, then waits until released (a refresh that is running). */
function heldFeed(): { plan: RefreshPlan; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const [header = '', row = ''] = SAMPLE_ZHVI.split('\n');
  const zhvi: CsvSource = {
    origin: 'https://feeds.example/zhvi.csv',
    // eslint-disable-next-line @typescript-eslint/require-await -- an async stream like a download's
    open: async () =>
      (async function* () {
        yield `${header}\n${row}\n`;
        await held;
      })(),
  };
  return { plan: { zhvi }, release };
}

let feeds: () => RefreshPlan = () => ({});
/** Ends a held feed's run, also when its test failed (the suite waits for background work). */
let releaseHeld = () => {};

async function newAdmin(suite: AuthSuite): Promise<Client> {
  const admin = await createAgent(suite.db, { is_admin: true });
  return clientAs(suite, admin.id);
}

const runCount = async (suite: AuthSuite) =>
  (await suite.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM data_runs`))[0]?.n ?? 0;

describe.each(BACKENDS)('/admin/data on %s', (backend) => {
  const suite = useAuthSuite(backend, 'admin-data', { marketFeeds: () => feeds() });
  // Runs before the suite's own afterEach, which waits for the background imports.
  afterEach(() => {
    releaseHeld();
    feeds = () => ({});
  });
  // The requests carry the API's own origin (the CSRF check), as the screen's do.
  const post = (client: Client, path: string, body: string, query = '', type = 'text/csv') =>
    client.request(`${path}${query}`, {
      method: 'POST',
      headers: { 'content-type': type, origin: suite.api.origin },
      body,
    });

  it('answers 401 signed out and 403 to an agent, who writes no run even with a file', async () => {
    const signedOut = suite.client();
    await expectError(await signedOut.get('/api/admin/data/runs'), 401);
    await expectError(await post(signedOut, '/api/admin/data/refresh', ''), 401);
    await expectError(await post(signedOut, '/api/admin/data/upload', CHANGED_ZHVI, '?source=zhvi'), 401);
    const agent = await clientAs(suite, (await createAgent(suite.db)).id);
    const before = await runCount(suite);
    await expectError(await agent.get('/api/admin/data/runs'), 403, SETTINGS_MESSAGES.siteWideOnly);
    await expectError(await post(agent, '/api/admin/data/refresh', ''), 403, SETTINGS_MESSAGES.siteWideOnly);
    // Not even told that the query lacks its source.
    await expectError(await post(agent, '/api/admin/data/upload', CHANGED_ZHVI), 403, SETTINGS_MESSAGES.siteWideOnly);
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
  });

  it('Refresh now answers 202 with the run ids at once, refuses a second refresh while one runs, then shows the result', async () => {
    const admin = await newAdmin(suite);
    const { plan, release } = heldFeed();
    releaseHeld = release;
    feeds = () => plan;
    const started = await expectJson(await post(admin, '/api/admin/data/refresh', ''), 202, dataStartedSchema);
    expect(started.run_ids).toHaveLength(1);
    const before = await runCount(suite);
    await expectError(await post(admin, '/api/admin/data/refresh', ''), 409, DATA_MESSAGES.running);
    await expectError(
      await post(admin, '/api/admin/data/upload', CHANGED_ZHVI, '?source=zhvi'),
      409,
      DATA_MESSAGES.running,
    );
    expect(await runCount(suite)).toBe(before);

    // The run is listed while it runs, with the rows it has read so far.
    await expect
      .poll(async () => {
        const { runs, running } = await expectJson(
          await admin.get('/api/admin/data/runs'),
          200,
          dataRunsResponseSchema,
        );
        return { running, run: runs.find((run) => run.id === started.run_ids[0]) };
      })
      .toMatchObject({ running: true, run: { status: 'running', rows_read: 1, source: 'zhvi' } });
    release();
    await suite.settle();
    const { runs, running } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(running).toBe(false);
    expect(runs[0]).toMatchObject({ id: started.run_ids[0], status: 'succeeded', rows_read: 1, towns_updated: 1 });
  });

  it('imports an uploaded ZHVI CSV in the background: the town’s figure changes and the site needs a rebuild', async () => {
    const admin = await newAdmin(suite);
    const [before] = await suite.db.query<{ changed_at: Date }>(`SELECT changed_at FROM site_changes`);
    const started = await expectJson(
      await post(admin, '/api/admin/data/upload', CHANGED_ZHVI, '?source=zhvi&name=zhvi-october.csv'),
      202,
      dataStartedSchema,
    );
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(runs[0]).toMatchObject({
      id: started.run_ids[0],
      source: 'zhvi',
      origin: 'Uploaded file zhvi-october.csv',
      status: 'succeeded',
      rows_read: SAMPLE_ZHVI.trim().split('\n').length - 1,
      error: null,
    });
    const [town] = await suite.db.query<{ cents: string }>(
      `SELECT typical_home_value_cents::text AS cents FROM town_market_data WHERE town_slug = 'garden-city'`,
    );
    expect(town?.cents).toBe('98765400');
    const [after] = await suite.db.query<{ changed_at: Date }>(`SELECT changed_at FROM site_changes`);
    expect(after?.changed_at.getTime()).toBeGreaterThan(before?.changed_at.getTime() ?? Infinity);
  });

  it('imports an uploaded RESO JSON file: the sold homes of the towns', async () => {
    const admin = await newAdmin(suite);
    const towns = TOWNS.filter((town) => town.slug === 'northport');
    const records = generateClosedSales({ towns, now: new Date(), perTown: 4, monthsBack: 3, keyPrefix: 'UPL' });
    const started = await expectJson(
      await post(
        admin,
        '/api/admin/data/upload',
        JSON.stringify({ value: records }),
        '?source=sold&name=sold.json',
        'application/json',
      ),
      202,
      dataStartedSchema,
    );
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(runs[0]).toMatchObject({ id: started.run_ids[0], source: 'sold', status: 'succeeded', rows_read: 4 });
    const [sold] = await suite.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM town_sold_homes WHERE town_slug = 'northport' AND listing_key LIKE 'UPL%'`,
    );
    expect(sold?.n).toBe(4);
  });

  it('refuses a file of the wrong kind, an empty one or no kind with 400, writing no run', async () => {
    const admin = await newAdmin(suite);
    const before = await runCount(suite);
    const otherCsv = await expectError(
      await post(admin, '/api/admin/data/upload', 'name,price\nx,1\n', '?source=zhvi'),
      400,
    );
    expect(otherCsv.error).toBe(
      'The file: not a Zillow City file: column 1 is "name", expected "RegionID" (the header must start RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName)',
    );
    const json = JSON.stringify({ value: [] });
    const jsonAsCsv = await expectError(await post(admin, '/api/admin/data/upload', json, '?source=zhvi'), 400);
    expect(jsonAsCsv.error).toMatch(/^The file: the header is not valid CSV/);
    await expectError(
      await post(admin, '/api/admin/data/upload', SAMPLE_ZHVI, '?source=sold'),
      400,
      DATA_MESSAGES.notJson,
    );
    const notReso = await expectError(await post(admin, '/api/admin/data/upload', '{"rows": 1}', '?source=sold'), 400);
    expect(notReso.error).toBe('The file is not a RESO response ({ "value": [...] })');
    await expectError(await post(admin, '/api/admin/data/upload', '', '?source=zhvi'), 400, DATA_MESSAGES.empty);
    await expectError(await post(admin, '/api/admin/data/upload', SAMPLE_ZHVI), 400, DATA_MESSAGES.chooseKind);
    await expectError(
      await post(admin, '/api/admin/data/upload', SAMPLE_ZHVI, '?source=inventory'),
      400,
      DATA_MESSAGES.chooseKind,
    );
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
  });

  it('refuses a file over the limit with 413, by its Content-Length and while streaming one without', async () => {
    const admin = await newAdmin(suite);
    const before = await runCount(suite);
    const headers = {
      'content-type': 'application/json',
      origin: suite.api.origin,
      cookie: `${SESSION_COOKIE}=${admin.session ?? ''}`,
      [IP_HEADER]: admin.ip,
    };
    const tooBig = ' '.repeat(51 * 1024 * 1024);
    await expectError(
      await post(admin, '/api/admin/data/upload', tooBig, '?source=sold', 'application/json'),
      413,
      DATA_MESSAGES.tooLarge('sold'),
    );
    const megabyte = Buffer.alloc(1024 * 1024, 0x20);
    const streamed = await rawRequest(suite.api.origin, '/api/admin/data/upload?source=sold', {
      method: 'POST',
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 51 }, () => megabyte),
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: DATA_MESSAGES.tooLarge('sold') });
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
  });

  it('lists the newest 50 runs first, in one round trip', async () => {
    const admin = await newAdmin(suite);
    await suite.db.query(
      `INSERT INTO data_runs (source, origin, started_at, finished_at, status)
       SELECT 'zhvi', 'old run ' || n, now() - n * interval '1 minute', now(), 'succeeded' FROM generate_series(1, 55) n`,
    );
    const before = suite.db.roundTrips;
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(runs).toHaveLength(50);
    const times = runs.map((run) => Date.parse(run.started_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
