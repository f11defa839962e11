import { expect, expectNoAxeViolations, makeEstimate, signInAsNewAgent, test, waitForIslands } from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

test.describe('the calculator settings', () => {
  test('a saved commission is used by the next estimate; an earlier one keeps its own', async ({ page }) => {
    const agent = await signInAsNewAgent(page);
    const earlier = await makeEstimate(page.request, agent.slug);
    expect(earlier.commission_percent).toBe(6);

    await page.goto('/dashboard/settings');
    await waitForIslands(page);
    const commission = page.getByLabel('Commission (%)');
    // The saved values (the system defaults for a new agent) are loaded; the placeholders are examples.
    await expect(page.getByLabel('Attorney fee ($)')).toHaveValue('750');
    await expect(page.getByLabel('Recording fee ($)')).toHaveValue('175');
    await expect(page.getByLabel('Transfer tax rate (per $1,000)')).toHaveValue('4.00');
    await expect(commission).toHaveValue('6.00');
    await expect(commission).toHaveAttribute('placeholder', '6.00');
    await expectNoAxeViolations(page, WCAG);

    await commission.fill('5.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Calculator settings saved successfully!');

    const next = await makeEstimate(page.request, agent.slug);
    expect(next.commission_percent).toBe(5.5);
    await page.goto(`/estimate/${next.uuid}`);
    await expect(page.getByText('Commission (5.5%)')).toBeVisible();
    await page.goto(`/estimate/${earlier.uuid}`);
    await expect(page.getByText('Commission (6%)')).toBeVisible();

    // Back on the screen, the saved value is what it loads.
    await page.goto('/dashboard/settings');
    await waitForIslands(page);
    await expect(page.getByLabel('Commission (%)')).toHaveValue('5.50');
  });

  test('a value out of bounds is shown on its field and nothing is saved', async ({ page }) => {
    await signInAsNewAgent(page);
    await page.goto('/dashboard/settings');
    await waitForIslands(page);
    const commission = page.getByLabel('Commission (%)');
    await commission.fill('20.01');
    await page.getByLabel('Attorney fee ($)').fill('750.50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Some fields need a change: see the message under each.' }),
    ).toBeVisible();
    await expect(page.getByText('Failed to save settings')).toHaveCount(0);
    await expect(commission).toHaveAccessibleDescription(/Commission must be at most 20 %/);
    await expect(page.getByLabel('Attorney fee ($)')).toHaveAccessibleDescription(
      /Attorney fee must be in whole dollars/,
    );
    await expectNoAxeViolations(page, WCAG);
    await page.reload();
    await waitForIslands(page);
    await expect(page.getByLabel('Commission (%)')).toHaveValue('6.00');
  });
});
