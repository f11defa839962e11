import type { Page } from '@playwright/test';
import { addDays } from '../../src/features/net-sheet/detailed-sheet.ts';
import { longIslandDate } from '../../src/features/net-sheet/stored-sheet.ts';
import { expect, expectNoAxeViolations, makeEstimate, test, waitForIslands } from './fixtures.ts';

/**
 * The newcomer audit's M5 on the refine form (issue 22, part B; decision 0038): per-diem interest
 * without the payoff letter's date and concessions above the price are refused at their field; a
 * closing already past and concessions over 10 % of the price are computed and warned about in
 * words on the sheet. The worked example: $780,200, $450,000 owed, the demo agent Alex Morgan.
 */

/** The page at both widths, into the run's output (looked at by hand). */
async function shoot(page: Page, name: string) {
  if (test.info().project.name !== 'desktop') return;
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

// The server's refusal of the concessions is the browser's "Failed to load resource … 400".
test.use({ consoleErrorsAllowed: [/status of 400 \(Bad Request\)/] });

test('the refine form refuses what no sale can have and warns of what is unusual', async ({ page }) => {
  const quick = await makeEstimate(page.request, 'alexmorgan');
  await page.goto(`/estimate/${quick.uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  const form = page.locator('form.refine-form');

  // Per-diem interest with no payoff date: it would run from some guessed day (audit M3).
  const lien = form.getByRole('group', { name: 'Lien 1' });
  await lien.getByLabel('Per-diem interest ($ a day)').fill('45.50');
  await form.locator('summary', { hasText: 'Commission and concessions' }).click();
  await form.getByLabel('Seller concessions ($)').fill('900,000');
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  const payoffDate = lien.getByLabel('Payoff good through');
  await expect(payoffDate).toHaveAccessibleDescription(
    /Payoff good-through date is required with per-diem interest: it is on the payoff letter/,
  );
  await expect(payoffDate).toBeFocused();

  // With the date, the server refuses concessions above the $780,200 price.
  await payoffDate.fill(addDays(longIslandDate(new Date()), -2));
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  const concessions = form.getByLabel('Seller concessions ($)');
  await expect(concessions).toHaveAccessibleDescription(/Seller concessions cannot be more than the sale price/);
  await expect(concessions).toBeFocused();
  await expectNoAxeViolations(page);
  await shoot(page, 'refused-concessions');

  // Legal but unusual: $90,000 (11.5 %) and a closing five days ago are computed, and said.
  await concessions.fill('90,000');
  const closing = addDays(longIslandDate(new Date()), -5);
  await form.locator('summary', { hasText: 'Closing date and place' }).click();
  await form.getByLabel('Closing date').fill(closing);
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await page.waitForURL(
    (url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(quick.uuid),
  );
  const warnings = page.getByRole('note', { name: 'Please check' });
  await expect(warnings.getByRole('listitem')).toHaveText([
    /^The closing date, .+, has already passed\. Taxes and interest are figured to that day/,
    "Seller concessions are 11.5% of the price: more than 10% is unusual, and a buyer's lender may not allow it. Check the amount with your agent.",
  ]);
  await expect(page.locator('[data-line="seller_concessions"]')).toContainText('−$90,000.00');
  await expectNoAxeViolations(page);
  await shoot(page, 'warned-sheet');

  // The shared link says the same after a reload.
  await page.reload();
  await waitForIslands(page);
  await expect(page.getByRole('note', { name: 'Please check' }).getByRole('listitem')).toHaveCount(2);
});
