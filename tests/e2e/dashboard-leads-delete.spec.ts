/**
 * Deleting leads from the leads screen: every lead only after the dialog's confirmation (Cancel
 * keeps them), the dialog's code with the first press, and with a search active only the matching
 * leads, named and counted.
 */
import * as z from 'zod';
import {
  expect,
  expectNoAxeViolations,
  shootPhoneAndDesktop,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';
import { leaveLeads, names, table, WCAG } from './dashboard-leads-seed.ts';

test.describe('the leads screen', () => {
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
});
