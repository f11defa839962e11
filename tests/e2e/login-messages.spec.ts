import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import {
  expect,
  nameTag,
  shootPhoneAndDesktop,
  signInAsAdmin,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

const VERIFY = 'Please verify your e-mail address before logging in.';

test.describe('login messages (issue 23, minors 7 and 25)', () => {
  // Refused logins answer 401 and 403.
  test.use({ consoleErrorsAllowed: [/status of 40[13]/] });

  test('a later wrong password clears the banner of an unverified account', async ({ page }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const agent = { email: `morgan.${id}@example.com`, password: 'a-good-password' };
    const signup = await page.request.post('/api/auth/signup', {
      data: {
        first_name: 'Morgan',
        last_name: `Reed${nameTag(id)}`,
        slug: `morganreed${id}`,
        phone: null,
        brokerage: null,
        is_admin: false,
        ...agent,
      },
    });
    expect(signup.status(), await signup.text()).toBe(201);
    await page.goto('/auth');
    await waitForIslands(page);
    await logIn(page, agent.email, agent.password);
    await expect(page.getByText(VERIFY)).toBeVisible();
    await logIn(page, agent.email, 'not the password at all');
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await expect(page.getByText(VERIFY)).toHaveCount(0);
    await shootPhoneAndDesktop(page, testInfo, 'login-wrong-after-unverified');
  });

  test('an agent an admin turned off learns why, and whom to ask, only with the right password', async ({
    page,
    browser,
  }, testInfo) => {
    const agent = await signInAsNewAgent(page);
    await page.context().clearCookies();
    await signInAsAdmin(page);
    await page.goto('/admin/agents');
    await waitForIslands(page);
    await page.getByLabel(`Status of ${agent.first_name} ${agent.last_name}`).selectOption('inactive');
    await page
      .getByRole('dialog', { name: `Make ${agent.first_name} ${agent.last_name} inactive?` })
      .getByRole('button', { name: 'Make inactive' })
      .click();
    await expect(page.getByRole('status').filter({ hasText: 'Status updated.' })).toBeVisible();

    const context = await browser.newContext();
    const theirs = await context.newPage();
    await theirs.goto('/auth');
    await waitForIslands(theirs);
    // A wrong password says nothing of the account (no enumeration).
    await logIn(theirs, agent.email, 'not the password at all');
    await expect(theirs.getByText('Invalid email or password')).toBeVisible();
    await expect(theirs.getByText(/inactive/)).toHaveCount(0);
    await logIn(theirs, agent.email, agent.password);
    await expect(theirs.getByRole('alert').filter({ hasText: 'This account is inactive' })).toHaveText(
      /^This account is inactive: an administrator has turned it off\. To use it again, contact the site administrator at \S+@\S+\.$/,
    );
    await expect(theirs.getByText('Invalid email or password')).toHaveCount(0);
    await shootPhoneAndDesktop(theirs, testInfo, 'login-inactive');
    await context.close();
  });
});
