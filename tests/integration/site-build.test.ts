/**
 * Rebuilds of the static site over real HTTP on both backends: GET and POST /api/admin/site-build
 * (admins only), the build hook's 2xx/500/429 through the fake hook, one build at a time with
 * ONE follow-up however often Rebuild is pressed, the automatic rebuild's debounce on an injected
 * clock, and the local build: a new folder from a snapshot of the data, swapped in while serving.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  localBuilder,
  prepareBuildFolders,
  recordServedBuild,
  type RunBuild,
} from '../../src/app/local-build.server.ts';
import {
  hookBuilder,
  rebuildWhenDue,
  readBuildState,
  siteBuilds,
  type SiteBuilds,
} from '../../src/features/site-build/site-build.server.ts';
import { siteBuildResponseSchema, siteBuildStartedSchema } from '../../src/features/site-build/public/site-build.ts';
import { SETTINGS_MESSAGES } from '../../src/features/settings/settings-messages.ts';
import { siteFolder } from '../../src/app/site-server.ts';
import { startFakeBuildHook, type FakeBuildHook } from '../fakes/build-hook.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type AuthSuite } from '../support/auth-suite.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { startApi, type RunningApi } from '../support/http.ts';

const DEBOUNCE = 60_000;

async function newAdmin(suite: AuthSuite) {
  const admin = await createAgent(suite.db, { first_name: 'Alex', last_name: 'Admin', is_admin: true });
  return admin;
}

const buildRows = (suite: { db: AuthSuite['db'] }) =>
  suite.db.query<{
    id: number;
    trigger: string;
    requested_by: number | null;
    mode: string;
    status: string;
    error: string | null;
    started_at: Date;
    finished_at: Date | null;
  }>(`SELECT id, trigger, requested_by, mode, status, error, started_at, finished_at FROM site_builds ORDER BY id`);

/** The change time, as a town page's data write sets it (the trigger of migration 0015). */
async function changeTown(db: AuthSuite['db']): Promise<Date> {
  await db.query(`UPDATE towns SET description = description || ' ' WHERE slug = (SELECT min(slug) FROM towns)`);
  const [row] = await db.query<{ changed_at: Date }>(`SELECT changed_at FROM site_changes`);
  if (!row) throw new Error('no site_changes row');
  return row.changed_at;
}

