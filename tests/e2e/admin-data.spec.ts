import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { Page } from '@playwright/test';
import * as z from 'zod';
import { allTowns } from '../../src/features/towns/town-data.ts';
import { generateClosedSales } from '../fakes/reso.ts';
import { fakeSeries, zhviCsv } from '../fakes/zillow.ts';
import { expect, expectNoAxeViolations, signInAsAdmin, test, waitForIslands } from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** A town no other test looks at: its page changes here. */
const TOWN = allTowns().find((town) => town.slug === 'lynbrook');
/** Another one, for the moderate file. */
const MODERATE_TOWN = allTowns().find((town) => town.slug === 'seaford');
/** Netlify: 6 MB per request body, 4.5 MB once a binary body is base64-encoded. */
const NETLIFY_BINARY_BODY_LIMIT = 4_718_592;

/**
 * A ZHVI City file of about 10 MB whose New York rows (900 Westchester places and Seaford) come to
 * more than one chunk: written line by line.
 */
async function writeModerateZhvi(path: string, town: { name: string; county: string }): Promise<void> {
  const places = [
    ...Array.from({ length: 900 }, (_, index) => ({ name: `Upstate Place ${index}`, county: 'Westchester County' })),
    town,
  ];
  const out = createWriteStream(path);
  for (const line of zhviCsv({ towns: places, extraRows: 1000, months: 300 })) {
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
}

/** A Zillow ZHVI City file with one row, Lynbrook's, ending at `latest`. */
function zhviFile(latest: number): string {
  const months = Array.from({ length: 13 }, (_, index) => {
    const end = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 12 + index, 0));
    return end.toISOString().slice(0, 10);
  });
  const values = months.map((_, index) => latest - (12 - index) * 1000);
  return [
    `RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName,${months.join(',')}`,
    `912345,2000,Lynbrook,city,NY,NY,Lynbrook,"New York-Newark-Jersey City, NY-NJ-PA",Nassau County,${values.join(',')}`,
    '',
  ].join('\n');
}

const buildCard = (page: Page) => page.getByRole('region', { name: 'Public site' });
const runsTable = (page: Page) => page.getByRole('region', { name: 'Market-data runs, newest first' });

