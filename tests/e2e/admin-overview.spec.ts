import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import * as z from 'zod';
import { adminOverviewResponseSchema } from '../../src/features/admin/admin-overview.ts';
import {
  expect,
  expectNoAxeViolations,
  expectNoLayoutShiftOnLoad,
  makeContactLead,
  makeEstimate,
  signInAsAdmin,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const stat = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Site figures' }).getByRole('listitem').filter({ hasText: label });

/** A card's figure as a number ("1,234" → 1234). */
async function figure(page: Page, label: string): Promise<number> {
  const text = (await stat(page, label).locator('.stat-figure').textContent()) ?? '';
  return Number(text.replace(/,/g, ''));
}

test.describe('the admin overview', () => {
  test('nothing on the screen moves when the figures arrive (no layout shift, issue 23)', async ({ page }) => {
    await signInAsAdmin(page);
    await expectNoLayoutShiftOnLoad(page, {
      path: '/admin',
      held: '/api/admin/overview',
      loading: page.getByText('Loading the site’s figures…'),
      loaded: page.getByRole('navigation', { name: 'Quick actions' }),
    });
  });

  test('shows the site’s figures, grown by the rows made through the API, and the newest activity', async ({
    page,
  }) => {
    const agent = await signInAsNewAgent(page);
    await signInAsAdmin(page);
    const before = adminOverviewResponseSchema.parse(
      await (await page.request.get('/api/admin/overview')).json(),
    ).overview;
    for (let index = 0; index < 3; index += 1) await makeEstimate(page.request, agent.slug);
    await makeContactLead(page.request, agent.slug, 'Robin');
    await makeContactLead(page.request, agent.slug, 'Avery');

    await page.goto('/admin');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { name: 'Admin overview', level: 1 })).toBeVisible();
    await expect(stat(page, 'Conversion Rate')).toContainText(/\d+\.\d%/);
    // Other tests add rows at the same time: the site's figures have at least this test's.
    expect(await figure(page, 'Total Leads')).toBeGreaterThanOrEqual(before.leads_total + 2);
    expect(await figure(page, 'Estimates Created')).toBeGreaterThanOrEqual(before.estimates_total + 3);
    expect(await figure(page, 'Active Agents')).toBeGreaterThanOrEqual(Math.max(1, before.active_agents));

    const name = `${agent.first_name} ${agent.last_name}`;
    const activity = page.getByRole('region', { name: 'Recent activity' });
    await expect(activity).toContainText(`New lead for ${name}: Avery Seller (Calculator)`);
    await expect(activity).toContainText(`Estimate of $279,341.00 net on ${name}’s calculator`);

    // The chart's figures as a table: this week (the last row) has this test's estimates and leads.
    await page.getByText('Show the figures as a table').click();
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(13);
    const thisWeek = z.array(z.coerce.number()).parse(await rows.last().getByRole('cell').allTextContents());
    expect(thisWeek[0]).toBeGreaterThanOrEqual(3);
    expect(thisWeek[1]).toBeGreaterThanOrEqual(2);
    await expectNoAxeViolations(page, WCAG);

    const actions = page.getByRole('navigation', { name: 'Quick actions' });
    await expect(actions.getByRole('link')).toHaveText(['Manage Agents', 'All Leads', 'Site Settings']);
    await expect(actions.getByRole('link', { name: 'Manage Agents' })).toHaveAttribute('href', '/admin/agents');
  });

  test('/admin/profile is the admin’s own profile in the admin frame, and saves', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/profile');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Admin' });
    await expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: 'View Site' })).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveValue('Avery');

    const license = `1040${randomInt(1_000_000, 9_999_999)}`;
    await page.getByLabel('License number').fill(license);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();
    await expectNoAxeViolations(page, WCAG);

    await page.reload();
    await waitForIslands(page);
    await expect(page.getByLabel('License number')).toHaveValue(license);
    await expect(page).toHaveURL('/admin/profile');
  });
});