describe.each(BACKENDS)('site rebuilds on %s', (backend) => {
  let hook: FakeBuildHook;
  let builds: SiteBuilds;
  // The app is built once per suite; each test gets builds of its own behind this.
  const current: SiteBuilds = {
    mode: 'hook',
    request: (trigger, requestedBy) => builds.request(trigger, requestedBy),
    idle: () => builds.idle(),
  };
  const suite = useAuthSuite(backend, 'site-build', { siteBuilds: current });

  beforeAll(async () => {
    hook = await startFakeBuildHook();
  });
  afterAll(() => hook.close());
  beforeEach(async () => {
    await suite.db.query('DELETE FROM site_builds');
    builds = siteBuilds(suite.db, hookBuilder(hook.url));
  });
  afterEach(async () => {
    await builds.idle();
    await suite.settle();
  });

  it('answers 401 signed out and 403 to an agent, and an agent’s Rebuild now builds nothing', async () => {
    const signedOut = suite.client();
    await expectError(await signedOut.get('/api/admin/site-build'), 401);
    await expectError(await signedOut.post('/api/admin/site-build'), 401);
    const agent = await clientAs(suite, (await createAgent(suite.db)).id);
    await expectError(await agent.get('/api/admin/site-build'), 403, SETTINGS_MESSAGES.siteWideOnly);
    const before = hook.requests;
    await expectError(await agent.post('/api/admin/site-build'), 403, SETTINGS_MESSAGES.siteWideOnly);
    await builds.idle();
    expect(hook.requests).toBe(before);
    expect(await buildRows(suite)).toEqual([]);
  });

  it('says a rebuild is needed until a build includes the last change, in one round trip', async () => {
    const admin = await clientAs(suite, (await newAdmin(suite)).id);
    const before = suite.db.roundTrips;
    const first = await expectJson(await admin.get('/api/admin/site-build'), 200, siteBuildResponseSchema);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(first).toMatchObject({ needs_rebuild: true, last_build: null, last_succeeded_at: null });

    await suite.db.query(
      `INSERT INTO site_builds (trigger, mode, data_at, finished_at, status)
       SELECT 'auto', 'local', changed_at, now(), 'succeeded' FROM site_changes`,
    );
    const built = await expectJson(await admin.get('/api/admin/site-build'), 200, siteBuildResponseSchema);
    expect(built.needs_rebuild).toBe(false);
    expect(built.last_build?.status).toBe('succeeded');

    const changedAt = await changeTown(suite.db);
    const changed = await expectJson(await admin.get('/api/admin/site-build'), 200, siteBuildResponseSchema);
    expect(changed.needs_rebuild).toBe(true);
    expect(new Date(changed.changed_at).getTime()).toBe(changedAt.getTime());
  });

  it('Rebuild now calls the build hook (202) and records the admin’s succeeded hook build', async () => {
    const adminRow = await newAdmin(suite);
    const admin = await clientAs(suite, adminRow.id);
    await changeTown(suite.db);
    const before = hook.builds;
    const started = await expectJson(await admin.post('/api/admin/site-build'), 202, siteBuildStartedSchema);
    expect(started.queued).toBe(false);
    expect(started.last_build).toMatchObject({ trigger: 'button', mode: 'hook' });
    await builds.idle();
    expect(hook.builds).toBe(before + 1);
    expect(await buildRows(suite)).toMatchObject([
      { trigger: 'button', requested_by: adminRow.id, mode: 'hook', status: 'succeeded', error: null },
    ]);
    const after = await expectJson(await admin.get('/api/admin/site-build'), 200, siteBuildResponseSchema);
    expect(after).toMatchObject({ needs_rebuild: false, last_build: { status: 'succeeded' } });
  });

  it.each([500, 429] as const)('records a build the hook answered %s as failed, with the answer', async (status) => {
    const admin = await clientAs(suite, (await newAdmin(suite)).id);
    hook.fail(status);
    await expectJson(await admin.post('/api/admin/site-build'), 202, siteBuildStartedSchema);
    await builds.idle();
    const state = await expectJson(await admin.get('/api/admin/site-build'), 200, siteBuildResponseSchema);
    expect(state).toMatchObject({
      needs_rebuild: true,
      last_build: { status: 'failed', error: `The build hook answered ${status}` },
      last_succeeded_at: null,
    });
  });

  it('coalesces presses during a build into ONE follow-up build, never two at once', async () => {
    const admin = await clientAs(suite, (await newAdmin(suite)).id);
    const release = hook.hold();
    const before = hook.builds;
    const first = await expectJson(await admin.post('/api/admin/site-build'), 202, siteBuildStartedSchema);
    const more = await Promise.all([1, 2, 3].map(() => admin.post('/api/admin/site-build')));
    expect(first.queued).toBe(false);
    for (const response of more) expect((await expectJson(response, 202, siteBuildStartedSchema)).queued).toBe(true);
    // Another process (another function instance) cannot start a second build either.
    const elsewhere = siteBuilds(suite.db, hookBuilder(hook.url));
    expect(await elsewhere.request('button', null)).toEqual({ queued: true });
    expect((await buildRows(suite)).filter((row) => row.status === 'running')).toHaveLength(1);
    release();
    await builds.idle();
    expect(hook.builds).toBe(before + 2);
    const rows = await buildRows(suite);
    expect(rows.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
    const [one, two] = rows;
    expect(two?.started_at.getTime()).toBeGreaterThanOrEqual(one?.finished_at?.getTime() ?? Infinity);
  });

  it('builds automatically once changes have settled: several saves in the window make one build', async () => {
    const t0 = await changeTown(suite.db);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await rebuildWhenDue(suite.db, builds, { debounceMs: DEBOUNCE, now: at(1000) })).toBe('settling');
    // A second save 30 s later: the window starts again from it.
    await suite.db.query(`UPDATE site_changes SET changed_at = $1`, [at(30_000)]);
    expect(await rebuildWhenDue(suite.db, builds, { debounceMs: DEBOUNCE, now: at(DEBOUNCE) })).toBe('settling');
    expect(await buildRows(suite)).toEqual([]);
    expect(await rebuildWhenDue(suite.db, builds, { debounceMs: DEBOUNCE, now: at(30_000 + DEBOUNCE) })).toBe(
      'started',
    );
    await builds.idle();
    expect(await rebuildWhenDue(suite.db, builds, { debounceMs: DEBOUNCE, now: at(10 * DEBOUNCE) })).toBe('up to date');
    expect(await buildRows(suite)).toMatchObject([{ trigger: 'auto', requested_by: null, status: 'succeeded' }]);
  });

  it('does not start an automatic build while one runs, nor retry data that failed to build', async () => {
    const t0 = await changeTown(suite.db);
    const later = new Date(t0.getTime() + DEBOUNCE);
    const release = hook.hold();
    expect(await rebuildWhenDue(suite.db, builds, { debounceMs: DEBOUNCE, now: later })).toBe('started');
    expect(await rebuildWhenDue(suite.db, builds, { debounceMs: DEBOUNCE, now: later })).toBe('running');
    hook.fail(500);
    release();
    await builds.idle();
    expect(await rebuildWhenDue(suite.db, builds, { debounceMs: DEBOUNCE, now: later })).toBe('failed before');
    expect((await readBuildState(suite.db)).last_build?.status).toBe('failed');
    expect(await buildRows(suite)).toHaveLength(1);
  });
});

