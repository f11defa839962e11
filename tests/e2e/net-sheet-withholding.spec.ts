import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, makeEstimate, test, waitForIslands } from './fixtures.ts';

/**
 * Taxes withheld at closing (issue 22, part W; decision 0042) on the worked example ($780,200,
 * $450,000 owed, Alex Morgan: 6 %, $4 per $1,000, attorney $750, recording $175): a foreign seller
 * whose buyer will live in the home and who does not live in New York, with a cost basis of $400,000.
 * By hand: FIRPTA 10 % (over $300,000, not over $1,000,000) = $78,020; IT-2663: selling expenses
 * $46,812 + $3,122 + $750 + $175 = $50,859, gain $780,200 − $50,859 − $400,000 = $329,341,
 * × 10.9 % = $35,898.169 → $35,898.17. Net $279,341 − $78,020 − $35,898.17 = $165,422.83.
 */

/** An element at both widths, into the run's output. */
async function shoot(page: Page, name: string, selector: string) {
  if (test.info().project.name !== 'desktop') return;
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator(selector).screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

test('a foreign, nonresident seller adds the taxes withheld at closing and sees them as lines', async ({ page }) => {
  const quick = await makeEstimate(page.request, 'alexmorgan');
  await page.goto(`/estimate/${quick.uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  const form = page.locator('form.refine-form');

  // Collapsed: most sellers never open it.
  const summary = form.locator('summary', { hasText: 'Taxes withheld at closing' });
  await expect(form.getByRole('checkbox', { name: 'I am a foreign seller' })).toBeHidden();
  await summary.click();
  await form.getByRole('checkbox', { name: 'I am a foreign seller' }).check();
  await form.getByRole('checkbox', { name: 'The buyer will live in the home' }).check();
  await form.getByRole('checkbox', { name: 'I do not live in New York State' }).check();
  await expect(form.getByLabel('Cost basis ($)')).toHaveAccessibleDescription(/Empty: figured on \$0/);
  // A principal residence owes none: the cost basis goes away while it is ticked.
  const residence = form.getByRole('checkbox', { name: 'The home fully qualifies as my principal residence' });
  await residence.check();
  await expect(form.getByLabel('Cost basis ($)')).toBeHidden();
  await residence.uncheck();
  await form.getByLabel('Cost basis ($)').fill('lots');
  await summary.click();
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  // A wrong figure opens the section and is said under its field.
  const basis = form.getByLabel('Cost basis ($)');
  await expect(basis).toHaveAttribute('aria-invalid', 'true');
  await expect(basis).toHaveAccessibleDescription(/Cost basis must be a dollar amount, like 450,000/);
  await basis.fill('400,000');
  await expectNoAxeViolations(page);
  await shoot(page, 'withholding-section', 'details.refine-section:has(summary:text("Taxes withheld at closing"))');
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();

  await page.waitForURL(
    (url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(quick.uuid),
  );
  const sheet = page.locator('.detailed-sheet');
  await expect(sheet.getByRole('row', { name: 'Taxes withheld at closing' })).toBeVisible();
  await expect(sheet.getByRole('row', { name: /FIRPTA withholding \(10%\)/ })).toContainText('−$78,020.00');
  await expect(sheet.getByRole('row', { name: /NY nonresident estimated tax \(IT-2663, 10.9%\)/ })).toContainText(
    '−$35,898.17',
  );
  await expect(sheet.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$165,422.83');
  await expect(sheet.getByText(/prepayment credited on the seller's US return/)).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'withholding-sheet', '.detailed-sheet');

  // The PDF the seller hands to their attorney prints the same lines.
  const uuid = new URL(page.url()).pathname.split('/').at(-1) ?? '';
  const pdf = await page.request.get(`/api/estimates/${uuid}/pdf`);
  expect(pdf.status()).toBe(200);
  if (test.info().project.name === 'desktop')
    writeFileSync(test.info().outputPath('withholding-sheet.pdf'), await pdf.body());
});
