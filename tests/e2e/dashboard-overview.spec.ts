import type { Page } from '@playwright/test';
import {
  expect,
  expectNoAxeViolations,
  expectNoLayoutShiftOnLoad,
  makeContactLead,
  makeEstimate,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const stat = (page: Page, label: string | RegExp) =>
  page.getByRole('list', { name: 'Your figures' }).getByRole('listitem').filter({ hasText: label });

test.describe('the dashboard overview', () => {
  test('nothing on the screen moves when the figures arrive (no layout shift, issue 23)', async ({ page }) => {
    await signInAsNewAgent(page);
    await expectNoLayoutShiftOnLoad(page, {
      path: '/dashboard',
      held: '/api/agents/me/overview',
      loading: page.getByText('Loading your figures…'),
      loaded: page.getByRole('navigation', { name: 'Quick actions' }),
    });
  });

  test('shows figures equal to the estimates and leads made on the agent’s page', async ({ page }) => {
    const agent = await signInAsNewAgent(page);
    for (let index = 0; index < 3; index += 1) await makeEstimate(page.request, agent.slug);
    await makeContactLead(page.request, agent.slug, 'Robin');
    await makeContactLead(page.request, agent.slug, 'Avery');

    await page.goto('/dashboard');
    await waitForIslands(page);
    await expect(stat(page, 'Leads this month')).toContainText('2');
    await expect(stat(page, /^Leads\d/)).toContainText('2');
    await expect(stat(page, 'Estimates')).toContainText('3');
    await expect(stat(page, 'Conversion')).toContainText('66.7%');

    const activity = page.getByRole('region', { name: 'Recent activity' });
    const items = activity.getByRole('listitem');
    await expect(items.first()).toContainText(/New lead: Avery Seller|E-mail sent/);
    await expect(activity).toContainText('New lead: Robin Seller (Calculator)');
    await expect(activity).toContainText('Estimate of $279,341.00 net on your calculator');

    // The chart's figures as a table: this week (the last row) has them all.
    await page.getByText('Show the figures as a table').click();
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(13);
    await expect(rows.last().getByRole('cell')).toHaveText(['3', '2']);
    await expectNoAxeViolations(page, WCAG);

    await expect(page.getByRole('link', { name: 'View My Calculator' })).toHaveAttribute('href', `/r/${agent.slug}`);
    await page.getByRole('link', { name: 'My Settings' }).click();
    await expect(page).toHaveURL('/dashboard/settings');
  });

  test('a new agent sees empty figures and the profile banner, which can be dismissed', async ({ page }) => {
    const agent = await signInAsNewAgent(page);
    await page.goto('/dashboard');
    await waitForIslands(page);
    await expect(stat(page, 'Conversion')).toContainText('—');
    await expect(stat(page, 'Estimates')).toContainText('0');
    await expect(page.getByText('No recent activity')).toBeVisible();

    // Only what is missing (the sign-up gave the names and the brokerage), linked to its field (audit M6).
    const banner = page.getByRole('region', { name: 'Complete your profile' });
    await expect(banner).toContainText(
      `/r/${agent.slug} shows “Coming Soon” to sellers until your profile has your professional title.`,
    );
    await expect(banner.getByRole('listitem')).toHaveText(['Add your professional title']);
    await expect(banner.getByRole('link', { name: 'Add your professional title' })).toHaveAttribute(
      'href',
      '/dashboard/profile#profile-professional_title',
    );
    await expect(banner.getByRole('link', { name: 'Complete your profile' })).toHaveAttribute(
      'href',
      '/dashboard/profile',
    );
    await expectNoAxeViolations(page, WCAG);
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await waitForIslands(page);
    await expect(page.getByText('No recent activity')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Complete your profile' })).toBeHidden();
    // Only on the overview and the profile form: other screens never show it.
    await page.evaluate(() => window.localStorage.clear());
    await page.goto('/dashboard/settings');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { name: 'Calculator settings' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Complete your profile' })).toBeHidden();
  });

  test('the profile form names what the page still needs, marks its field, and the banner goes once it is saved', async ({
    page,
  }, testInfo) => {
    await signInAsNewAgent(page);
    await page.goto('/dashboard');
    await waitForIslands(page);
    await page.getByRole('link', { name: 'Add your professional title' }).click();
    await expect(page).toHaveURL(/\/dashboard\/profile#profile-professional_title$/);
    await waitForIslands(page);
    const banner = page.getByRole('region', { name: 'Complete your profile' });
    await expect(banner.getByRole('listitem')).toHaveText(['Add your professional title']);
    await expect(banner.getByRole('button', { name: 'Dismiss' })).toHaveCount(0);
    const title = page.getByLabel('Professional title');
    await expect(title).toHaveAccessibleDescription(/Needed for your calculator page/);
    await expect(page.getByLabel('Brokerage', { exact: true })).not.toHaveAccessibleDescription(/Needed/);
    await page.screenshot({ path: testInfo.outputPath('profile-missing.png'), fullPage: true });
    await expectNoAxeViolations(page, WCAG);
    await title.selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();
    await expect(banner).toBeHidden();
  });
});
