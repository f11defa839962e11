import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import * as z from 'zod';
import {
  expect,
  expectNoAxeViolations,
  sameSiteHeaders,
  signInAsAdmin,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The seeded admin (scripts/seed: the demo admin account). */

const table = (page: Page, name = 'Every agent’s leads, newest first') => page.getByRole('table', { name });
const names = (page: Page, name?: string) => table(page, name).locator('tbody th');

test.describe('the admin’s leads', () => {
  test('an admin finds an agent’s leads, narrows them to the agent and a CRM status, exports them and opens a timeline', async ({
    page,
  }, testInfo) => {
    // An agent of the test's own with two leads left through the agent page's form.
    const agent = await signInAsNewAgent(page);
    const me = z
      .object({ agent: z.object({ id: z.number() }) })
      .parse(await (await page.request.get('/api/auth/me')).json());
    for (const [index, last] of ['Visitorone', 'Visitortwo'].entries()) {
      const response = await page.request.post('/api/leads', {
        headers: sameSiteHeaders(),
        data: {
          agent_id: me.agent.id,
          first_name: 'Morgan',
          last_name: last,
          email: `morgan.${agent.slug}.${index}@example.com`,
          phone: '631-555-0100',
          consent_marketing: true,
        },
      });
      expect(response.status(), await response.text()).toBe(201);
    }
    await signInAsAdmin(page);

    await page.goto('/admin/leads');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Leads', exact: true })).toHaveAttribute('aria-current', 'page');
    // This test's two leads are the newest of all, so the unfiltered list already starts with them —
    // and on a fresh database they are all there is, so even its total reads "1–2 of 2". Wait for the
    // search's own answer: until it comes the list is dimmed (and axe would rightly fail its contrast).
    const searched = page.waitForResponse(
      (response) => response.url().includes('/api/admin/leads?') && response.url().includes(`search=${agent.slug}`),
    );
    await page.getByRole('searchbox', { name: 'Search' }).fill(agent.slug);
    await searched;
    await expect(page.getByText('Showing 1–2 of 2')).toBeVisible();
    await expect(table(page)).not.toHaveAttribute('aria-busy', 'true');
    await expect(names(page)).toHaveText(['Morgan Visitortwo', 'Morgan Visitorone']);
    const agentName = `${agent.first_name} ${agent.last_name}`;
    const first = table(page).locator('tbody tr').first();
    await expect(first.getByRole('cell', { name: agentName })).toBeVisible();
    await expect(first.getByRole('cell', { name: 'Not synced' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await expectNoAxeViolations(page, WCAG);

    // Narrowed to the agent, the search can go: only the agent's leads stay.
    await first.getByRole('button', { name: new RegExp(`^${agentName}`) }).click();
    await expect(page.getByText(`Showing the leads of ${agentName}`)).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await expect(page.getByText('Showing 1–2 of 2')).toBeVisible();
    await page.getByLabel('CRM status').selectOption({ label: 'Synced' });
    await expect(page.getByText('No leads match these filters.')).toBeVisible();
    await page.getByLabel('CRM status').selectOption({ label: 'Never sent' });
    // The table says whose leads it shows.
    const ofAgent = `Leads of ${agentName}, newest first`;
    await expect(names(page, ofAgent)).toHaveText(['Morgan Visitortwo', 'Morgan Visitorone']);
    // The filters are the URL's: a reload shows the same leads, named for the agent again.
    await expect(page).toHaveURL(new RegExp(`/admin/leads\\?agent=${me.agent.id}&crm_status=none$`));
    await page.reload();
    await waitForIslands(page);
    await expect(names(page, ofAgent)).toHaveText(['Morgan Visitortwo', 'Morgan Visitorone']);
    await expect(page.getByText(`Showing the leads of ${agentName}`)).toBeVisible();
    await expect(page.getByLabel('CRM status')).toHaveValue('none');
    await expect(table(page, ofAgent)).not.toHaveAttribute('aria-busy', 'true');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({
      path: testInfo.outputPath('admin-leads-agent-1280.png'),
      fullPage: true,
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({
      path: testInfo.outputPath('admin-leads-agent-390.png'),
      fullPage: true,
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The export is the filtered set, with whose lead each is.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const lines = (await readFile(await (await downloading).path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      '"Name","Email","Phone","Address","Source","Date","FUB Synced","Estimate UUID","Sale price","Mortgage payoff","Estimated net","Page","Campaign","Updates","Agent"',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      new RegExp(`^"Morgan Visitortwo","morgan\\.${agent.slug}\\.1@example\\.com",.*,"${agentName}"$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^"Morgan Visitorone",.*,"${agentName}"$`));

    await page.getByRole('button', { name: 'Timeline of Morgan Visitorone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Timeline: Morgan Visitorone' });
    await expect(dialog.getByText('Lead received')).toBeVisible();
    await expect(dialog.getByText(`Lead of ${agentName}, oldest first.`)).toBeVisible();
    await expectNoAxeViolations(page, WCAG);
    await page.screenshot({ path: testInfo.outputPath('admin-timeline-1280.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });
});
