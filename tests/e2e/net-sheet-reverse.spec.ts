import type { Locator, Page, TestInfo } from '@playwright/test';
import {
  clickNav,
  expect,
  expectNoAxeViolations,
  recordApiCalls,
  test,
  waitForIslands,
  unlockEstimate,
} from './fixtures.ts';

/**
 * The demo agent's net at a whole-dollar price, in cents, from the rules the site states (README):
 * 6.00 % commission, New York's transfer tax of $2 per $500 or part of it, a $750 attorney fee and
 * a $175 recording fee, then the payoff. Worked out here, not read from the answer.
 */
const netCents = (priceDollars: number, payoffDollars: number) =>
  priceDollars * 100 - priceDollars * 6 - Math.ceil(priceDollars / 500) * 200 - 750_00 - 175_00 - payoffDollars * 100;

const money = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

/** The price of "Sell for at least $X", as a number of dollars. */
async function answeredPrice(scope: Page | Locator): Promise<number> {
  const text = await scope.getByTestId('sale-price-answer').textContent();
  const match = /Sell for at least \$([\d,]+)$/.exec(text ?? '');
  expect(match, `answer: ${text}`).not.toBeNull();
  return Number((match?.[1] ?? '').replace(/,/g, ''));
}

/** The lowest price netting the target: it nets at least the target, and one dollar less nets less. */
function expectLowestPriceFor(price: number, targetDollars: number, payoffDollars: number) {
  expect(netCents(price, payoffDollars)).toBeGreaterThanOrEqual(targetDollars * 100);
  expect(netCents(price - 1, payoffDollars)).toBeLessThan(targetDollars * 100);
}

/** A screenshot for review: of the screen for a modal, of the whole page otherwise. */
const shot = (page: Page, info: TestInfo, name: string) =>
  page.screenshot({
    path: info.outputPath(`${name}.png`),
    fullPage: !name.startsWith('modal'),
  });

// The brief's screenshots are at 390 px on a phone (Pixel 7's 412 px is the project's default).
test.beforeEach(async ({ page }, info) => {
  if (info.project.name === 'phone') await page.setViewportSize({ width: 390, height: 844 });
});

