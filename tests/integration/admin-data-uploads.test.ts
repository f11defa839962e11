/**
 * Uploads on /admin/data over real HTTP on both backends: a ZHVI CSV and a RESO JSON file sent in
 * chunks (the browser's own code, upload-chunks.ts) and imported by the background work (the
 * town's figures and sold homes, a rebuild needed, abandoned uploads cleared), a RESO file that is
 * no RESO response failing its run, completion only with every chunk from the admin who sent them,
 * and the towns each run updated.
 */
import { describe, expect, it } from 'vitest';
import {
  DATA_MESSAGES,
  dataRunsResponseSchema,
  dataStartedSchema,
  uploadChunkAnswerSchema,
} from '../../src/features/market/data-admin.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { generateClosedSales } from '../fakes/reso.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { CHANGED_ZHVI, chunkPath, newAdmin, SAMPLE_ZHVI, useAdminDataSuite } from '../support/admin-data-suite.ts';
import type { Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { uploadThroughRoutes } from '../support/market-uploads.ts';

describe.each(BACKENDS)('/admin/data on %s', (backend) => {
  const { suite, put } = useAdminDataSuite(backend);

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
});
