import * as z from 'zod';
import { calculate, clickNav, expect, expectNoAxeViolations, test, waitForIslands } from './fixtures.ts';

// axe over the dynamic states: every modal open, on the pages that have it.
test.describe('accessibility with modals open', () => {
  for (const path of ['/', '/long-island-real-estate/nassau-county', '/long-island-real-estate/bay-shore']) {
    test(`${path}: calculator form, result and contact modal`, async ({ page }) => {
      await page.goto(path);
      await clickNav(page, 'Get Estimate');
      await expect(page.getByRole('dialog', { name: 'What Will You Net?' })).toBeVisible();
      await expectNoAxeViolations(page);
      await calculate(page, { firstName: 'Ari', price: '650000', mortgage: '300000' });
      await expect(page.getByTestId('net-proceeds')).toBeVisible();
      await expectNoAxeViolations(page);
      await page
        .getByRole('dialog', { name: 'Your Estimate' })
        .getByRole('button', { name: /^Talk to / })
        .click();
      await expect(page.getByRole('dialog', { name: /^Work with / })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }

  test('/r/{slug}: locked estimate and unlock form', async ({ page }) => {
    await page.goto('/r/alexmorgan');
    await waitForIslands(page);
    await page.getByLabel('Sale Price').fill('500000');
    await page.getByLabel('Mortgage balance').fill('100000');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await expect(page.getByRole('button', { name: 'Unlock Your Estimate' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Unlock Your Estimate' }).click();
    await expect(page.getByRole('dialog', { name: 'Unlock Your Estimate' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('/estimate/{uuid}: send-to-e-mail form', async ({ page, request }) => {
    const created = await request.post('/api/estimates', { data: { agent_slug: 'alexmorgan', sale_price: 500000 } });
    const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate.uuid;
    await page.goto(`/estimate/${uuid}`);
    await page.getByRole('button', { name: 'Send this to my email' }).click();
    await expect(page.getByRole('dialog', { name: 'Send this to my email' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