test.describe('what must I sell for, in the home page calculator', () => {
  test('a seller asks for the net they want and gets the lowest price that nets it', async ({ page }, info) => {
    await page.goto('/');
    await waitForIslands(page);
    await clickNav(page, 'Get Estimate');
    const calculator = page.getByRole('dialog', { name: 'What Will You Net?' });
    const priceTab = calculator.getByRole('tab', { name: 'What will I net?' });
    const netTab = calculator.getByRole('tab', { name: 'What must I sell for?' });
    await expect(priceTab).toHaveAttribute('aria-selected', 'true');
    await calculator.getByLabel('First name').fill('Pat');
    await calculator.getByLabel('Mortgage balance').pressSequentially('450000');
    await shot(page, info, 'modal-price-tab');

    // The keyboard moves between the tabs; the name and the balance stay as typed.
    await priceTab.focus();
    await page.keyboard.press('ArrowRight');
    await expect(netTab).toBeFocused();
    await expect(netTab).toHaveAttribute('aria-selected', 'true');
    await expect(calculator.getByRole('tabpanel', { name: 'What must I sell for?' })).toBeVisible();
    await expect(calculator.getByLabel('First name')).toHaveValue('Pat');
    await expect(calculator.getByLabel('Mortgage balance')).toHaveValue('450,000');
    await shot(page, info, 'modal-reverse-form');
    await expectNoAxeViolations(page);

    const target = calculator.getByLabel('Target net');
    await target.pressSequentially('300000');
    await expect(target).toHaveValue('300,000');
    await calculator.getByRole('button', { name: 'Find My Sale Price' }).click();

    const result = page.getByRole('dialog', { name: 'Your Estimate' });
    await expect(result.getByTestId('sale-price-answer')).toBeVisible();
    const price = await answeredPrice(result);
    expectLowestPriceFor(price, 300_000, 450_000);
    // The estimate at that price, shown as the price tab shows one.
    await expect(result.getByText("Hello Pat! Here's your estimated net proceeds:")).toBeVisible();
    await expect(result.getByRole('row').first()).toHaveText(`Sale Price${money(price * 100)}`);
    await expect(result.getByTestId('net-proceeds')).toHaveText(`Your Net Proceeds${money(netCents(price, 450_000))}`);
    await expect(result.getByRole('button', { name: 'Copy Estimate Link' })).toBeVisible();
    await shot(page, info, 'modal-reverse-answer');
    await expectNoAxeViolations(page);

    // Calculate Again goes back to the same question.
    await result.getByRole('button', { name: 'Calculate Again' }).click();
    await expect(calculator.getByRole('tab', { name: 'What must I sell for?' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(calculator.getByLabel('Target net')).toHaveValue('');
  });
});

test.describe('a net no price can reach', () => {
  // The 422 answer is the browser's console error of a failed request, expected here.
  test.use({ consoleErrorsAllowed: [/status of 422/] });

  test('in the home page calculator is said on the target field; an empty form sends nothing', async ({
    page,
  }, info) => {
    const calls = recordApiCalls(page, '/api/estimates/reverse');
    await page.goto('/');
    await waitForIslands(page);
    await clickNav(page, 'Get Estimate');
    const calculator = page.getByRole('dialog', { name: 'What Will You Net?' });
    await calculator.getByRole('tab', { name: 'What must I sell for?' }).click();
    await calculator.getByRole('button', { name: 'Find My Sale Price' }).click();
    await expect(calculator.getByText('First name is required')).toBeVisible();
    await expect(calculator.getByText('Target net is required')).toBeVisible();
    await expect(calculator.getByText('Mortgage balance is required')).toBeVisible();
    expect(calls).toEqual([]);

    await calculator.getByLabel('First name').fill('Pat');
    await calculator.getByLabel('Mortgage balance').fill('0');
    // $95,000,000 net: even at $100,000,000 the commission and the tax leave less.
    await calculator.getByLabel('Target net').fill('95000000');
    await calculator.getByRole('button', { name: 'Find My Sale Price' }).click();
    const target = calculator.getByLabel('Target net');
    await expect(target).toHaveAttribute('aria-invalid', 'true');
    await expect(target).toHaveAccessibleDescription(/100,000,000/);
    expect(calls).toHaveLength(1);
    await shot(page, info, 'modal-reverse-unreachable');
  });

  test('on an agent page is said on the target field', async ({ page }) => {
    await page.goto('/r/alexmorgan');
    await waitForIslands(page);
    await page.getByRole('tab', { name: 'What must I sell for?' }).click();
    await page.getByLabel('Target net').fill('99000000');
    await page.getByLabel('Mortgage balance').fill('0');
    await page.getByRole('button', { name: 'Find My Sale Price' }).click();
    await expect(page.getByLabel('Target net')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('heading', { name: 'Your estimate is ready' })).toHaveCount(0);
  });
});

test.describe('what must I sell for, on an agent page', () => {
  test('the answer is locked until the seller leaves their details, then shows the price and the estimate', async ({
    page,
  }, info) => {
    await page.goto('/r/alexmorgan');
    await waitForIslands(page);
    await shot(page, info, 'agent-price-tab');
    await page.getByRole('tab', { name: 'What must I sell for?' }).click();
    await page.getByLabel('Target net').pressSequentially('250000');
    await page.getByLabel('Mortgage balance').pressSequentially('200000');
    await shot(page, info, 'agent-reverse-form');
    await page.getByRole('button', { name: 'Find My Sale Price' }).click();

    await expect(page.getByRole('heading', { name: 'Your estimate is ready' })).toBeVisible();
    await expect(page.getByTestId('sale-price-answer')).toHaveCount(0);
    await shot(page, info, 'agent-reverse-locked');
    await unlockEstimate(page, {
      firstName: 'Robin',
      lastName: 'Park',
      phone: '6315550199',
      email: `robin.reverse+${info.project.name}@example.com`,
    });

    const price = await answeredPrice(page);
    expectLowestPriceFor(price, 250_000, 200_000);
    await expect(page.getByTestId('net-proceeds')).toHaveText(`Your Net Proceeds${money(netCents(price, 200_000))}`);
    await expect(page.getByRole('row').first()).toHaveText(`Sale Price${money(price * 100)}`);
    await shot(page, info, 'agent-reverse-answer');
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Start New Calculation' }).click();
    await expect(page.getByRole('tab', { name: 'What must I sell for?' })).toHaveAttribute('aria-selected', 'true');
  });
});
