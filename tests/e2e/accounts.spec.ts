import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, linkFromEmail, nameTag, shootPhoneAndDesktop, test, waitForIslands } from './fixtures.ts';

/** The first link to `path` in the newest e-mail to `address`, as a path with its query. */
async function logIn(page: Page, email: string, password: string) {
  await page.goto('/auth');
  await waitForIslands(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

const uniqueAgent = () => {
  const id = randomUUID().slice(0, 8);
  return { first: 'Taylor', last: `Quinn${nameTag(id)}`, email: `taylor.${id}@example.com`, slug: `taylorquinn${id}` };
};

test.describe('agent accounts', () => {
  // Refused logins, unverified accounts, duplicates and signed-out checks answer 400/401/403/409.
  test.use({ consoleErrorsAllowed: [/status of 40[0139]/] });
  test('sign up, verify by the e-mailed link, log in, see the dashboard, log out', async ({ page }) => {
    test.slow();
    const agent = uniqueAgent();
    await page.goto('/signup');
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Email is required',
      'Password is required',
      'Calculator address is required',
      'You must agree to the terms of service',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }

    await page.getByLabel('First name').fill(agent.first);
    await page.getByLabel('Last name').fill(agent.last);
    await expect(page.getByLabel('Calculator address')).toHaveValue(`taylor${agent.last.toLowerCase()}`);
    await page.getByLabel('Calculator address').fill(agent.slug);
    await page.getByLabel('Email').fill(agent.email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    // The hint counts as the agent types (no composition rules: length is what is asked).
    await expect(page.getByText('5 of 15 characters')).toBeVisible();
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Password must be at least 15 characters')).toBeVisible();
    // Long enough but on the list of common passwords: the server refuses it and says why.
    await page.getByLabel('Password', { exact: true }).fill('1qaz2wsx3edc4rfv');
    await page.getByLabel('Confirm password').fill('1qaz2wsx3edc4rfv');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(
      page.getByText('This password is on the list of common passwords that attackers try first.'),
    ).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('16 of 15 characters: long enough')).toBeVisible();
    await shootPhoneAndDesktop(page, test.info(), 'signup-common-password');
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm password').fill('a-good-password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Account Created' })).toBeVisible();
    await expect(page).toHaveURL('/auth', { timeout: 6_000 });

    // Not verified yet: the yellow notice, and a resend that clears it.
    await logIn(page, agent.email, 'a-good-password');
    await expect(page.getByText('Please verify your e-mail address before logging in.')).toBeVisible();
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByText('Please verify your e-mail address before logging in.')).toBeHidden();
    const verifyLink = await linkFromEmail(agent.email, '/verify-email', 2);

    await page.goto(verifyLink);
    await expect(
      page.getByText('Your email has been successfully verified! You can now log in to your account.'),
    ).toBeVisible();
    await expect(page).toHaveURL('/auth', { timeout: 6_000 });

    await logIn(page, agent.email, 'a-good-password');
    // A new agent's calculator page needs profile fields still missing: the first login leads there.
    await expect(page).toHaveURL('/dashboard/profile');
    await expect(page.getByText(`Signed in as ${agent.first}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'View Calculator' })).toHaveAttribute('href', `/r/${agent.slug}`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/auth');
    await page.goto('/dashboard/leads');
    await expect(page).toHaveURL('/auth?next=%2Fdashboard%2Fleads');
  });

  test('a used verification link, a missing token and a registered e-mail each say so', async ({ page }) => {
    await page.goto('/verify-email');
    await expect(page.getByText('Invalid verification link. Please check your email and try again.')).toBeVisible();
    await page.goto('/reset-password');
    await expect(page.getByText('Invalid reset link. Please request a new password reset.')).toBeVisible();

    await page.goto('/signup');
    await waitForIslands(page);
    await page.getByLabel('First name').fill('Demo');
    await page.getByLabel('Last name').fill('Agent');
    await page.getByLabel('Email').fill('Agent@Example.com ');
    await page.getByLabel('Calculator address').fill(`unique${randomUUID().slice(0, 8)}`);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByLabel('Confirm password').fill('a-good-password');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('This email is already registered')).toBeVisible();
  });

  test('forgot password, reset by the e-mailed link, log in with the new password', async ({ page }) => {
    test.slow();
    const agent = uniqueAgent();
    // An account to reset: signed up and verified through the real flow's API.
    const signup = await page.request.post('/api/auth/signup', {
      data: {
        first_name: agent.first,
        last_name: agent.last,
        email: agent.email,
        phone: null,
        password: 'my first password',
        slug: agent.slug,
        brokerage: null,
        is_admin: true,
      },
    });
    expect(signup.status()).toBe(201);
    await page.goto(await linkFromEmail(agent.email, '/verify-email'));
    await expect(page.getByText(/successfully verified/)).toBeVisible();

    await page.goto('/forgot-password');
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Please enter your email address')).toBeVisible();
    await page.getByLabel('Email').fill('nobody-here@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    const unknownAnswer = await page.getByRole('status').textContent();
    await page.getByRole('button', { name: 'Back to the form' }).click();
    await page.getByLabel('Email').fill(agent.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('status')).toHaveText(unknownAnswer ?? '');

    await page.goto(await linkFromEmail(agent.email, '/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('my new password one');
    await page.getByLabel('Confirm new password').fill('my new password two');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Password must be at least 15 characters long')).toBeVisible();
    // The agent's own e-mail address as a password: refused on the form, with the reason.
    await page.getByLabel('New password', { exact: true }).fill(agent.email);
    await page.getByLabel('Confirm new password').fill(agent.email);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('This password is made of your name, e-mail address or page address')).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('my new password one');
    await page.getByLabel('Confirm new password').fill('my new password one');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page).toHaveURL('/auth', { timeout: 6_000 });

    await logIn(page, agent.email, 'my first password');
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await logIn(page, agent.email, 'my new password one');
    // is_admin sent by the form is ignored: an agent lands in the dashboard (on their unfinished profile).
    await expect(page).toHaveURL('/dashboard/profile');
  });

  test('the admin area lets admins in and tells a signed-in agent it is for admins', async ({ page }) => {
    await logIn(page, 'admin@example.com', 'demo-admin-password');
    await expect(page).toHaveURL('/admin');
    await expect(page.getByText('Signed in as')).toBeVisible();
    await expect(page.getByRole('link', { name: 'View Site' })).toHaveAttribute('href', '/');
    await page.goto('/admin/anything');
    await expect(page).toHaveURL('/admin');

    await page.context().clearCookies();
    await logIn(page, 'agent@example.com', 'demo-agent-password');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/admin');
    // Not sent to the login form (it would only send them back): told why, and where to go.
    await expect(page.getByText('You are signed in as Dana, an agent, not an admin.')).toBeVisible();
    await expect(page).toHaveURL('/admin');
    await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/auth');
    await page.goto('/admin');
    await expect(page).toHaveURL('/auth?next=%2Fadmin', { timeout: 5_000 });
  });

  test('/auth sends a signed-in agent or admin on to their area, replacing itself in the history', async ({ page }) => {
    await logIn(page, 'agent@example.com', 'demo-agent-password');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/terms');
    await page.goto('/auth');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByText('Signed in as Dana')).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL('/terms');

    await page.context().clearCookies();
    await logIn(page, 'admin@example.com', 'demo-admin-password');
    await expect(page).toHaveURL('/admin');
    await page.goto('/auth');
    await expect(page).toHaveURL('/admin');
    await expect(page.getByRole('heading', { name: 'Admin' })).toBeVisible();
  });

  test('the sign-up fields stay inside their card on a phone and on a desktop', async ({ page }) => {
    for (const width of [360, 390, 600, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/signup');
      // The form is the card's content box (inside its padding).
      const card = await page.locator('.account-card form').boundingBox();
      if (!card) throw new Error('no sign-up form');
      for (const label of ['First name', 'Last name', 'Email', 'Confirm password']) {
        const field = await page.getByLabel(label, { exact: true }).boundingBox();
        if (!field) throw new Error(`no ${label} field`);
        expect(field.x, `${label} at ${width}px`).toBeGreaterThanOrEqual(card.x);
        expect(field.x + field.width, `${label} at ${width}px`).toBeLessThanOrEqual(card.x + card.width);
      }
    }
  });

  test('/login leads to Agent Login', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveURL('/auth');
    await expect(page.getByRole('heading', { name: 'Agent Login' })).toBeVisible();
  });
});
