import { readFile } from 'node:fs/promises';
import { expect, signInAsNewAgent, test, waitForIslands, unlockEstimate } from './fixtures.ts';

// The straight path an agent takes, through the real screens: a new account completes its profile,
// sets its commission, a seller uses the calculator page, and the lead shows up everywhere it should.
test('sign up to a working calculator page, a seller’s lead in the table, the CSV and the overview', async ({
  page,
  browser,
}) => {
  const agent = await signInAsNewAgent(page);
  await page.goto('/dashboard/profile');
  await waitForIslands(page);
  await page.getByLabel('Professional title').selectOption('Licensed Associate Broker');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();

  await page.goto('/dashboard/settings');
  await waitForIslands(page);
  await page.getByLabel('Commission (%)').fill('5');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status')).toHaveText('Calculator settings saved successfully!');

  // A seller, in a browser of their own.
  const seller = await browser.newPage();
  await seller.goto(`/r/${agent.slug}`);
  await waitForIslands(seller);
  await expect(seller.getByText(`${agent.first_name} ${agent.last_name} · Harbor Point Realty (demo)`)).toBeVisible();
  await seller.getByLabel('Sale Price').fill('700000');
  await seller.getByLabel('Mortgage balance').fill('300000');
  await seller.getByRole('button', { name: 'Calculate' }).click();
  const email = `morgan.${agent.slug}@example.com`;
  await unlockEstimate(seller, {
    firstName: 'Morgan',
    lastName: 'Lee',
    phone: '6315550123',
    email,
  });
  // The new commission is the one the seller's estimate used.
  await expect(seller.getByText('Commission (5%)')).toBeVisible();
  await seller.close();

  await page.goto('/dashboard/leads');
  await waitForIslands(page);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Morgan Lee');
  await expect(row.getByRole('link', { name: /estimate/i })).toHaveAttribute('target', '_blank');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await downloading).path()) ?? '', 'utf8');
  expect(csv).toContain(`"Morgan Lee","${email}"`);

  await page.goto('/dashboard');
  await waitForIslands(page);
  const figures = page.getByRole('list', { name: 'Your figures' }).getByRole('listitem');
  await expect(figures.filter({ hasText: /^Leads\d/ })).toContainText('1');
  await expect(figures.filter({ hasText: 'Estimates' })).toContainText('1');
  await expect(figures.filter({ hasText: 'Conversion' })).toContainText('100.0%');
  await expect(page.getByText(`New lead: Morgan Lee (Calculator page /r/${agent.slug})`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Complete your profile' })).toHaveCount(0);
});
