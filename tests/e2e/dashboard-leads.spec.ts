import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import * as z from 'zod';
import {
  expect,
  expectNoAxeViolations,
  sameSiteHeaders,
  shootPhoneAndDesktop,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A letters-only name part (names take no digits): Aa, Ab, … for 0, 1, … */
const letters = (index: number) =>
  `${String.fromCharCode(65 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`;

/** The signed-in agent's id, as the agent page's form sends it. */
async function myId(page: Page): Promise<number> {
  const response = await page.request.get('/api/auth/me');
  return z.object({ agent: z.object({ id: z.number() }) }).parse(await response.json()).agent.id;
}

interface LeadFields {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address?: string;
  source?: string;
  estimate_uuid?: string;
}

/** One lead for the agent `agentId`, sent as the agent page's form sends it. */
async function postLead(page: Page, agentId: number, lead: LeadFields): Promise<void> {
  const response = await page.request.post('/api/leads', {
    headers: sameSiteHeaders(),
    data: { agent_id: agentId, consent_marketing: true, ...lead },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Leaves `count` leads for the signed-in agent through the agent page's form, oldest first. */
async function leaveLeads(page: Page, count: number, tag: string): Promise<void> {
  const agentId = await myId(page);
  for (let index = 0; index < count; index += 1) {
    await postLead(page, agentId, {
      first_name: 'Morgan',
      last_name: `Visitor${letters(index)}`,
      email: `morgan.${tag}.${index}@example.com`,
      phone: '631-555-0100',
    });
  }
}

/** Dana Lopez, left last, the one home-page lead among the Morgans (with an address or estimate if given). */
async function leaveDana(page: Page, tag: string, more: Pick<LeadFields, 'address' | 'estimate_uuid'> = {}) {
  await postLead(page, await myId(page), {
    first_name: 'Dana',
    last_name: 'Lopez',
    email: `dana.${tag}@example.com`,
    phone: '516-555-0123',
    source: 'showcase',
    ...more,
  });
}

const table = (page: Page) => page.getByRole('table', { name: 'Your leads, newest first' });
/** The names in the table's rows, top to bottom. */
const names = (page: Page) => table(page).locator('tbody th');

test.describe('the leads screen', () => {
  test('an agent finds their leads, newest first, searches, filters, pages and exports them', async ({ page }) => {
    const agent = await signInAsNewAgent(page);
    await leaveLeads(page, 26, agent.slug);
    const estimate = await page.request.post('/api/estimates', {
      headers: sameSiteHeaders(),
      data: { agent_slug: agent.slug, sale_price: 650000, mortgage_payoff: 200000, recipient_name: 'Dana' },
    });
    expect(estimate.status(), await estimate.text()).toBe(201);
    const { uuid, net_to_seller: net } = z
      .object({ estimate: z.object({ uuid: z.string(), net_to_seller: z.number() }) })
      .parse(await estimate.json()).estimate;
    await leaveDana(page, agent.slug, { address: '12 Elm Street, Garden City', estimate_uuid: uuid });

    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await expect(names(page)).toHaveCount(25);
    await expect(names(page).first()).toHaveText('Dana Lopez');
    await expect(names(page).nth(1)).toHaveText('Morgan VisitorAz');
    await expect(page.getByText('Showing 1–25 of 27')).toBeVisible();
    const first = table(page).locator('tbody tr').first();
    await expect(first.getByRole('cell', { name: '(516) 555-0123' })).toBeVisible();
    await expect(first.getByRole('cell', { name: 'Home page' })).toBeVisible();
    const link = first.getByRole('link', { name: /View estimate/ });
    await expect(link).toHaveAttribute('href', `/estimate/${uuid}`);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener');
    await expectNoAxeViolations(page, WCAG);

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Showing 26–27 of 27')).toBeVisible();
    await expect(names(page)).toHaveText(['Morgan VisitorAb', 'Morgan VisitorAa']);
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page.getByText('Showing 1–25 of 27')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();

    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('dana lo');
    await expect(names(page)).toHaveText(['Dana Lopez']);
    await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
    await search.fill('(516) 555-01');
    await expect(names(page)).toHaveText(['Dana Lopez']);
    await search.fill('visitoraq');
    await expect(names(page)).toHaveText(['Morgan VisitorAq']);
    await search.fill('nobody by that name');
    await expect(page.getByText('No leads match these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Show all leads' }).click();
    await expect(page.getByText('Showing 1–25 of 27')).toBeVisible();

    await page.getByLabel('Source').selectOption({ label: 'Home page' });
    await expect(names(page)).toHaveText(['Dana Lopez']);
    await page.getByLabel('Source').selectOption({ label: 'All sources' });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To').fill(today);
    await expect(page.getByText('Showing 1–25 of 27')).toBeVisible();
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByLabel('To').fill('2020-01-31');
    await expect(page.getByText('No leads match these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Show all leads' }).click();
    await expect(names(page)).toHaveCount(25);

    // The export is every lead, not the page on screen: 27 leads in three pages of ten (the e2e
    // server's LEAD_EXPORT_PAGE_ROWS), saved as one file.
    const pages: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/leads/export.csv') pages.push(response.url());
    });
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(pages).toHaveLength(3);
    expect(pages.slice(1).every((url) => new URL(url).searchParams.has('cursor'))).toBe(true);
    expect(download.suggestedFilename()).toBe(`leads-${today}.csv`);
    const path = await download.path();
    const lines = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      '"Name","Email","Phone","Address","Source","Date","FUB Synced","Estimate UUID","Sale price","Mortgage payoff","Estimated net","Page","Campaign"',
    );
    expect(lines).toHaveLength(29);
    expect(lines[1]).toMatch(
      new RegExp(
        `^"Dana Lopez","dana\\.${agent.slug}@example\\.com","\\(516\\) 555-0123","12 Elm Street, Garden City","Home page","${today}T\\d{2}:\\d{2}:\\d{2}-0[45]:00","No","${uuid}","650000.00","200000.00","${net.toFixed(2)}","",""$`,
      ),
    );
    expect(lines[27]).toMatch(
      /^"Morgan VisitorAa","morgan\.[a-z0-9]+\.0@example\.com","\(631\) 555-0100","","Calculator",/,
    );
  });

  test('the filters and search are in the URL: a reload keeps them and Back restores the earlier ones', async ({
    page,
  }) => {
    const agent = await signInAsNewAgent(page);
    await leaveLeads(page, 3, agent.slug);
    await leaveDana(page, agent.slug);
    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await expect(names(page)).toHaveCount(4);

    const source = page.getByLabel('Source');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await source.selectOption({ label: 'Calculator page (/r/…)' });
    await expect(page).toHaveURL(/\/dashboard\/leads\?source=agent_page$/);
    await expect(names(page)).toHaveText(['Morgan VisitorAc', 'Morgan VisitorAb', 'Morgan VisitorAa']);
    await search.fill('visitorab');
    await expect(page).toHaveURL(/\/dashboard\/leads\?search=visitorab&source=agent_page$/);
    await expect(names(page)).toHaveText(['Morgan VisitorAb']);

    await page.reload();
    await waitForIslands(page);
    await expect(search).toHaveValue('visitorab');
    await expect(source).toHaveValue('agent_page');
    await expect(names(page)).toHaveText(['Morgan VisitorAb']);
    await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard\/leads\?source=agent_page$/);
    await expect(search).toHaveValue('');
    await expect(source).toHaveValue('agent_page');
    await expect(names(page)).toHaveText(['Morgan VisitorAc', 'Morgan VisitorAb', 'Morgan VisitorAa']);
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard\/leads$/);
    await expect(source).toHaveValue('');
    await expect(names(page)).toHaveCount(4);
    await page.goForward();
    await expect(source).toHaveValue('agent_page');
    await expect(names(page)).toHaveCount(3);
  });

  test('on a phone the header fits: the name on one line, the screens in one row, e-mails broken only at @ and dots', async ({
    page,
  }, testInfo) => {
    await signInAsNewAgent(page);
    await leaveLeads(page, 2, 'homeownerlongname');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto('/dashboard/leads');
      await waitForIslands(page);
      await expect(names(page)).toHaveCount(2);
      // Logout is a quiet control, not the filled primary button.
      await expect(page.getByRole('button', { name: 'Logout' })).not.toHaveClass(/button-primary/);
      const name = page.getByText(/^Signed in as/);
      const lineHeight = await name.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      expect((await name.boundingBox())?.height).toBeLessThan(lineHeight * 1.5);
      const tabs = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link');
      const tops = await tabs.evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
      expect(new Set(tops).size).toBe(1);
      // …inside the page: the page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // Each part of an address (up to its @, each dot) stays on one line: no word is cut in two.
      const email = table(page).locator('td.leads-email a').first();
      const words = await email.evaluate((link) =>
        [...link.querySelectorAll('span')].map((part) => part.getClientRects().length),
      );
      expect(words).toEqual(words.map(() => 1));
      await expectNoAxeViolations(page, WCAG);
      await page.screenshot({
        path: testInfo.outputPath(`dashboard-leads-${width}.png`),
        fullPage: true,
      });
    }
  });

  test('deleting every lead asks first: Cancel keeps the leads, confirming clears them and shows the empty state', async ({
    page,
  }) => {
    const agent = await signInAsNewAgent(page);
    await leaveLeads(page, 2, agent.slug);
    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await expect(names(page)).toHaveCount(2);
    // Not among the filters, where it would read as "clear the filters".
    await expect(page.getByRole('search', { name: 'Filter leads' }).getByRole('button')).toHaveCount(0);

    const opener = page.getByRole('button', { name: 'Delete all 2 leads' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Clear all leads?' });
    await expect(dialog).toContainText('All 2 of your leads will be deleted. This cannot be undone');
    // The safe choice has the focus: Enter pressed out of habit deletes nothing.
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoAxeViolations(page, WCAG);
    // Escape cancels, and the keyboard goes on from the button that opened it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await opener.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await page.reload();
    await expect(names(page)).toHaveCount(2);

    await page.getByRole('button', { name: 'Delete all 2 leads' }).click();
    await dialog.getByRole('button', { name: 'Delete 2 leads' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'All leads cleared successfully!' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('No leads yet.')).toBeVisible();
    // Nothing to export or clear.
    await expect(page.getByRole('button', { name: /^Delete/ })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeHidden();
    await expect(page.getByRole('link', { name: `/r/${agent.slug}` })).toHaveAttribute('href', `/r/${agent.slug}`);
    await expectNoAxeViolations(page, WCAG);
    await page.reload();
    await expect(page.getByText('No leads yet.')).toBeVisible();
  });

  test('the deletion dialog’s code comes with the first press, with Loading… while it is on its way, and works (issue 23)', async ({
    page,
  }) => {
    const agent = await signInAsNewAgent(page);
    await leaveLeads(page, 1, agent.slug);
    // The dialog's own script is held until released: a slow network.
    const asked: string[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_astro/DeleteLeadsDialog.*.js', async (route) => {
      asked.push(route.request().url());
      await released;
      await route.continue();
    });
    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await expect(names(page)).toHaveCount(1);
    await page.waitForLoadState('networkidle');
    expect(asked, 'the dialog’s script loaded before it was asked for').toEqual([]);

    await page.getByRole('button', { name: 'Delete your 1 lead' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toBeVisible();
    expect(asked).toHaveLength(1);
    release();
    const dialog = page.getByRole('dialog', { name: 'Clear all leads?' });
    await expect(dialog).toContainText('Your 1 lead will be deleted.');
    await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Delete 1 lead' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'All leads cleared successfully!' })).toBeVisible();
    await expect(page.getByText('No leads yet.')).toBeVisible();
  });

  test('with a search active, the deletion names the matching leads, counts them and deletes only those', async ({
    page,
  }, testInfo) => {
    const agent = await signInAsNewAgent(page);
    await leaveLeads(page, 2, `keep${agent.slug}`);
    await leaveLeads(page, 3, `gone${agent.slug}`);
    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await expect(names(page)).toHaveCount(5);

    const searched = page.waitForResponse(
      (response) => response.url().includes('/api/leads?') && response.url().includes(`search=gone${agent.slug}`),
    );
    await page.getByRole('searchbox', { name: 'Search' }).fill(`gone${agent.slug}`);
    await searched;
    await expect(page.getByText('Showing 1–3 of 3')).toBeVisible();
    await expect(table(page)).not.toHaveAttribute('aria-busy', 'true');
    await page.getByRole('button', { name: 'Delete these 3 leads' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete these leads?' });
    await expect(dialog).toContainText(
      'The 3 leads that match your search and filters will be deleted; your other leads stay.',
    );
    await expect(dialog.getByRole('button', { name: 'Delete 3 leads' })).toBeEnabled();
    await expectNoAxeViolations(page, WCAG);
    await shootPhoneAndDesktop(page, testInfo, 'dashboard-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete 3 leads' }).click();
    await expect(page.getByRole('status').filter({ hasText: '3 leads deleted.' })).toBeVisible();
    await expect(page.getByText('No leads match these filters.')).toBeVisible();

    await page.getByRole('button', { name: 'Show all leads' }).click();
    await expect(names(page)).toHaveCount(2);
    await page.reload();
    await expect(page.getByText('Showing 1–2 of 2')).toBeVisible();
    const left = await page.request.get('/api/leads');
    const emails = z.object({ leads: z.array(z.object({ email: z.string() })) }).parse(await left.json());
    expect(emails.leads.map((lead) => lead.email.split('.')[1])).toEqual([`keep${agent.slug}`, `keep${agent.slug}`]);
  });

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
        '"Name","Email","Phone","Address","Source","Date","FUB Synced","Estimate UUID","Sale price","Mortgage payoff","Estimated net","Page","Campaign"',
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
