import * as z from 'zod';
import { calculate, emailsTo, expect, signInAsAdmin, submitContact, test, waitForIslands } from './fixtures.ts';

// The whole path of a lead's context: the page it came from and the estimate the seller made reach
// the agent's notice (the server's side is in tests/integration/lead-limits.test.ts).
test('a seller on a town page estimates, asks the agent to call, and the agent learns the town and the figures', async ({
  page,
}, testInfo) => {
  const email = `taylor.${testInfo.project.name}@example.com`;
  // The visitor came from a newsletter's link: the campaign stays with the lead (issue 23, M1).
  await page.goto('/long-island-real-estate/bay-shore?utm_source=newsletter&utm_campaign=fall-sellers');
  await page.getByRole('main').getByRole('button', { name: 'Get My Estimate' }).click();
  await calculate(page, { firstName: 'Taylor', price: '650000', mortgage: '300000' });
  const result = page.getByRole('dialog', { name: 'Your Estimate' });
  await expect(result.getByTestId('net-proceeds')).toBeVisible();
  await result.getByRole('button', { name: 'Talk to Alex' }).click();

  const contact = page.getByRole('dialog', { name: /^Work with / });
  await expect(contact.getByLabel('First name')).toHaveValue('Taylor');
  await submitContact(page, { firstName: 'Taylor', lastName: 'Reyes', phone: '6315550177', email });
  await expect(page.getByRole('status').filter({ hasText: 'Thank you! We will be in touch soon.' })).toBeVisible();

  const [notice] = await emailsTo('alex.morgan@example.com', 1, (message) => message.text.includes(email));
  expect(notice?.subject).toBe('New lead: Taylor Reyes');
  expect(notice?.text).toContain('Source: Town page: Bay Shore');
  expect(notice?.text).toContain('Sale Price: $650,000.00');
  expect(notice?.text).toMatch(/View the estimate online: \S+\/estimate\/[0-9a-f-]{36}/);
});

// Issue 23, M1: the lead is filed by its town page in the lists, not as "Showcase", and the Source
// filter finds town pages and that town; the CSV and the row keep the campaign.
test('a town-page lead is filed by its town in the leads table, and the Source filter finds it by town', async ({
  page,
}, testInfo) => {
  const email = `hank.${testInfo.project.name}@example.com`;
  await page.goto('/long-island-real-estate/huntington?utm_source=facebook&utm_campaign=spring');
  // The visitor reads on: the campaign is kept for the tab's session.
  await page.goto('/long-island-real-estate/huntington');
  await page
    .getByRole('main')
    .getByRole('button', { name: /^Talk to / })
    .first()
    .click();
  await submitContact(page, { firstName: 'Hank', lastName: 'Huntington', phone: '6315550188', email });
  await expect(page.getByRole('status').filter({ hasText: 'Thank you! We will be in touch soon.' })).toBeVisible();

  await signInAsAdmin(page);
  await page.goto('/admin/leads');
  await waitForIslands(page);
  await page.getByLabel('Search').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row.getByRole('cell', { name: 'Town page: Huntington' })).toBeVisible();
  const source = page.getByLabel('Source', { exact: true });
  await source.selectOption({ label: 'Huntington' });
  await expect(row).toBeVisible();
  // The search and the town together: this run's lead alone.
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('admin-leads-town.png'), fullPage: true });
  await source.selectOption({ label: 'Home page' });
  await expect(page.getByText(/No leads match/)).toBeVisible();
  await source.selectOption({ label: 'Town pages' });
  await expect(row).toBeVisible();
  const answer = await page.request.get(`/api/admin/leads?search=${encodeURIComponent(email)}`);
  const listed = z.object({ leads: z.array(z.object({ utm: z.unknown() })) }).parse(await answer.json());
  const campaign = JSON.stringify(listed.leads[0]?.utm);
  expect(campaign).toBe('{"source":"facebook","campaign":"spring"}');
});
