import { expect, expectNoAxeViolations, signInAsNewAgent, test, waitForIslands } from './fixtures.ts';

test.describe('the signed-in frame', () => {
  // The frame's session check answers 401 for a signed-out visitor; Chromium logs that.
  test.use({ consoleErrorsAllowed: [/status of 401/] });

  test('a signed-out deep link goes to the login form and comes back after logging in', async ({ page }) => {
    await page.goto('/dashboard/settings');
    await expect(page).toHaveURL('/auth?next=%2Fdashboard%2Fsettings');
    const agent = await signInAsNewAgent(page);
    await page.context().clearCookies();
    await page.goto('/auth?next=%2Fdashboard%2Fsettings');
    await waitForIslands(page);
    await page.getByLabel('Email').fill(agent.email);
    await page.getByLabel('Password').fill(agent.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL('/dashboard/settings');
  });

  test('a link to another site is never followed after login', async ({ page }) => {
    const agent = await signInAsNewAgent(page);
    await page.context().clearCookies();
    await page.goto('/auth?next=https%3A%2F%2Fevil.example%2F');
    await waitForIslands(page);
    await page.getByLabel('Email').fill(agent.email);
    await page.getByLabel('Password').fill(agent.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    // A new agent's profile is incomplete: their first stop is the profile.
    await expect(page).toHaveURL('/dashboard/profile');
  });
});

test.describe('the dashboard screens', () => {
  test('each screen has its own URL in the navigation, an unknown path shows the overview', async ({ page }) => {
    // Six screens, each with an axe check: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    const agent = await signInAsNewAgent(page);
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(page.getByText(`Signed in as ${agent.first_name}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'View Calculator' })).toHaveAttribute('href', `/r/${agent.slug}`);
    for (const [label, path] of [
      ['Leads', '/dashboard/leads'],
      ['Updates', '/dashboard/updates'],
      ['Profile', '/dashboard/profile'],
      ['Settings', '/dashboard/settings'],
      ['Integrations', '/dashboard/integrations'],
      ['Overview', '/dashboard'],
    ] as const) {
      await nav.getByRole('link', { name: label }).click();
      await expect(page).toHaveURL(path);
      await expect(nav.getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
      await expectNoAxeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
    }
    await page.goBack();
    await expect(page).toHaveURL('/dashboard/integrations');
    await page.goto('/dashboard/no-such-screen');
    await expect(page).toHaveURL('/dashboard');
    await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  });
});