describe.each(BACKENDS)('the local rebuild on %s', (backend) => {
  let test: TestDatabase;
  let api: RunningApi;
  let root: string;
  beforeAll(async () => {
    test = await openTestDatabase(backend, 'local-build');
  });
  afterAll(() => test.close());
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'site-build-'));
  });
  afterEach(() => api.close());

  /** A served `dist` as `npm start` leaves it, made the symlink into the builds folder. */
  async function serving(runBuild: RunBuild) {
    const dist = join(root, 'dist');
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), 'old site');
    writeFileSync(join(dist, 'build.json'), JSON.stringify({ data_at: new Date(0).toISOString() }));
    const buildsDir = join(root, 'builds');
    prepareBuildFolders(dist, buildsDir);
    const folder = siteFolder(realpathSync(dist));
    const builds = siteBuilds(
      test.db,
      localBuilder({ db: test.db, folder, link: dist, buildsDir, runBuild, graceMs: 0 }),
    );
    api = await startApi({ db: test.db }, { siteDir: folder });
    return { dist, builds, oldDir: folder.site.root };
  }

  it('builds from a snapshot into a new folder while the old one serves, then swaps it in', async () => {
    const snapshotSchema = z.object({
      dataAt: z.string(),
      data: z.object({
        chrome: z.object({ seo: z.object({ title: z.string() }) }),
        towns: z.array(z.object({ slug: z.string() })),
      }),
    });
    let startBuild = () => {};
    const building = new Promise<void>((resolve) => (startBuild = resolve));
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const { dist, builds, oldDir } = await serving(async (outDir, snapshotFile) => {
      const snapshot = snapshotSchema.parse(JSON.parse(readFileSync(snapshotFile, 'utf8')));
      startBuild();
      await finished;
      await writeFile(join(outDir, 'index.html'), `new site: ${snapshot.data.towns.length} towns`);
    });
    await changeTown(test.db);
    await builds.request('auto', null);
    await building;
    expect(await (await api.fetch('/')).text()).toBe('old site');
    finish();
    await builds.idle();

    const [count] = await test.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM towns`);
    expect(await (await api.fetch('/')).text()).toBe(`new site: ${count?.n} towns`);
    expect(realpathSync(dist)).not.toBe(oldDir);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toContain('new site');
    await expect.poll(() => existsSync(oldDir)).toBe(false);
    const state = await readBuildState(test.db);
    expect(state).toMatchObject({ needs_rebuild: false, last_build: { mode: 'local', status: 'succeeded' } });
  });

  it('keeps the old site serving when the build fails, and records the error', async () => {
    const { dist, builds, oldDir } = await serving(() =>
      Promise.reject(new Error('astro build failed (exit code 1): boom')),
    );
    await changeTown(test.db);
    await builds.request('button', null);
    await builds.idle();
    expect(await (await api.fetch('/')).text()).toBe('old site');
    expect(realpathSync(dist)).toBe(oldDir);
    const state = await readBuildState(test.db);
    expect(state).toMatchObject({
      needs_rebuild: true,
      last_build: { status: 'failed', error: 'astro build failed (exit code 1): boom' },
    });
  });

  it('records the served build on start, so a fresh build is up to date', async () => {
    await test.db.query('DELETE FROM site_builds');
    const [change] = await test.db.query<{ changed_at: string }>(
      `SELECT to_json(changed_at) #>> '{}' AS changed_at FROM site_changes`,
    );
    api = await startApi({ db: test.db });
    expect((await readBuildState(test.db)).needs_rebuild).toBe(true);
    await recordServedBuild(test.db, change?.changed_at);
    await recordServedBuild(test.db, change?.changed_at);
    expect(await readBuildState(test.db)).toMatchObject({ needs_rebuild: false, last_build: { status: 'succeeded' } });
    const [rows] = await test.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM site_builds`);
    expect(rows?.n).toBe(1);
  });
});
