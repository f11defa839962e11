import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import * as z from 'zod';
import {
  expect,
  expectNoAxeViolations,
  expectNoLayoutShiftOnLoad,
  linkFromEmail,
  sameSiteHeaders,
  nameTag,
  shootPhoneAndDesktop,
  signInAsAdmin,
  test,
  waitForIslands,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const newAgent = () => {
  const id = randomUUID().slice(0, 8);
  return { first: 'Robin', last: `Hale${nameTag(id)}`, email: `robin.${id}@example.com`, slug: `robinhale${id}` };
};

/** Adds an agent through the Add New Agent form of /admin/agents. */
async function addAgent(page: Page, agent: ReturnType<typeof newAgent>): Promise<void> {
  const form = page.getByRole('region', { name: 'Add New Agent' });
  await form.getByLabel('First name').fill(agent.first);
  await form.getByLabel('Last name').fill(agent.last);
  await form.getByLabel('Email').fill(agent.email);
  await form.getByLabel('Calculator address').fill(agent.slug);
  await form.getByLabel('Phone (optional)').fill('(516) 555-0142');
  await form.getByRole('button', { name: 'Add Agent' }).click();
  await expect(form.getByRole('status')).toHaveText('Agent added successfully.');
}

const listed = z.object({ agents: z.array(z.object({ id: z.number(), featured: z.boolean() })) });

/** The featured agent's id in GET /api/admin/agents' answer. */
function featuredIdIn(answer: unknown): number {
  const featured = listed.parse(answer).agents.find((agent) => agent.featured);
  if (!featured) throw new Error('no featured agent listed');
  return featured.id;
}

const rowOf = (page: Page, agent: ReturnType<typeof newAgent>) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: `${agent.first} ${agent.last}` }) });

/** The status an agent's row shows, once (minor 25: not a badge and a select): its status control. */
async function expectStatus(page: Page, agent: ReturnType<typeof newAgent>, status: string): Promise<void> {
  const row = rowOf(page, agent);
  await expect(row.getByLabel(`Status of ${agent.first} ${agent.last}`)).toHaveValue(status);
  await expect(row.getByText(status, { exact: true })).toHaveCount(1);
}

/** Chooses a status in the agent's row and says yes to the question it asks. */
async function changeStatus(page: Page, agent: ReturnType<typeof newAgent>, status: string): Promise<void> {
  await rowOf(page, agent).getByLabel(`Status of ${agent.first} ${agent.last}`).selectOption(status);
  await page
    .getByRole('dialog', { name: `Make ${agent.first} ${agent.last} ${status}?` })
    .getByRole('button', { name: `Make ${status}` })
    .click();
}

