/**
 * /admin/data's build card and runs table in each state, from canned answers of the build and runs
 * routes: up to date, waiting, building and failed on /admin/data and /admin at 390 and 1280 px,
 * and the towns each run updated named behind its line.
 */
import { RUNS, runsTable, buildCard, ISO, UPDATED_NAMES, WCAG } from './admin-data-screen.ts';
import { expect, expectNoAxeViolations, signInAsAdmin, test, waitForIslands } from './fixtures.ts';

/** Canned answers of the build route, for each state the screen has. */
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
test('the build card’s and the runs table’s states, at 390 and 1280 px', async ({ page }, testInfo) => {
  // Some twenty page loads and eight full-page screenshots: past 30 s on a loaded machine (CI, 2 cores).
  test.setTimeout(90_000);
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
