/**
 * /admin/data's routes over real HTTP on both backends: the runs (newest first, one round trip),
 * Refresh now (202 with the queued run ids at once, 409 while a run runs), and uploads of a ZHVI
 * CSV and a RESO JSON file in chunks (the browser's own code, upload-chunks.ts), imported by the
 * background work with their progress, refused with nothing written when the caller is not an
 * admin, the file is not the kind it says, empty or too large, or its chunks are not all there.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATA_MESSAGES,
  dataRunsResponseSchema,
  dataStartedSchema,
  UPLOAD_CHUNK_BYTES,
  uploadChunkAnswerSchema,
} from '../../src/features/market/data-admin.ts';
import type { CsvSource, RefreshPlan } from '../../src/features/market/feeds.server.ts';
import { SETTINGS_MESSAGES } from '../../src/features/settings/settings-messages.ts';
import { allTowns } from '../../src/features/towns/town-data.ts';
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
import { uploadThroughRoutes } from '../support/market-uploads.ts';
import { UploadError } from '../../src/features/market/upload-chunks.ts';

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
const uploadCount = async (suite: AuthSuite) =>
  (await suite.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM market_uploads`))[0]?.n ?? 0;

/** A chunk's address; `query` defaults to a ZHVI file of the sample's size. */
const chunkPath = (
  upload: string,
  index: number | string,
  query = `?source=zhvi&name=zhvi.csv&size=${SAMPLE_ZHVI.length}`,
) => `/api/admin/data/uploads/${upload}/chunks/${index}${query}`;