test.describe('the admin’s agents', () => {
  test('nothing moves when the list of agents arrives (no layout shift, issue 23)', async ({ page }) => {
    await signInAsAdmin(page);
    const list = page.getByRole('region', { name: 'Agents' });
    await expectNoLayoutShiftOnLoad(page, {
      path: '/admin/agents',
      held: '/api/admin/agents',
      loading: list.getByText('Loading…'),
      loaded: page.getByRole('region', { name: 'Add New Agent' }),
    });
  });

  // Asked for on purpose: a duplicate e-mail (409), and an inactive agent's page (its shell 404, its agent 410).
  test.use({ consoleErrorsAllowed: [/status of (404 \(Not Found\)|409 \(Conflict\)|410 \(Gone\))/] });

  test('an added agent sets a password from the e-mail and signs in', async ({ page, browser }) => {
    test.slow();
    await signInAsAdmin(page);
    await page.goto('/admin/agents');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Agents', exact: true }),
    ).toHaveAttribute('aria-current', 'page');
    const admin = page.getByRole('row').filter({ hasText: 'admin@example.com' });
    await expect(admin.getByText('Admin', { exact: true })).toBeVisible();

    const agent = newAgent();
    const form = page.getByRole('region', { name: 'Add New Agent' });
    await form.getByRole('button', { name: 'Add Agent' }).click();
    // A form with field errors says so in a line, not "Failed to add agent" (a server fault's words).
    await expect(
      form.getByRole('alert').filter({ hasText: 'Some fields need a change: see the message under each.' }),
    ).toBeVisible();
    await expect(form.getByText('First name is required')).toBeVisible();
    await expect(form.getByText('Failed to add agent')).toHaveCount(0);
    await addAgent(page, agent);
    const row = rowOf(page, agent);
    await expectStatus(page, agent, 'pending');
    await expect(row.getByRole('link', { name: /View Page/ })).toHaveAttribute('target', '_blank');
    await expect(row.getByRole('link', { name: /View Page/ })).toHaveAttribute('href', `/r/${agent.slug}`);
    await expectNoAxeViolations(page, WCAG);
    await page.screenshot({ path: test.info().outputPath('agents-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: test.info().outputPath('agents-390.png'), fullPage: true });
    await expectNoAxeViolations(page, WCAG);

    // The same e-mail or slug again: the sign-up's message.
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByLabel('First name').fill(agent.first);
    await form.getByLabel('Last name').fill(agent.last);
    await form.getByLabel('Email').fill(agent.email);
    await form.getByLabel('Calculator address').fill(`${agent.slug}x`);
    await form.getByRole('button', { name: 'Add Agent' }).click();
    // Said once, under its field (minor 26: it was said twice).
    await expect(form.getByText('Email already registered')).toHaveCount(1);
    await expect(form.getByLabel('Email')).toHaveAccessibleDescription(/Email already registered/);
    await form.getByLabel('Email').fill(`x${agent.email}`);
    await form.getByLabel('Calculator address').fill(agent.slug);
    await form.getByRole('button', { name: 'Add Agent' }).click();
    await expect(form.getByText('Slug already taken')).toHaveCount(1);

    // The new agent, in a browser of their own, follows the e-mailed link and chooses a password.
    const theirs = await browser.newContext();
    const them = await theirs.newPage();
    // The invitation welcomes them and asks for a password; it speaks of no reset (newcomer audit M6).
    await them.goto(await linkFromEmail(agent.email, '/reset-password'));
    await waitForIslands(them);
    await expect(them.getByRole('heading', { level: 1 })).toHaveText('Welcome! Choose your password');
    await expect(them).toHaveTitle(/^Welcome: choose your password/);
    await expect(them.getByText(/reset/i)).toHaveCount(0);
    await them.getByLabel('Password', { exact: true }).fill('robins own password');
    await them.getByLabel('Confirm password').fill('robins own password');
    await them.getByRole('button', { name: 'Set my password' }).click();
    await expect(them.getByRole('status')).toHaveText(
      'Your password is set and your account is active. You can log in now.',
    );
    await expect(them).toHaveURL('/auth', { timeout: 6_000 });
    await waitForIslands(them);
    await them.getByLabel('Email').fill(agent.email);
    await them.getByLabel('Password').fill('robins own password');
    await them.getByRole('button', { name: 'Log In' }).click();
    await expect(them).toHaveURL(/\/dashboard/);
    await theirs.close();

    await page.reload();
    await waitForIslands(page);
    await expectStatus(page, agent, 'active');
  });

  test('an inactive agent’s page says the calculator is not available', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/agents');
    await waitForIslands(page);
    const agent = newAgent();
    await addAgent(page, agent);
    await changeStatus(page, agent, 'inactive');
    await expect(page.getByRole('status').filter({ hasText: 'Status updated.' })).toBeVisible();
    await expectStatus(page, agent, 'inactive');

    await page.goto(`/r/${agent.slug}`);
    await expect(page.getByRole('heading', { name: 'Calculator Not Available' })).toBeVisible();
    await expect(page.getByText('This agent’s calculator is not available at the moment.')).toBeVisible();
  });

  test('a status change asks first, saying what happens, and changes nothing on Cancel', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/agents');
    await waitForIslands(page);
    const agent = newAgent();
    await addAgent(page, agent);
    await changeStatus(page, agent, 'active');
    await expectStatus(page, agent, 'active');
    const name = `${agent.first} ${agent.last}`;
    const row = rowOf(page, agent);
    // The new agent never chose a password: their row says so and offers the invitation again.
    await expect(row.locator('td[data-label="Last sign-in"]')).toHaveText('Never');
    await expect(row.locator('td[data-label="Leads"]')).toHaveText('0');
    await expect(row.getByRole('button', { name: `Resend invitation to ${name}` })).toBeVisible();

    // As a click or the keyboard would, the select has the focus when it changes.
    await row.getByLabel(`Status of ${name}`).focus();
    await row.getByLabel(`Status of ${name}`).selectOption('inactive');
    const dialog = page.getByRole('dialog', { name: `Make ${name} inactive?` });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expect(dialog).toContainText('Their calculator page stops showing and they are signed out.');
    await expectNoAxeViolations(page, WCAG);
    await shootPhoneAndDesktop(page, test.info(), 'agents-status-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    // The keyboard goes on from the status the admin was changing.
    await expect(row.getByLabel(`Status of ${name}`)).toBeFocused();
    await expectStatus(page, agent, 'active');
    await page.reload();
    await waitForIslands(page);
    await expectStatus(page, agent, 'active');

    await changeStatus(page, agent, 'inactive');
    await expect(page.getByRole('status').filter({ hasText: 'Status updated.' })).toBeVisible();
    await expectStatus(page, agent, 'inactive');
  });

  test('the featured agent has no Hard Delete nor status control, and the API refuses both', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/agents');
    await waitForIslands(page);
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^Alex Morgan/ }) });
    await expect(row.getByText('Featured', { exact: true })).toBeVisible();
    await expect(row.getByText('active', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: /Hard Delete/ })).toHaveCount(0);
    await expect(row.getByRole('combobox')).toHaveCount(0);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({
        path: test.info().outputPath(`agents-table-${width}.png`),
        fullPage: true,
      });
    }

    const agents = await page.request.get('/api/admin/agents');
    const list: unknown = await agents.json();
    const id = featuredIdIn(list);
    const refusal = 'Choose another featured agent first';
    const remove = await page.request.delete(`/api/admin/agents/${id}`, { headers: sameSiteHeaders() });
    expect(remove.status()).toBe(409);
    expect(await remove.text()).toContain(refusal);
    const deactivate = await page.request.patch(`/api/admin/agents/${id}`, {
      headers: sameSiteHeaders(),
      data: { status: 'inactive' },
    });
    expect(deactivate.status()).toBe(409);
    expect(await deactivate.text()).toContain(refusal);
  });

  test('Resend invitation e-mails a new link to an agent who never chose a password', async ({ page, browser }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/agents');
    await waitForIslands(page);
    const agent = newAgent();
    await addAgent(page, agent);
    const first = await linkFromEmail(agent.email, '/reset-password');
    await rowOf(page, agent)
      .getByRole('button', { name: `Resend invitation to ${agent.first} ${agent.last}` })
      .click();
    await expect(
      page.getByRole('status').filter({ hasText: `Invitation sent again. It went to ${agent.email}.` }),
    ).toBeVisible();
    const second = await linkFromEmail(agent.email, '/reset-password', 2);
    expect(second).not.toBe(first);
    // Without a session the route mails nobody.
    const visitor = await browser.newContext();
    const anonymous = await visitor.request.post(`/api/admin/agents/1/invitation`, { headers: sameSiteHeaders() });
    expect(anonymous.status()).toBe(401);
    await visitor.close();
  });

  test('Hard Delete asks first, saying what goes with the agent', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/agents');
    await waitForIslands(page);
    const agent = newAgent();
    await addAgent(page, agent);
    const name = `${agent.first} ${agent.last}`;
    await rowOf(page, agent)
      .getByRole('button', { name: `Hard Delete ${name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Delete ${name}?` });
    await expect(dialog).toContainText(`0 leads and 0 estimates will be deleted with ${name}. This cannot be undone.`);
    await expectNoAxeViolations(page, WCAG);
    await shootPhoneAndDesktop(page, test.info(), 'agent-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(rowOf(page, agent)).toHaveCount(1);

    await rowOf(page, agent)
      .getByRole('button', { name: `Hard Delete ${name}` })
      .click();
    await dialog.getByRole('button', { name: 'Delete agent' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Agent deleted.' })).toBeVisible();
    await expect(rowOf(page, agent)).toHaveCount(0);
  });
});
