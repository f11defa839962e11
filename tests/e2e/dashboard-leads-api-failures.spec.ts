/**
 * The leads screen when the API fails: a long export that says how far it has come and a page of
 * it that fails; the list's Retry; a failed clear in its dialog.
 */
import { readFile } from 'node:fs/promises';
import {
  expect,
  expectNoAxeViolations,
  shootPhoneAndDesktop,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';
import { leaveLeads, letters, names, WCAG } from './dashboard-leads-seed.ts';

test.describe('the leads screen', () => {
  test.describe('when the API fails', () => {
    // The failing answers the test asks for are logged by Chromium.
    test.use({ consoleErrorsAllowed: [/status of 500/] });

    test('a long export says how far it has come and saves one file; a page that fails says so', async ({
      page,
    }, testInfo) => {
      const agent = await signInAsNewAgent(page);
      await leaveLeads(page, 12, agent.slug);
      await page.goto('/dashboard/leads');
      await waitForIslands(page);
      await expect(names(page)).toHaveCount(12);

      // The second page is held until the screen has been seen saying how far the export has come.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const laterPage = /\/api\/leads\/export\.csv\?(.*&)?cursor=/;
      await page.route(laterPage, async (route) => {
        await released;
        await route.fallback();
      });
      const exportButton = page.getByRole('button', { name: 'Export CSV' });
      const downloading = page.waitForEvent('download');
      await exportButton.click();
      await expect(page.getByRole('status').filter({ hasText: 'Preparing export… 10 of 12' })).toBeVisible();
      await expect(exportButton).toBeDisabled();
      await expectNoAxeViolations(page, WCAG);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 844 });
        await page.screenshot({ path: testInfo.outputPath(`export-progress-${width}.png`) });
      }
      release();
      const download = await downloading;
      const lines = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe(
        '"Name","Email","Phone","Address","Source","Date","FUB Synced","Estimate UUID","Sale price","Mortgage payoff","Estimated net","Page","Campaign","Updates"',
      );
      expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(
        Array.from({ length: 12 }, (_, index) => `"Morgan Visitor${letters(11 - index)}"`),
      );
      await expect(exportButton).toBeEnabled();
      await expect(page.getByRole('status').filter({ hasText: 'Preparing export' })).toHaveCount(0);

      await page.unroute(laterPage);
      await page.route(laterPage, (route) =>
        route.fulfill({ status: 500, json: { success: false, error: 'Internal server error', fields: {} } }),
      );
      await exportButton.click();
      await expect(
        page.getByRole('alert').filter({ hasText: 'Failed to export leads: Internal server error' }),
      ).toBeVisible();
      await expect(exportButton).toBeEnabled();
      await expectNoAxeViolations(page, WCAG);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 844 });
        await page.screenshot({ path: testInfo.outputPath(`export-failed-${width}.png`) });
      }
    });

    test('the list says so with Retry, which loads the leads once the API answers; a failed clear says so in its dialog', async ({
      page,
    }, testInfo) => {
      const agent = await signInAsNewAgent(page);
      await leaveLeads(page, 1, agent.slug);
      const failing = { status: 500, json: { success: false, error: 'Database unavailable', fields: {} } };
      await page.route(/\/api\/leads(\?|$)/, (route) => route.fulfill(failing));
      await page.goto('/dashboard/leads');
      await waitForIslands(page);
      await expect(page.getByRole('alert').filter({ hasText: 'Failed to fetch leads' })).toBeVisible();
      await expectNoAxeViolations(page, WCAG);

      await page.unroute(/\/api\/leads(\?|$)/);
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect(names(page)).toHaveText(['Morgan VisitorAa']);

      // The deletion is held until the test has seen the dialog wait for it.
      const answer = Promise.withResolvers<void>();
      await page.route(/\/api\/leads$/, async (route) => {
        if (route.request().method() !== 'DELETE') return route.fallback();
        await answer.promise;
        return route.fulfill(failing);
      });
      await page.getByRole('button', { name: 'Delete your 1 lead' }).click();
      const dialog = page.getByRole('dialog', { name: 'Clear all leads?' });
      await dialog.getByRole('button', { name: 'Delete 1 lead', exact: true }).click();
      await expect(dialog.getByRole('button', { name: 'Deleting…' })).toBeDisabled();
      answer.resolve();
      // The failure is said where the agent is looking, and the dialog stays open to try again.
      await expect(dialog.getByRole('alert')).toHaveText('Failed to clear leads');
      await expect(dialog.getByRole('button', { name: 'Delete 1 lead', exact: true })).toBeEnabled();
      await expect(names(page)).toHaveText(['Morgan VisitorAa']);
      await shootPhoneAndDesktop(page, testInfo, 'dashboard-delete-failed');

      await page.unroute(/\/api\/leads$/);
      await dialog.getByRole('button', { name: 'Delete 1 lead', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('status').filter({ hasText: 'All leads cleared successfully!' })).toBeVisible();
    });
  });
});