test.describe('/admin/data', () => {
  test('uploads a ZHVI CSV and a RESO file while the site runs; the town page changes after Rebuild now', async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'desktop', 'builds take time: the desktop project only');
    test.setTimeout(240_000);
    if (!TOWN) throw new Error('no Lynbrook in the towns');
    const zhvi = testInfo.outputPath('zhvi-lynbrook.csv');
    await writeFile(zhvi, zhviFile(876_543));
    const sold = testInfo.outputPath('sold-lynbrook.json');
    // Modified now: the server already holds the e2e feed's sales, so the import is incremental
    // (only records modified since the newest it stored are read), as `npm run data:refresh` is.
    const modified = new Date().toISOString();
    const sales = generateClosedSales({ towns: [TOWN], now: new Date(), perTown: 3, monthsBack: 2, keyPrefix: 'E2E' });
    for (const sale of sales) sale.ModificationTimestamp = modified;
    await writeFile(sold, JSON.stringify({ value: sales }));

    const town = await page.request.get(`/long-island-real-estate/${TOWN.slug}`);
    expect(await town.text()).not.toContain('$876,543');

    await signInAsAdmin(page);
    await page.goto('/admin/data');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { name: 'Market Data', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Market Data' })).toHaveAttribute('aria-current', 'page');

    await page.getByLabel('Zillow ZHVI CSV').setInputFiles(zhvi);
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The import of zhvi-lynbrook.csv succeeded: 1 town updated.' }),
    ).toBeVisible();
    const zhviRun = runsTable(page).getByRole('row').filter({ hasText: 'Upload: zhvi-lynbrook.csv' });
    await expect(zhviRun).toContainText('Succeeded');
    await expect(zhviRun.getByRole('cell').nth(5)).toHaveText('Updated 1 town: Lynbrook');

    await page.getByLabel('RESO JSON file').setInputFiles(sold);
    await page.getByRole('button', { name: 'Upload JSON' }).click();
    const soldRun = runsTable(page).getByRole('row').filter({ hasText: 'Upload: sold-lynbrook.json' });
    await expect(soldRun).toContainText('Succeeded');
    await expect(soldRun.getByRole('cell').nth(4)).toHaveText('3');

    // The pages are built ahead of time: the change waits for a rebuild.
    await expect(buildCard(page)).toContainText('Changes waiting since');
    await page.screenshot({ path: testInfo.outputPath('data-after-upload-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'Rebuild now' }).click();
    await expect(buildCard(page)).toContainText('Building since');
    await page.screenshot({ path: testInfo.outputPath('data-building-1280.png'), fullPage: true });
    // The site keeps serving while it builds.
    expect((await page.request.get(`/long-island-real-estate/${TOWN.slug}`)).status()).toBe(200);
    // Another test's save may start one more build after this one: wait for the page, not the card.
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`/long-island-real-estate/${TOWN.slug}`)).text()).includes('$876,543'),
        {
          timeout: 180_000,
        },
      )
      .toBe(true);
    await expect(buildCard(page)).not.toContainText('Building since', { timeout: 60_000 });
    await expect(buildCard(page)).toContainText('The pages visitors see were built');

    await page.goto(`/long-island-real-estate/${TOWN.slug}`);
    await expect(page.getByText('$876,543').first()).toBeVisible();
    for (const sale of sales)
      await expect(page.getByText(z.string().parse(sale.UnparsedAddress)).first()).toBeVisible();
  });

  test('uploads a moderate ZHVI file in chunks under 4.5 MB, showing its progress, then the import’s result', async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'desktop', 'a 10 MB file: the desktop project only');
    if (!MODERATE_TOWN) throw new Error('no Seaford in the towns');
    const file = testInfo.outputPath('moderate-zhvi.csv');
    await writeModerateZhvi(file, { name: MODERATE_TOWN.name, county: MODERATE_TOWN.county });
    expect((await stat(file)).size).toBeGreaterThan(8 * 1024 * 1024);

    await signInAsAdmin(page);
    await page.goto('/admin/data');
    await waitForIslands(page);
    // Every request the page sends for the upload, with the size of its body.
    const bodies: { url: string; bytes: number }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/data/uploads/')) {
        bodies.push({ url: request.url(), bytes: request.postDataBuffer()?.byteLength ?? 0 });
      }
    });
    // The second chunk waits until the page has shown how far the first one got.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/data/uploads/*/chunks/1?*', async (route) => {
      await held;
      await route.continue();
    });

    await page.getByLabel('Zillow ZHVI CSV').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const progress = page.getByRole('progressbar', { name: 'Uploading moderate-zhvi.csv' });
    await expect(progress).toBeVisible();
    await expect(page.getByText(/^\d+% sent$/)).not.toHaveText('0% sent');
    await page.screenshot({ path: testInfo.outputPath('data-uploading-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: testInfo.outputPath('data-uploading-390.png'), fullPage: true });
    release();

    await expect(
      page.getByRole('status').filter({ hasText: 'The import of moderate-zhvi.csv succeeded: 1 town updated.' }),
    ).toBeVisible();
    await expect(progress).toHaveCount(0);
    const run = runsTable(page).getByRole('row').filter({ hasText: 'Upload: moderate-zhvi.csv' });
    await expect(run).toContainText('Succeeded');
    await page.screenshot({ path: testInfo.outputPath('data-imported-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: testInfo.outputPath('data-imported-1280.png'), fullPage: true });

    const chunks = bodies.filter((body) => body.url.includes('/chunks/'));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(bodies.filter((body) => body.url.includes('/complete'))).toHaveLength(1);
    for (const body of bodies) expect(body.bytes, body.url).toBeLessThan(NETLIFY_BINARY_BODY_LIMIT);
    // The API answers the new figure at once; the town page shows it after the next rebuild.
    const market = await page.request.get(`/api/zillow/market?town=${MODERATE_TOWN.slug}`);
    expect(
      z.object({ data: z.object({ typical_home_value: z.number() }) }).parse(await market.json()).data
        .typical_home_value,
    ).toBe(Math.round((fakeSeries(MODERATE_TOWN.name, 300).at(-1) ?? 0) * 100) / 100);
  });

  test.describe('a refused file', () => {
    test.use({ consoleErrorsAllowed: [/status of 400 \(Bad Request\)/] });
    test('refuses a file of the wrong kind with the server’s message, and passes axe', async ({ page }, testInfo) => {
      const wrong = testInfo.outputPath('not-zillow.csv');
      await writeFile(wrong, 'name,price\nx,1\n');
      await signInAsAdmin(page);
      await page.goto('/admin/data');
      await waitForIslands(page);
      await page.getByLabel('Zillow ZHVI CSV').setInputFiles(wrong);
      await page.getByRole('button', { name: 'Upload CSV' }).click();
      await expect(page.getByRole('alert')).toContainText('not a Zillow City file: column 1 is "name"');
      await expect(runsTable(page).or(page.getByText('No market data has been imported yet.')).first()).toBeVisible();
      await expect(runsTable(page).getByText('not-zillow.csv')).toHaveCount(0);
      await expectNoAxeViolations(page, WCAG);
    });
  });
});

/** Canned answers of the build and runs routes, for each state the screen has. */
const ISO = '2026-11-23T17:04:00.000Z';
const build = (status: 'running' | 'succeeded' | 'failed', error: string | null = null) => ({
  id: 7,
  trigger: 'button',
  mode: 'local',
  data_at: ISO,
  started_at: ISO,
  finished_at: status === 'running' ? null : '2026-11-23T17:05:12.000Z',
  status,
  error,
});
const STATES = {
  'up-to-date': { needs_rebuild: false, last_build: build('succeeded'), last_succeeded_at: '2026-11-23T17:05:12.000Z' },
  waiting: { needs_rebuild: true, last_build: build('succeeded'), last_succeeded_at: '2026-11-23T17:05:12.000Z' },
  building: { needs_rebuild: true, last_build: build('running'), last_succeeded_at: '2026-11-22T09:00:00.000Z' },
  failed: {
    needs_rebuild: true,
    last_build: build('failed', 'astro build failed (exit code 1): [ERROR] Cannot read properties of undefined'),
    last_succeeded_at: '2026-11-22T09:00:00.000Z',
  },
} as const;
const STATE_NAMES = ['up-to-date', 'waiting', 'building', 'failed'] as const;
const EXPECTED: Record<(typeof STATE_NAMES)[number], string> = {
  'up-to-date': 'Up to date',
  waiting: 'Changes waiting since',
  building: 'Building since',
  failed: 'Last build failed',
};
/** The towns the mocked finished run updated, by name, sorted as the server sorts them. */
const UPDATED_NAMES = allTowns()
  .map((town) => town.name)
  .sort((a, b) => a.localeCompare(b))
  .slice(0, 119);
const RUNS = {
  success: true,
  running: true,
  runs: [
    {
      id: 4,
      source: 'sold',
      origin: 'Uploaded file closed-sales.json',
      started_at: '2026-11-23T17:11:00.000Z',
      finished_at: null,
      status: 'queued',
      rows_read: 0,
      rows_skipped: 0,
      towns_updated: 0,
      updated_towns: [],
      error: null,
    },
    {
      id: 3,
      source: 'zhvi',
      origin: 'Uploaded file City_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv',
      started_at: '2026-11-23T17:10:00.000Z',
      finished_at: null,
      status: 'running',
      rows_read: 12_408,
      rows_skipped: 0,
      towns_updated: 0,
      updated_towns: [],
      error: null,
    },
    {
      id: 2,
      source: 'sold',
      origin: 'https://api.mls.example/odata',
      started_at: '2026-11-23T06:00:00.000Z',
      finished_at: '2026-11-23T06:00:40.000Z',
      status: 'failed',
      rows_read: 0,
      rows_skipped: 0,
      towns_updated: 0,
      updated_towns: [],
      error: 'https://api.mls.example/odata answered 401',
    },
    {
      id: 1,
      source: 'zhvi',
      origin: 'https://files.zillowstatic.com/research/public_csvs/zhvi/City_zhvi.csv',
      started_at: '2026-11-22T06:00:00.000Z',
      finished_at: '2026-11-22T06:01:30.000Z',
      status: 'succeeded',
      rows_read: 21_370,
      rows_skipped: 2,
      towns_updated: 119,
      updated_towns: UPDATED_NAMES,
      error: null,
    },
  ],
};

test('the build card’s and the runs table’s states, at 390 and 1280 px', async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  await page.route('/api/admin/data/runs', (route) => route.fulfill({ json: RUNS }));
  for (const name of STATE_NAMES) {
    const state = STATES[name];
    await page.route('/api/admin/site-build', (route) =>
      route.fulfill({ json: { success: true, changed_at: ISO, ...state } }),
    );
    for (const screen of ['/admin/data', '/admin']) {
      await page.goto(screen);
      await waitForIslands(page);
      await expect(buildCard(page)).toContainText(EXPECTED[name]);
    }
    if (name === 'failed') await expect(buildCard(page)).toContainText('Cannot read properties of undefined');
    if (testInfo.project.name !== 'desktop') continue;
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/admin/data');
      await waitForIslands(page);
      await expect(buildCard(page)).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`data-${name}-${width}.png`), fullPage: true });
      if (name === 'waiting') {
        await page.goto('/admin');
        await waitForIslands(page);
        await expect(buildCard(page)).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`admin-${name}-${width}.png`), fullPage: true });
      }
    }
    await page.unroute('/api/admin/site-build');
  }
  await page.goto('/admin/data');
  await waitForIslands(page);
  await expect(runsTable(page).getByRole('row').nth(1)).toContainText('Queued');
  await expect(runsTable(page).getByRole('row').nth(2)).toContainText('Running');
  await expect(runsTable(page).getByRole('row').nth(2)).toContainText('12,408');
  await expect(runsTable(page).getByRole('row').nth(3)).toContainText('answered 401');
  await expectNoAxeViolations(page, WCAG);
});

