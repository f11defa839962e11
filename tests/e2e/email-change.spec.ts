import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, linkFromEmail, signInAsNewAgent, test, waitForIslands } from './fixtures.ts';

/** Screenshots of the page as it is now, 1280 and 390 wide, for a person to look at. */
async function screenshots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath(`${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath(`${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth');
  await waitForIslands(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

// The login page asks who is signed in (401 when nobody is, after a confirm or undo ended the session).
test.use({ consoleErrorsAllowed: [/status of 401 \(Unauthorized\)/] });

// Issue 21, finding 1: a new e-mail waits for the link sent to it; the old address can undo it.
test('an e-mail change waits for the new address, which confirms it; the old address undoes it', async ({ page }) => {
  test.skip(test.info().project.name !== 'desktop', 'one run, its screenshots at both widths');
  const agent = await signInAsNewAgent(page);
  const newEmail = `moved.${randomUUID().slice(0, 8)}@example.com`;

  await page.goto('/dashboard/profile');
  await waitForIslands(page);
  await page.getByLabel('Professional title').selectOption('Licensed Real Estate Salesperson');
  await page.getByLabel('Email').fill(newEmail);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(
    page.getByText(`Profile updated. We sent a link to ${newEmail}: your email changes when you follow it.`),
  ).toBeVisible();
  // The address itself has not changed: the field keeps it, and the pending one is shown beside it.
  await expect(page.getByLabel('Email')).toHaveValue(agent.email);
  const pending = page.getByText(`Waiting for confirmation: we sent a link to ${newEmail}.`);
  await expect(pending).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshots(page, 'profile-pending-email');

  // After a reload the screen still shows the pending address.
  await page.reload();
  await waitForIslands(page);
  await expect(pending).toBeVisible();

  // The new address's link: nothing happens until the button is pressed (mail scanners open links).
  await page.goto(await linkFromEmail(newEmail, '/confirm-email-change'));
  await waitForIslands(page);
  await expect(page.getByRole('heading', { name: 'Confirm your new email' })).toBeVisible();
  await screenshots(page, 'confirm-email-change');
  await page.getByRole('button', { name: 'Confirm my new email' }).click();
  await expect(page.getByText('Your email has been changed. Please log in with your new address.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshots(page, 'confirm-email-change-done');

  await logIn(page, newEmail, agent.password);
  await page.goto('/dashboard/profile');
  await waitForIslands(page);
  await expect(page.getByLabel('Email')).toHaveValue(newEmail);
  await expect(page.getByText('Waiting for confirmation')).toHaveCount(0);

  // The old address was told, with a link that takes the account back.
  await page.goto(await linkFromEmail(agent.email, '/undo-email-change'));
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Undo the change' }).click();
  await expect(page.getByText('The email change has been undone and every session signed out.')).toBeVisible();
  await screenshots(page, 'undo-email-change-done');
  await logIn(page, agent.email, agent.password);
});
