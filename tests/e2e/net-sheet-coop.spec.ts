import { LI_FEE_DEFAULTS } from '../../src/features/net-sheet/li-fees.ts';
import { expect, expectNoAxeViolations, makeEstimate, test, waitForIslands } from './fixtures.ts';

/**
 * A Nassau co-op (the worked example, $780,200 with a $450,000 share loan, demo agent Alex Morgan):
 * no deed, no satisfaction recorded, so none of Nassau's recording fees; a UCC-3, the co-op's attorney
 * and move-out deposit from the fee table, and a flip tax of 2 % of the price (research:
 * docs/research/long-island-seller-credits-and-extras.md §5).
 */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const row = (label: string, cents: number) =>
  new RegExp(`^${escape(label)}.*${escape(`−${usd.format(cents / 100)}`)}$`);

test('a co-op seller sees the co-op fees and the flip tax, and no recording fees', async ({ page }) => {
  test.slow();
  const quick = await makeEstimate(page.request, 'alexmorgan');
  await page.goto(`/estimate/${quick.uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  const form = page.locator('form.refine-form');
  await form.locator('summary', { hasText: 'Closing date and place' }).click();
  await form.getByLabel('Town').fill('Garden City');
  await form.getByLabel('County').selectOption('Nassau');
  await form.getByLabel('Property type').selectOption('coop');
  // A co-op owner gets no tax bill and files no RP-5217 (decision 0044): the form asks for neither.
  const taxes = form.locator('details', { has: page.locator('summary', { hasText: 'Property taxes' }) });
  await taxes.locator('summary').click();
  await expect(taxes.getByText('A co-op owner gets no property tax bill')).toBeVisible();
  await expect(taxes.getByRole('group', { name: 'School tax' })).toHaveCount(0);
  await expect(taxes.getByRole('group', { name: 'Village tax' })).toHaveCount(0);
  await form.locator('summary', { hasText: 'Closing fees' }).click();
  await expect(form.getByLabel('RP-5217 filing paid by me')).toHaveCount(0);
  if (test.info().project.name === 'desktop') {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await taxes.screenshot({ path: test.info().outputPath(`coop-taxes-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  const flip = form.getByRole('group', { name: 'Co-op flip tax' });
  await flip.getByLabel('Figured as').selectOption('profit');
  await flip.getByLabel('Percent (%)').fill('2');
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await expect(flip.getByLabel('What you paid ($)')).toHaveAccessibleDescription(
    /Give what you paid, to figure the profit/,
  );
  await flip.getByLabel('Figured as').selectOption('price');
  await expectNoAxeViolations(page);
  if (test.info().project.name === 'desktop') {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await form
        .locator('details', { hasText: 'Closing date and place' })
        .screenshot({ path: test.info().outputPath(`coop-form-${width}.png`) });
    }
  }
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await page.waitForURL(
    (url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(quick.uuid),
  );

  const sheet = page.locator('.detailed-sheet');
  for (const key of ['coop_ucc3_filing', 'coop_transfer_agent', 'coop_move_out_deposit'] as const)
    await expect(sheet.getByRole('row').filter({ hasText: LI_FEE_DEFAULTS[key].label })).toHaveText(
      row(LI_FEE_DEFAULTS[key].label, LI_FEE_DEFAULTS[key].cents),
    );
  // 2 % of $780,200 = $15,604.
  await expect(sheet.getByRole('row').filter({ hasText: 'Flip tax' })).toHaveText(row('Flip tax (2%)', 15_604_00));
  await expect(sheet.getByRole('row').filter({ hasText: 'Tax map verification' })).toHaveCount(0);
  await expect(sheet.getByRole('row').filter({ hasText: 'Recording fee' })).toHaveCount(0);
  await expect(sheet.getByRole('row').filter({ hasText: 'NYS transfer tax' })).toHaveText(
    row('NYS transfer tax', 3_122_00),
  );
  if (test.info().project.name === 'desktop') {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await sheet.screenshot({ path: test.info().outputPath(`coop-sheet-${width}.png`) });
    }
  }
});
