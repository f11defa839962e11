/**
 * The leads screen's list: an agent finds their leads newest first, searches, filters, pages and
 * exports them; the filters and search kept in the URL (reload, Back); the header on a phone.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { expect, expectNoAxeViolations, sameSiteHeaders, signInAsNewAgent, test, waitForIslands } from './fixtures.ts';
import { leaveDana, leaveLeads, names, table, WCAG } from './dashboard-leads-seed.ts';

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
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill(today);
    await expect(page.getByText('Showing 1–25 of 27')).toBeVisible();
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-31');
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
      '"Name","Email","Phone","Address","Source","Date","FUB Synced","Estimate UUID","Sale price","Mortgage payoff","Estimated net","Page","Campaign","Updates"',
    );
    expect(lines).toHaveLength(29);
    expect(lines[1]).toMatch(
      new RegExp(
        `^"Dana Lopez","dana\\.${agent.slug}@example\\.com","\\(516\\) 555-0123","12 Elm Street, Garden City","Home page","${today}T\\d{2}:\\d{2}:\\d{2}-0[45]:00","No","${uuid}","650000.00","200000.00","${net.toFixed(2)}","","",""$`,
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
});
