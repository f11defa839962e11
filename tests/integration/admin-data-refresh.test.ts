/**
 * /admin/data's access, Refresh now and runs over real HTTP on both backends: 401 signed out and
 * 403 to an agent with nothing staged or written; Refresh now (202 with the queued run ids at once,
 * 409 while a run runs, the run listed while it runs); the runs, newest first, in one round trip.
 */
import { describe, expect, it } from 'vitest';
import { DATA_MESSAGES, dataRunsResponseSchema, dataStartedSchema } from '../../src/features/market/data-admin.ts';
import { SETTINGS_MESSAGES } from '../../src/features/settings/settings-messages.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import {
  CHANGED_ZHVI,
  chunkPath,
  heldFeed,
  newAdmin,
  refusal,
  runCount,
  uploadCount,
  useAdminDataSuite,
} from '../support/admin-data-suite.ts';
import { clientAs } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { uploadThroughRoutes } from '../support/market-uploads.ts';

describe.each(BACKENDS)('/admin/data on %s', (backend) => {
  const { suite, post, put, holdFeeds } = useAdminDataSuite(backend);

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
    holdFeeds(plan, release);
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
