import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, makeEstimate, recordApiCalls, test, waitForIslands } from './fixtures.ts';

/**
 * The seller's own attorney fee, a credit (the heating oil left in the tank, which the buyer repays
 * under the NY standard contract's apportionments, ¶18:
 * https://betenskylaw.com/part-19-what-are-apportionments-and-other-adjustments-in-a-residential-contract-of-sale/)
 * a cost as a percent of the price and the final water bill, on the worked example ($780,200, $450,000 owed) of the demo
 * agent Alex Morgan ($750 attorney; the title closer pick-up, on by the agent's default, starts off on
 * the refine form of a quick estimate, decision 0037).
 */
const QUICK_NET = 279_341_00;
const ATTORNEY = 2_250_00; // replaces the agent's $750
const FUEL_OIL = 612_40;
// 1.25 % of $780,200 = $9,752.50.
const FLIP_TAX = 975_250;
// The final meter reading's bill, paid by the seller (same ¶18).
const WATER = 184_37;
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const money = (cents: number) => usd.format(cents / 100);

/** One part of the page (the form, the sheet) at both widths, into the run's output. */
async function shoot(page: Page, name: string, selector: string) {
  if (test.info().project.name !== 'desktop') return;
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator(selector).screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

async function openRefine(page: Page) {
  const quick = await makeEstimate(page.request, 'alexmorgan');
  await page.goto(`/estimate/${quick.uuid}`);
  await waitForIslands(page);
  await expect(page.getByTestId('net-proceeds')).toHaveText(`Your Net Proceeds${money(QUICK_NET)}`);
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  return page.locator('form.refine-form');
}

test('a seller gives their attorney’s fee, a credit and a percent cost, and the sheet shows each', async ({ page }) => {
  // Two accessibility scans and two sets of screenshots on a shared, busy machine.
  test.slow();
  const form = await openRefine(page);

  await form.locator('summary', { hasText: 'Closing fees' }).click();
  const attorney = form.getByLabel('Your attorney’s fee ($)');
  await expect(attorney).toHaveAttribute('placeholder', '750');
  await expect(attorney).toHaveAccessibleDescription(/Empty: \$750, your agent’s usual figure/);
  await attorney.fill('2,250');

  await form.locator('summary', { hasText: 'Other costs and credits' }).click();
  await form.getByLabel('Final water bill ($)').fill('184.37');
  await form.getByRole('button', { name: 'Add a cost or credit' }).click();
  const oil = form.getByRole('group', { name: 'Line 1' });
  await oil.getByLabel('What it is').fill('Fuel oil in the tank');
  await oil.getByLabel('Cost or credit').selectOption('credit');
  await oil.getByLabel('Amount ($)').fill('612.40');
  await form.getByRole('button', { name: 'Add a cost or credit' }).click();
  const flip = form.getByRole('group', { name: 'Line 2' });
  await flip.getByLabel('What it is').fill('Flip tax');
  await flip.getByLabel('Given as').selectOption('percent');
  await flip.getByLabel('Percent (%)').fill('1.25');
  await expectNoAxeViolations(page);
  await shoot(page, 'refine-credits-form', 'form.refine-form');

  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await page.waitForURL((url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname));
  const sheet = page.locator('.detailed-sheet');
  await expect(sheet.getByRole('row').filter({ hasText: 'Attorney fee' })).toHaveText(
    new RegExp(`^Attorney fee.*−${money(ATTORNEY).replace('$', '\\$')}$`),
  );
  await expect(sheet.getByRole('row').filter({ hasText: 'Fuel oil in the tank' })).toHaveText(
    /^Fuel oil in the tank.*\+\$612\.40 credit$/,
  );
  await expect(sheet.getByRole('row').filter({ hasText: 'Flip tax' })).toHaveText(
    /^Flip tax \(1\.25%\).*−\$9,752\.50$/,
  );
  await expect(sheet.getByRole('row').filter({ hasText: 'Final water bill' })).toHaveText(
    /^Final water bill.*−\$184\.37$/,
  );
  // No title-closer pick-up: a quick estimate's refine form starts with its fee switches off (decision 0037).
  const net = QUICK_NET - (ATTORNEY - 750_00) + FUEL_OIL - FLIP_TAX - WATER;
  await expect(sheet.getByTestId('net-proceeds')).toHaveText(`Your Net Proceeds${money(net)}`);
  await expectNoAxeViolations(page);
  await shoot(page, 'refined-credits-sheet', '.detailed-sheet');

  // Refining again starts from what the seller gave.
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  const again = page.locator('form.refine-form');
  await again.locator('summary', { hasText: 'Closing fees' }).click();
  await expect(again.getByLabel('Your attorney’s fee ($)')).toHaveValue('2,250');
  await expect(again.getByLabel('Final water bill ($)')).toBeHidden();
  await again.locator('summary', { hasText: 'Other costs and credits' }).click();
  await expect(again.getByLabel('Final water bill ($)')).toHaveValue('184.37');
  await expect(again.getByRole('group', { name: 'Line 1' }).getByLabel('Cost or credit')).toHaveValue('credit');
  await expect(again.getByRole('group', { name: 'Line 2' }).getByLabel('Percent (%)')).toHaveValue('1.25');
});

test('percent costs over 10% of the price in all are refused under the lines, and nothing is sent', async ({
  page,
}) => {
  const sent = recordApiCalls(page, '/api/estimates');
  const form = await openRefine(page);
  await form.locator('summary', { hasText: 'Other costs and credits' }).click();
  for (const [index, percent] of [
    [1, '6'],
    [2, '4.5'],
  ] as const) {
    await form.getByRole('button', { name: 'Add a cost or credit' }).click();
    const line = form.getByRole('group', { name: `Line ${index}` });
    await line.getByLabel('What it is').fill(`Fee ${index}`);
    await line.getByLabel('Given as').selectOption('percent');
    await line.getByLabel('Percent (%)').fill(percent);
  }
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await expect(
    form.getByRole('alert').filter({ hasText: 'Percent-based costs can add up to at most 10% of the price' }),
  ).toBeVisible();
  await expect(form.getByRole('alert').filter({ hasText: 'Please check the fields marked above:' })).toBeVisible();
  expect(sent).toEqual([]);
  await shoot(page, 'refine-credits-refused', 'form.refine-form');
});
