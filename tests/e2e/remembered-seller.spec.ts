import { expect, recordApiCalls, test, unlockEstimate, waitForIslands } from './fixtures.ts';

// Issue 23, newcomer audit M2: a seller trying three prices on /r/{slug} typed their details three
// times, a reload lost the result, and the result had no address of its own.
test('a seller who unlocked is remembered: later results unlock at once, a reload keeps the result, each has a link', async ({
  page,
}, testInfo) => {
  const email = `remembered.${testInfo.project.name}@example.org`;
  const leads = recordApiCalls(page, '/api/leads');
  await page.goto('/r/alexmorgan');
  await waitForIslands(page);
  await page.getByLabel('Sale Price').pressSequentially('780200');
  await page.getByLabel('Mortgage balance').fill('450000');
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(page).toHaveURL(/\/r\/alexmorgan\?estimate=[0-9a-f-]{36}$/);
  await unlockEstimate(page, { firstName: 'Rémy', lastName: 'Stone', phone: '6315550177', email });
  await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
  const first = new URL(page.url()).searchParams.get('estimate');

  // A reload keeps the result, unlocked for the same browser, and says nothing of an e-mail.
  await page.reload();
  await waitForIslands(page);
  await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
  await expect(page.getByText(`Unlocked for ${email} in this browser.`)).toBeVisible();
  await expect(page.getByText(/We have e-mailed/)).toHaveCount(0);

  // A second price: unlocked at once with the same details, as the lead's newer estimate.
  await page.getByRole('button', { name: 'Start New Calculation' }).click();
  await expect(page).toHaveURL(/\/r\/alexmorgan$/);
  await page.getByLabel('Sale Price').pressSequentially('800000');
  await page.getByLabel('Mortgage balance').fill('450000');
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(page.getByRole('dialog', { name: 'Unlock Your Estimate' })).toHaveCount(0);
  await expect(page.getByText(`We have e-mailed this estimate to ${email}`)).toBeVisible();
  const second = new URL(page.url()).searchParams.get('estimate');
  expect(second).not.toBe(first);
  expect(leads).toHaveLength(2);
  expect(leads[1]?.body).toMatchObject({
    first_name: 'Rémy',
    last_name: 'Stone',
    email,
    consent_marketing: true,
    estimate_uuid: second,
  });

  // The result's own link, to keep or send on.
  await page.getByRole('button', { name: 'Copy link to this estimate' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `/estimate/${second ?? ''}` })
      .or(page.getByRole('status').filter({ hasText: 'Link to this estimate copied to clipboard!' })),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('remembered.png'), fullPage: true });

  // "Not you?": forgotten, and locked again.
  await page.getByRole('button', { name: 'Not you?' }).click();
  await expect(page.getByRole('button', { name: 'Unlock Your Estimate' })).toBeVisible();
  await page.reload();
  await waitForIslands(page);
  await expect(page.getByRole('button', { name: 'Unlock Your Estimate' })).toBeVisible();
});