test('the runs table names the towns each run updated, all of them behind its line (minor 31)', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'canned answers: the desktop project only');
  await signInAsAdmin(page);
  await page.route('/api/admin/data/runs', (route) => route.fulfill({ json: { ...RUNS, running: false } }));
  await page.goto('/admin/data');
  await waitForIslands(page);
  const [first, second, third] = UPDATED_NAMES;
  const updated = runsTable(page).getByRole('row').nth(4);
  const line = `Updated 119 towns: ${first}, ${second}, ${third} and 116 more`;
  await expect(updated.getByText(line, { exact: true })).toBeVisible();
  // The failed run changed nothing, and says so.
  await expect(runsTable(page).getByRole('row').nth(3)).toContainText('No town’s figures changed');
  // Queued and running runs have no towns yet.
  await expect(runsTable(page).getByRole('row').nth(1)).not.toContainText('town');
  const last = UPDATED_NAMES.at(-1) ?? '';
  const all = updated.getByText(UPDATED_NAMES.join(', '));
  await expect(all).toBeHidden();
  await updated.getByText(line).click();
  await expect(all).toBeVisible();
  await expect(all).toContainText(last);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`data-runs-towns-${width}.png`), fullPage: true });
  }
  await expectNoAxeViolations(page, WCAG);
});

