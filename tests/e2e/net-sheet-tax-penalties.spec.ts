import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, makeEstimate, test, waitForIslands } from './fixtures.ts';

/**
 * Penalties on an overdue tax half on the refine form (issue 22, part P; decision 0043): a Suffolk
 * seller whose 1st half is unpaid on a March 15, 2027 closing sees "Penalty on the overdue property
 * tax, 1st half", 3 % of the $6,000 half (Islip Receiver: after Jan 10 1 %, after Feb 10 2 %, after
 * Mar 10 3 %), in the prorations with its why, and the warning above the figures.
 */

/** The page at both widths, into the run's output (looked at by hand). */
async function shoot(page: Page, name: string) {
  if (test.info().project.name !== 'desktop') return;
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    // The warning and the line itself, at the size a seller reads them.
    await page.screenshot({ path: test.info().outputPath(`${name}-top-${width}.png`) });
    await page.locator('[data-line="tax_suffolk_1_penalty"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-line-${width}.png`) });
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  if (size) await page.setViewportSize(size);
}

test('an unpaid Suffolk 1st half past January 10 carries its penalty and a warning', async ({ page }) => {
  const quick = await makeEstimate(page.request, 'alexmorgan');
  await page.goto(`/estimate/${quick.uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  const form = page.locator('form.refine-form');

  await form.locator('summary', { hasText: 'Closing date and place' }).click();
  await form.getByLabel('Closing date').fill('2027-03-15');
  await form.getByLabel('County').selectOption('Suffolk');
  await form.locator('summary', { hasText: 'Property taxes' }).click();
  const bill = form.getByRole('group', { name: 'Property tax' });
  await bill.getByLabel('Annual amount ($)').fill('12,000');
  await expect(bill.getByLabel('1st half paid')).not.toBeChecked();
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await page.waitForURL(
    (url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(quick.uuid),
  );

  const penalty = page.locator('[data-line="tax_suffolk_1_penalty"]');
  await expect(penalty).toContainText('Penalty on the overdue property tax, 1st half');
  await expect(penalty).toContainText('$180.00');
  await expect(penalty).toContainText('3% of $6,000.00');
  await expect(page.getByRole('note', { name: 'Please check' }).getByRole('listitem')).toHaveText([
    /^The 1st half of the property tax is past due: it was payable without penalty until January 10, 2027, so the sheet adds the penalty owed at closing \(\$180\.00\)\./,
  ]);
  await expectNoAxeViolations(page);
  await shoot(page, 'penalty-sheet');
});
