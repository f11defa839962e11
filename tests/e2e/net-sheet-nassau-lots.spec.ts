import { LI_FEE_DEFAULTS } from '../../src/features/net-sheet/li-fees.ts';
import { expect, makeEstimate, test, waitForIslands } from './fixtures.ts';

/**
 * A Nassau home on two tax lots of one block (the worked example, $780,200 with one $450,000
 * mortgage, demo agent Alex Morgan): the tax map verification is charged per lot, the block fee per
 * block (research: docs/research/long-island-seller-credits-and-extras.md §4).
 */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const row = (key: keyof typeof LI_FEE_DEFAULTS, count: number) =>
  new RegExp(
    `^${LI_FEE_DEFAULTS[key].label.replace(/[()]/g, '\\$&')}.*−${usd.format((LI_FEE_DEFAULTS[key].cents * count) / 100).replace('$', '\\$')}$`,
  );

test('a seller with two Nassau lots on one block pays the tax map fee twice and the block fee once', async ({
  page,
}) => {
  const quick = await makeEstimate(page.request, 'alexmorgan');
  await page.goto(`/estimate/${quick.uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  const form = page.locator('form.refine-form');
  await form.locator('summary', { hasText: 'Closing date and place' }).click();
  await form.getByLabel('Town').fill('Garden City');
  await expect(form.getByLabel('County')).toHaveValue('Nassau');
  await form.getByLabel('Tax lots').fill('2');
  await form.getByLabel('Tax blocks').fill('3');
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await expect(form.getByLabel('Tax blocks')).toHaveAccessibleDescription(/A property has no more blocks than lots/);

  await form.getByLabel('Tax blocks').fill('');
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await page.waitForURL(
    (url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(quick.uuid),
  );
  const sheet = page.locator('.detailed-sheet');
  await expect(sheet.getByRole('row').filter({ hasText: 'Tax map verification' })).toHaveText(
    row('nassau_tax_map_verification', 2),
  );
  await expect(sheet.getByRole('row').filter({ hasText: 'Block fee' })).toHaveText(row('nassau_block_fee', 1));
  if (test.info().project.name === 'desktop') {
    await page.getByRole('button', { name: 'Refine this estimate' }).click();
    await page.locator('form.refine-form summary', { hasText: 'Closing date and place' }).click();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page
        .locator('form.refine-form details', { hasText: 'Closing date and place' })
        .screenshot({ path: test.info().outputPath(`nassau-lots-${width}.png`) });
    }
  }
});
