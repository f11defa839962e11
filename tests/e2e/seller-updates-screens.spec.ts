/**
 * The seller-updates screens in a browser: /dashboard/updates (the switch, the empty state that says
 * how sellers opt in, the sample button's place), the leads list's Active column and "Ready to sell"
 * filter, the admin's card (the switch, the window refused and saved, the volumes), axe on each,
 * and screenshots at 390 and 1280 px. The e2e server's database takes no SQL from a test: sellers who
 * opted in (pause / resume, the Active badge) are proven on seeded rows in
 * tests/integration/seller-updates-*.test.ts, and come here with the opt-in forms.
 */
import { leaveLeads, WCAG } from './dashboard-leads-seed.ts';
import {
  expect,
  expectNoAxeViolations,
  shootPhoneAndDesktop,
  signInAsAdmin,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

test.describe('/dashboard/updates', () => {
  test('is in the navigation; an agent without subscribers is told how sellers opt in; the switch saves', async ({
    page,
  }, testInfo) => {
    await signInAsNewAgent(page);
    await page.goto('/dashboard');
    await waitForIslands(page);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Updates' }).click();
    await expect(page).toHaveURL('/dashboard/updates');
    await expect(page.getByRole('heading', { level: 1, name: 'Seller updates' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Updates' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText('No seller has asked for updates yet.')).toBeVisible();
    await expect(page.getByText(/Your calculator page, your contact form and each estimate page/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send me a sample' })).toBeEnabled();
    const toggle = page.getByRole('switch', { name: 'Send monthly updates to my sellers' });
    await expect(toggle).toBeChecked();
    await expectNoAxeViolations(page, WCAG);
    await shootPhoneAndDesktop(page, testInfo, 'updates-empty');

    await toggle.uncheck();
    await expect(page.getByRole('status').filter({ hasText: 'Monthly updates are off' })).toBeVisible();
    await page.reload();
    await waitForIslands(page);
    await expect(page.getByRole('switch', { name: 'Send monthly updates to my sellers' })).not.toBeChecked();
    await shootPhoneAndDesktop(page, testInfo, 'updates-off');
    await page.getByRole('switch', { name: 'Send monthly updates to my sellers' }).check();
    await expect(page.getByRole('status').filter({ hasText: 'Monthly updates are on' })).toBeVisible();
    await expectNoAxeViolations(page, WCAG);
  });
});

test.describe('the leads list', () => {
  test('has the Active column and the "Ready to sell (active)" filter, kept in the address', async ({
    page,
  }, testInfo) => {
    await signInAsNewAgent(page);
    await leaveLeads(page, 2, 'updates');
    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    const table = page.getByRole('table');
    await expect(table.getByRole('columnheader', { name: 'Active' })).toBeVisible();
    // Neither seller asked for updates: a dash in the column.
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.locator('td[data-label="Active"]').first()).toHaveText('—');
    await page.getByRole('checkbox', { name: 'Ready to sell (active)' }).check();
    await expect(page).toHaveURL(/[?&]updates=active/);
    await expect(page.getByText('No leads match these filters.')).toBeVisible();
    await expectNoAxeViolations(page, WCAG);
    await shootPhoneAndDesktop(page, testInfo, 'leads-ready-to-sell-none');
    await page.reload();
    await waitForIslands(page);
    await expect(page.getByRole('checkbox', { name: 'Ready to sell (active)' })).toBeChecked();
    await page.getByRole('button', { name: 'Show all leads' }).click();
    await expect(page.getByRole('checkbox', { name: 'Ready to sell (active)' })).not.toBeChecked();
    await expect(table.getByRole('row')).toHaveCount(3);
  });

  test('the admin’s list has the same column and filter', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/leads');
    await waitForIslands(page);
    await expect(page.getByRole('checkbox', { name: 'Ready to sell (active)' })).toBeVisible();
    await page.getByRole('checkbox', { name: 'Ready to sell (active)' }).check();
    await expect(page).toHaveURL(/[?&]updates=active/);
    await expect(page.getByText(/No leads match these filters\.|Leads of|Every agent/).first()).toBeVisible();
    await expectNoAxeViolations(page, WCAG);
  });
});

test.describe('the admin’s seller updates card', () => {
  // One test changes the site-wide settings at a time, and puts them back.
  test.describe.configure({ mode: 'serial' });

  test('turns sending off and on, refuses a window that ends before it starts, saves one, shows 12 months', async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'desktop', 'site-wide settings: changed from one project only');
    await signInAsAdmin(page);
    await page.goto('/admin/settings');
    await waitForIslands(page);
    const card = page.getByRole('region', { name: 'Seller updates', exact: true });
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Seller updates' })
      .click();
    await expect(card.getByRole('switch', { name: 'Send seller updates' })).toBeChecked();
    await expect(card.getByRole('table', { name: /Seller updates by month/ }).getByRole('row')).toHaveCount(13);
    await expectNoAxeViolations(page, WCAG);
    await card.scrollIntoViewIfNeeded();
    await shootPhoneAndDesktop(page, testInfo, 'admin-updates-card');

    await card.getByLabel('From').selectOption({ label: '6 pm' });
    await card.getByLabel('Until').selectOption({ label: '9 am' });
    await expect(card.getByText('The sending window must start before it ends')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expectNoAxeViolations(page, WCAG);
    await shootPhoneAndDesktop(page, testInfo, 'admin-updates-bad-window');

    await card.getByLabel('From').selectOption({ label: '8 am' });
    await card.getByLabel('Until').selectOption({ label: '8 pm' });
    await card.getByRole('switch', { name: 'Send seller updates' }).uncheck();
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'Seller update settings saved.' })).toBeVisible();
    await page.reload();
    await waitForIslands(page);
    await expect(card.getByRole('switch', { name: 'Send seller updates' })).not.toBeChecked();
    await expect(card.getByLabel('From')).toHaveValue('8');
    await expect(card.getByLabel('Until')).toHaveValue('20');

    // As it was: on, 9 am to 6 pm.
    await card.getByRole('switch', { name: 'Send seller updates' }).check();
    await card.getByLabel('From').selectOption({ label: '9 am' });
    await card.getByLabel('Until').selectOption({ label: '6 pm' });
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'Seller update settings saved.' })).toBeVisible();
  });
});