/** The message an upload through the screen's code is refused with. */
async function refusal(upload: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error: unknown = await upload.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof UploadError)) throw new Error(`expected an UploadError, got ${String(error)}`);
  return { status: error.status, message: error.message };
}

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
  const put = (client: Client, path: string, body: string) =>
    client.request(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', origin: suite.api.origin },
      body,
    });

  it('answers 401 signed out and 403 to an agent, who stages and writes nothing even with a file', async () => {
    const upload = crypto.randomUUID();
    const signedOut = suite.client();
    await expectError(await signedOut.get('/api/admin/data/runs'), 401);
    await expectError(await post(signedOut, '/api/admin/data/refresh', ''), 401);
    await expectError(await put(signedOut, chunkPath(upload, 0), CHANGED_ZHVI), 401);
    await expectError(await signedOut.post(`/api/admin/data/uploads/${upload}/complete`, { chunks: 1 }), 401);
    const agent = await clientAs(suite, (await createAgent(suite.db)).id);
    const before = await runCount(suite);
    await expectError(await agent.get('/api/admin/data/runs'), 403, SETTINGS_MESSAGES.siteWideOnly);
    await expectError(await post(agent, '/api/admin/data/refresh', ''), 403, SETTINGS_MESSAGES.siteWideOnly);
    await expectError(await put(agent, chunkPath(upload, 0), CHANGED_ZHVI), 403, SETTINGS_MESSAGES.siteWideOnly);
    // Not even told that the query lacks its source.
    await expectError(await put(agent, chunkPath(upload, 0, ''), CHANGED_ZHVI), 403, SETTINGS_MESSAGES.siteWideOnly);
    await expectError(
      await agent.post(`/api/admin/data/uploads/${upload}/complete`, { chunks: 1 }),
      403,
      SETTINGS_MESSAGES.siteWideOnly,
    );
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
    expect(await uploadCount(suite)).toBe(0);
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
    // Not worth sending a file to be refused after: its first chunk is refused already.
    expect(await refusal(uploadThroughRoutes(suite, admin, 'zhvi', 'zhvi.csv', CHANGED_ZHVI))).toEqual({
      status: 409,
      message: DATA_MESSAGES.running,
    });
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
    // An upload someone began two days ago and never completed; and one begun a minute ago.
    const [abandoned, recent] = [crypto.randomUUID(), crypto.randomUUID()];
    await expectJson(
      await put(admin, chunkPath(abandoned, 0), `${SAMPLE_ZHVI.split('\n')[0] ?? ''}\n`),
      200,
      uploadChunkAnswerSchema,
    );
    await expectJson(
      await put(admin, chunkPath(recent, 0), `${SAMPLE_ZHVI.split('\n')[0] ?? ''}\n`),
      200,
      uploadChunkAnswerSchema,
    );
    await suite.db.query(`UPDATE market_uploads SET created_at = now() - interval '2 days' WHERE id = $1`, [abandoned]);
    const ids = await uploadThroughRoutes(suite, admin, 'zhvi', 'zhvi-october.csv', CHANGED_ZHVI);
    expect(ids).toHaveLength(1);
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(runs[0]).toMatchObject({
      id: ids[0],
      source: 'zhvi',
      // The file's name, never a path on the server (minor 31).
      origin: 'Upload: zhvi-october.csv',
      status: 'succeeded',
      // Every row of the sample is a New York one: the browser sent them all.
      rows_read: SAMPLE_ZHVI.trim().split('\n').length - 1,
      error: null,
    });
    // The run names the towns whose figures it changed (minor 31).
    expect(runs[0]?.updated_towns).toContain('Garden City');
    expect(runs[0]?.updated_towns).toHaveLength(runs[0]?.towns_updated ?? -1);
    const [town] = await suite.db.query<{ cents: string }>(
      `SELECT typical_home_value_cents::text AS cents FROM town_market_data WHERE town_slug = 'garden-city'`,
    );
    expect(town?.cents).toBe('98765400');
    const [after] = await suite.db.query<{ changed_at: Date }>(`SELECT changed_at FROM site_changes`);
    expect(after?.changed_at.getTime()).toBeGreaterThan(before?.changed_at.getTime() ?? Infinity);
    // The staged file is gone once imported, and so is the abandoned one; the recent one stays.
    const left = await suite.db.query<{ id: string }>(`SELECT id::text FROM market_uploads`);
    expect(left.map((row) => row.id)).toEqual([recent]);
    await suite.db.query(`DELETE FROM market_uploads`);
  });

  it('imports an uploaded RESO JSON file: the sold homes of the towns', async () => {
    const admin = await newAdmin(suite);
    const towns = allTowns().filter((town) => town.slug === 'northport');
    const records = generateClosedSales({ towns, now: new Date(), perTown: 4, monthsBack: 3, keyPrefix: 'UPL' });
    const ids = await uploadThroughRoutes(suite, admin, 'sold', 'sold.json', JSON.stringify({ value: records }));
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(runs[0]).toMatchObject({
      id: ids[0],
      source: 'sold',
      status: 'succeeded',
      rows_read: 4,
      towns_updated: 1,
      updated_towns: ['Northport'],
    });
    const [sold] = await suite.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM town_sold_homes WHERE town_slug = 'northport' AND listing_key LIKE 'UPL%'`,
    );
    expect(sold?.n).toBe(4);
  });

  it('refuses a file of the wrong kind, an empty one or no kind with 400 at its first chunk, writing no run', async () => {
    const admin = await newAdmin(suite);
    const before = await runCount(suite);
    expect(await refusal(uploadThroughRoutes(suite, admin, 'zhvi', 'other.csv', 'name,price\nx,1\n'))).toEqual({
      status: 400,
      message:
        'The file: not a Zillow City file: column 1 is "name", expected "RegionID" (the header must start RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName)',
    });
    const json = JSON.stringify({ value: [] });
    const jsonAsCsv = await refusal(uploadThroughRoutes(suite, admin, 'zhvi', 'a.csv', json));
    expect(jsonAsCsv.message).toMatch(/^The file: the header is not valid CSV/);
    expect(await refusal(uploadThroughRoutes(suite, admin, 'sold', 'zhvi.json', SAMPLE_ZHVI))).toEqual({
      status: 400,
      message: DATA_MESSAGES.notJson,
    });
    expect(await refusal(uploadThroughRoutes(suite, admin, 'zhvi', 'empty.csv', ''))).toEqual({
      status: 400,
      message: DATA_MESSAGES.empty,
    });
    const upload = crypto.randomUUID();
    await expectError(await put(admin, chunkPath(upload, 0), ''), 400, DATA_MESSAGES.emptyChunk);
    await expectError(
      await put(admin, chunkPath(upload, 0, '?name=a.csv&size=9'), SAMPLE_ZHVI),
      400,
      DATA_MESSAGES.chooseKind,
    );
    await expectError(
      await put(admin, chunkPath(upload, 0, '?source=inventory&name=a.csv&size=9'), SAMPLE_ZHVI),
      400,
      DATA_MESSAGES.chooseKind,
    );
    await expectError(
      await put(admin, chunkPath(upload, 0, '?source=zhvi&name=a.csv&size=0'), 'x'),
      400,
      DATA_MESSAGES.empty,
    );
    await expectError(await put(admin, chunkPath('not-a-uuid', 0), SAMPLE_ZHVI), 400, DATA_MESSAGES.uploadId);
    await expectError(await put(admin, chunkPath(upload, -1), SAMPLE_ZHVI), 400, DATA_MESSAGES.chunkIndex);
    await expectError(
      await admin.post(`/api/admin/data/uploads/${upload}/complete`, { chunks: 0 }),
      400,
      DATA_MESSAGES.chunkCount,
    );
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
  });

  it('a RESO file that is JSON but not a RESO response fails its run, saying why', async () => {
    const admin = await newAdmin(suite);
    const [id] = await uploadThroughRoutes(suite, admin, 'sold', 'rows.json', '{"rows": 1}');
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(runs.find((run) => run.id === id)).toMatchObject({
      status: 'failed',
      error:
        'Could not import the uploaded file rows.json: The file is not a RESO response ({ "value": [...] }). Nothing was changed; the last good data stays.',
    });
  });

  it('refuses a file over its limit (400, by its declared size) and a chunk over 4,000,000 bytes (413), with or without Content-Length', async () => {
    const admin = await newAdmin(suite);
    const before = await runCount(suite);
    const upload = crypto.randomUUID();
    const tooBig = `?source=sold&name=big.json&size=${51 * 1024 * 1024}`;
    await expectError(await put(admin, chunkPath(upload, 0, tooBig), '{}'), 400, DATA_MESSAGES.tooLarge('sold'));
    const allowed = `?source=sold&name=big.json&size=${50 * 1024 * 1024}`;
    await expectError(
      await put(admin, chunkPath(upload, 0, allowed), `{${' '.repeat(UPLOAD_CHUNK_BYTES)}`),
      413,
      DATA_MESSAGES.chunkTooLarge,
    );
    const megabyte = Buffer.alloc(1024 * 1024, 0x20);
    const streamed = await rawRequest(suite.api.origin, chunkPath(upload, 1, allowed), {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        origin: suite.api.origin,
        cookie: `${SESSION_COOKIE}=${admin.session ?? ''}`,
        [IP_HEADER]: admin.ip,
        'transfer-encoding': 'chunked',
      },
      chunks: Array.from({ length: 4 }, () => megabyte),
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: DATA_MESSAGES.chunkTooLarge });
    // Chunks that add up to more than the file said it was.
    const small = crypto.randomUUID();
    const smallQuery = '?source=sold&name=small.json&size=10';
    await expectJson(await put(admin, chunkPath(small, 0, smallQuery), '{"value":'), 200, uploadChunkAnswerSchema);
    await expectError(await put(admin, chunkPath(small, 1, smallQuery), '[]}'), 413, DATA_MESSAGES.stagedTooLarge);
    // A first chunk larger than the whole file is refused and leaves no upload behind (the fuzz found one).
    const uploadsBefore = await uploadCount(suite);
    const oversized = crypto.randomUUID();
    await expectError(
      await put(admin, chunkPath(oversized, 0, '?source=sold&name=tiny.json&size=4'), '[false,[]]'),
      413,
      DATA_MESSAGES.stagedTooLarge,
    );
    expect(await uploadCount(suite)).toBe(uploadsBefore);
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
  });

  it('completes an upload only when every chunk declared arrived, once, and only for the admin who sent it', async () => {
    const admin = await newAdmin(suite);
    const other = await newAdmin(suite);
    const upload = crypto.randomUUID();
    const [header = '', ...rows] = CHANGED_ZHVI.trim().split('\n');
    const query = `?source=zhvi&name=parts.csv&size=${CHANGED_ZHVI.length}`;
    await expectJson(await put(admin, chunkPath(upload, 0, query), `${header}\n`), 200, uploadChunkAnswerSchema);
    await expectJson(
      await put(admin, chunkPath(upload, 2, query), `${rows.slice(1).join('\n')}\n`),
      200,
      uploadChunkAnswerSchema,
    );
    const complete = (client: Client, chunks: number) =>
      client.post(`/api/admin/data/uploads/${upload}/complete`, { chunks });
    await expectError(await complete(admin, 3), 409, DATA_MESSAGES.missingChunks(2, 3));
    // Another admin's chunk or completion finds no upload of theirs.
    await expectError(await put(other, chunkPath(upload, 1, query), 'x\n'), 404, DATA_MESSAGES.noUpload);
    await expectError(await complete(other, 1), 404, DATA_MESSAGES.noUpload);
    // The same upload as another kind or size.
    await expectError(
      await put(admin, chunkPath(upload, 1, `?source=sold&name=parts.csv&size=${CHANGED_ZHVI.length}`), '{}'),
      409,
      DATA_MESSAGES.otherKind,
    );
    await expectJson(await put(admin, chunkPath(upload, 1, query), `${rows[0] ?? ''}\n`), 200, uploadChunkAnswerSchema);
    const started = await expectJson(await complete(admin, 3), 202, dataStartedSchema);
    await expectError(await complete(admin, 3), 404, DATA_MESSAGES.noUpload);
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(runs.find((run) => run.id === started.run_ids[0])).toMatchObject({
      status: 'succeeded',
      rows_read: rows.length,
    });
  });

  it('names the towns a run updated, sorted, and none for a run that changed nothing (minor 31)', async () => {
    const admin = await newAdmin(suite);
    const first = await uploadThroughRoutes(suite, admin, 'zhvi', 'zhvi-first.csv', CHANGED_ZHVI);
    await suite.settle();
    // The same file again changes no town's figures.
    const again = await uploadThroughRoutes(suite, admin, 'zhvi', 'zhvi-again.csv', CHANGED_ZHVI);
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    const named = runs.find((run) => run.id === first[0]);
    const names = named?.updated_towns ?? [];
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(names).toHaveLength(named?.towns_updated ?? -1);
    expect(runs.find((run) => run.id === again[0])).toMatchObject({
      status: 'succeeded',
      towns_updated: 0,
      updated_towns: [],
    });
    // Stored as slugs, shown by the towns' names; a slug no longer among the towns keeps its slug.
    const [stored] = await suite.db.query<{ id: number }>(
      `INSERT INTO data_runs (source, origin, finished_at, status, towns_updated, updated_towns)
       VALUES ('zhvi', 'hand-made', now(), 'succeeded', 3, '{bay-shore,babylon,gone-town}') RETURNING id`,
    );
    const listed = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(listed.runs.find((run) => run.id === stored?.id)?.updated_towns).toEqual([
      'Babylon',
      'Bay Shore',
      'gone-town',
    ]);
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
