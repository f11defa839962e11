/**
 * Refresh now on /admin/data, from canned answers of the refresh and runs routes: the run followed
 * from queued through running with its rows to its result, and a refresh that could not reach its
 * feed saying so in words, with no server path in the runs.
 */
import { ISO, RUNS, runsTable, WCAG } from './admin-data-screen.ts';
import { expect, expectNoAxeViolations, signInAsAdmin, test, waitForIslands } from './fixtures.ts';

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