test('Refresh now follows its run: queued, running with its rows, then the result', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'canned answers: the desktop project only');
  await signInAsAdmin(page);
  const run = { ...RUNS.runs[1], id: 9, origin: 'https://files.zillowstatic.com/zhvi.csv' };
  let state: { status: string; rows_read: number; finished_at: string | null; towns_updated: number } = {
    status: 'queued',
    rows_read: 0,
    finished_at: null,
    towns_updated: 0,
  };
  let refreshed = false;
  await page.route('/api/admin/data/runs', (route) =>
    route.fulfill({
      json: {
        success: true,
        running: refreshed && state.finished_at === null,
        runs: refreshed ? [{ ...run, ...state }] : [],
      },
    }),
  );
  await page.route('/api/admin/data/refresh', (route) => {
    refreshed = true;
    return route.fulfill({ status: 202, json: { success: true, run_ids: [9] } });
  });
  await page.goto('/admin/data');
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  const hint = page.getByText(/^The refresh from the feeds: /);
  await expect(hint).toHaveText('The refresh from the feeds: queued, waiting for the background import to start…');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`data-queued-${width}.png`), fullPage: true });
  }
  state = { ...state, status: 'running', rows_read: 812 };
  await expect(hint).toHaveText('The refresh from the feeds: running, 812 rows read so far…');
  // No success before the run succeeded.
  await expect(page.getByRole('status').filter({ hasText: 'succeeded' })).toHaveCount(0);
  state = { status: 'succeeded', rows_read: 21_370, finished_at: ISO, towns_updated: 119 };
  await expect(
    page.getByRole('status').filter({ hasText: 'The refresh from the feeds succeeded: 119 towns updated.' }),
  ).toBeVisible();
  await expect(hint).toHaveCount(0);
  await expectNoAxeViolations(page, WCAG);
});

test('a refresh that could not reach its feed says so in words, and the runs show no server path (minor 31)', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'canned answers: the desktop project only');
  await signInAsAdmin(page);
  // The words the server records for a refused connection (tests/integration/market-refresh.test.ts).
  const words =
    'Could not reach Zillow’s research data (home values) (network error). Nothing was changed; the last good data stays.';
  const run = { ...RUNS.runs[1], id: 11, origin: 'zhvi.csv from files.zillowstatic.com' };
  let refreshed = false;
  await page.route('/api/admin/data/runs', (route) =>
    route.fulfill({
      json: {
        success: true,
        running: false,
        runs: refreshed
          ? [{ ...run, status: 'failed', finished_at: ISO, rows_read: 0, towns_updated: 0, error: words }]
          : [],
      },
    }),
  );
  await page.route('/api/admin/data/refresh', (route) => {
    refreshed = true;
    return route.fulfill({ status: 202, json: { success: true, run_ids: [11] } });
  });
  await page.goto('/admin/data');
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: `The refresh from the feeds failed: ${words}` }),
  ).toBeVisible();
  await expect(page.getByText(/^The refresh from the feeds: /)).toHaveCount(0);
  await expect(runsTable(page)).toContainText('zhvi.csv from files.zillowstatic.com');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`data-refresh-failed-${width}.png`), fullPage: true });
  }
  await expectNoAxeViolations(page, WCAG);
});
