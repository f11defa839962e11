import type { APIRequestContext, Page } from '@playwright/test';
import * as z from 'zod';
import { FUB_FAKE_KEY, FUB_FAKE_URL } from '../../playwright.config.ts';
import {
  expect,
  expectNoAxeViolations,
  recordApiCalls,
  sameSiteHeaders,
  shootPhoneAndDesktop,
  signInAsNewAgent,
  test,
  waitForIslands,
  type SignedInAgent,
  unlockEstimate,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const fakePeopleSchema = z.object({
  people: z.array(z.object({ id: z.number(), name: z.string(), emails: z.array(z.object({ value: z.string() })) })),
});

/** The people the fake Follow Up Boss account holds with `email` (what the agent would find in FUB). */
async function peopleWithEmail(request: APIRequestContext, email: string) {
  const response = await request.get(`${FUB_FAKE_URL}/__fake/people`);
  expect(response.status()).toBe(200);
  const { people } = fakePeopleSchema.parse(await response.json());
  return people.filter((person) => person.emails.some((candidate) => candidate.value === email));
}

/** A title completes the new agent's profile, so /r/{slug} takes estimates. */
async function completeProfile(page: Page) {
  await page.goto('/dashboard/profile');
  await waitForIslands(page);
  await page.getByLabel('Professional title').selectOption('Licensed Associate Broker');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();
}

/** A lead left for the agent through the public API, as the agent page's form sends it. */
async function leaveLead(page: Page, person: { first_name: string; last_name: string; email: string }) {
  const me = z
    .object({ agent: z.object({ id: z.number() }) })
    .parse(await (await page.request.get('/api/auth/me')).json());
  const response = await page.request.post('/api/leads', {
    headers: sameSiteHeaders(),
    data: { agent_id: me.agent.id, ...person, phone: '631-555-0142', consent_marketing: true },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** A seller, in a browser page of their own, makes an estimate on the agent's page and unlocks it. */
async function sellerUnlocks(seller: Page, agent: SignedInAgent, email: string) {
  await seller.goto(`/r/${agent.slug}`);
  await waitForIslands(seller);
  await seller.getByLabel('Sale Price').fill('700000');
  await seller.getByLabel('Mortgage balance').fill('300000');
  await seller.getByRole('button', { name: 'Calculate' }).click();
  await unlockEstimate(seller, {
    firstName: 'Riley',
    lastName: `Sands${nameTag(agent)}`,
    phone: '6315550177',
    email,
  });
  await expect(seller.getByTestId('net-proceeds')).toBeVisible();
  // The CRM note is for the agent (issue 8): the visitor is not told about the agent's CRM.
  await expect(seller.getByText(/CRM|Follow Up Boss/)).toHaveCount(0);
}

/**
 * Letters of the agent's own (names take no digits): Follow Up Boss matches a person by phone with
 * first and last name, so each test's people need names no other test (or project) uses.
 */
const nameTag = (agent: SignedInAgent) =>
  agent.slug.slice(-8).replace(/\d/g, (digit) => 'abcdefghij'.charAt(Number(digit)));

const leadRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

test.describe('Follow Up Boss', () => {
  // The refused key's answer (400) is logged by the browser.
  test.use({ consoleErrorsAllowed: [/status of 400/] });

  test('an agent connects it, a seller’s lead reaches it, an older lead is sent by hand, then disconnects', async ({
    page,
    browser,
  }) => {
    // The whole journey in two browsers: 12 s alone, past 30 s on a machine running other suites.
    test.slow();
    const agent = await signInAsNewAgent(page);
    await completeProfile(page);
    // A lead from before the connection: nothing sends it until the agent does.
    const olderEmail = `older.${agent.slug}@example.com`;
    const older = `Casey Older${nameTag(agent)}`;
    await leaveLead(page, { first_name: 'Casey', last_name: `Older${nameTag(agent)}`, email: olderEmail });

    await page.goto('/dashboard/integrations');
    await waitForIslands(page);
    const card = page.getByRole('region', { name: 'Follow Up Boss' });
    await expect(card.getByText('Not connected')).toBeVisible();
    await expectNoAxeViolations(page, WCAG);

    // A key Follow Up Boss refuses: said under the field, and nothing is stored.
    const apiKey = card.getByLabel('API key');
    await expect(apiKey).toHaveAttribute('type', 'password');
    await expect(apiKey).toHaveAttribute('autocomplete', 'new-password');
    await apiKey.fill('not-a-real-key');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(apiKey).toHaveAttribute('aria-invalid', 'true');
    // Said once, under the field, in an agent's words; the provider's developer text is not shown
    // (issue 23, minor 13), and the notice by the button only points to the field.
    await expect(apiKey).toHaveAccessibleDescription(
      /Follow Up Boss did not accept this API key\. Copy it again from Admin → API in Follow Up Boss\./,
    );
    await expect(card.getByText('Follow Up Boss did not accept this API key', { exact: false })).toHaveCount(1);
    await expect(card.getByText(/Authentication is required|Basic HTTP Authentication/)).toHaveCount(0);
    await expect(card.getByText('Some fields need a change: see the message under each.')).toBeVisible();
    await shootPhoneAndDesktop(page, test.info(), 'fub-wrong-key');
    await expect(card.getByText('Not connected')).toBeVisible();

    const saves = recordApiCalls(page, '/api/agents/me/integrations/fub');
    await apiKey.fill(FUB_FAKE_KEY);
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(
      card.getByRole('status').filter({ hasText: 'Follow Up Boss integration settings saved successfully!' }),
    ).toBeVisible();
    await expect(card).toContainText(
      'Connected to Account 1000001 Realty (account1000001) as Alex Agent, agent@account1000001.example.com',
    );
    // The spec: empty optional values are left out; the active flag is always sent.
    expect(saves.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { api_key: FUB_FAKE_KEY, active: true },
    ]);
    // Write-only: the key is not in the page, only its mask, and an empty box keeps it.
    await expect(apiKey).toHaveValue('');
    await expect(card.getByText(/Leave blank to keep it/).first()).toBeVisible();
    await expect(page.locator('body')).not.toContainText(FUB_FAKE_KEY);
    await expectNoAxeViolations(page, WCAG);

    // A seller's lead goes to Follow Up Boss on its own.
    const sellerEmail = `seller.${agent.slug}@example.com`;
    const seller = await browser.newPage();
    await sellerUnlocks(seller, agent, sellerEmail);
    await seller.close();
    await expect.poll(async () => (await peopleWithEmail(page.request, sellerEmail)).length).toBe(1);

    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await expect(leadRow(page, sellerEmail).getByText('Synced', { exact: true })).toBeVisible();
    const olderRow = leadRow(page, olderEmail);
    await expect(olderRow.getByText('Not synced', { exact: true })).toBeVisible();
    expect(await peopleWithEmail(page.request, olderEmail)).toEqual([]);
    // A synced lead has nothing left to send.
    await expect(leadRow(page, sellerEmail).getByRole('button', { name: /^Sync/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sync selected (0)' })).toBeDisabled();

    await olderRow.getByRole('button', { name: `Sync ${older}` }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Lead synced to Follow Up Boss successfully!' }),
    ).toBeVisible();
    await expect(olderRow.getByText('Synced', { exact: true })).toBeVisible();
    expect(await peopleWithEmail(page.request, olderEmail)).toHaveLength(1);

    // The lead's history: the call made, and the CRM note in words.
    await olderRow.getByRole('button', { name: `CRM history of ${older}` }).click();
    const history = page.getByRole('dialog', { name: `Follow Up Boss sync: ${older}` });
    await expect(history.getByText(/^Synced to Follow Up Boss/)).toBeVisible();
    const attempts = history.getByRole('table');
    await expect(attempts.getByRole('row')).toHaveCount(2);
    await expect(attempts.getByRole('row').nth(1)).toContainText('Created a person');
    await expect(attempts.getByRole('row').nth(1)).toContainText('201');
    await expectNoAxeViolations(page, WCAG);
    await history.getByRole('button', { name: 'Close' }).click();
    await expect(history).toBeHidden();

    // Disconnect asks first; Cancel keeps the connection.
    await page.goto('/dashboard/integrations');
    await waitForIslands(page);
    await expect(card).toContainText('2 leads synced');
    await card.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect Follow Up Boss?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await shootPhoneAndDesktop(page, test.info(), 'fub-disconnect-dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(card.getByText('Connected', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Disconnect' }).click();
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expect(card.getByRole('status')).toHaveText(
      'Follow Up Boss disconnected. New leads are no longer sent to it.',
    );
    await expect(card.getByText('Not connected')).toBeVisible();

    // Without a connection the leads screen shows each lead's state but no sync controls.
    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await expect(leadRow(page, olderEmail).getByText('Synced', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Sync selected/ })).toHaveCount(0);
  });

  test('several leads are sent at once from the selection', async ({ page }) => {
    const agent = await signInAsNewAgent(page);
    const emails = [1, 2].map((index) => `picked${index}.${agent.slug}@example.com`);
    for (const [index, email] of emails.entries()) {
      await leaveLead(page, { first_name: 'Drew', last_name: `Picked${'ab'[index] ?? ''}${nameTag(agent)}`, email });
    }
    const saved = await page.request.patch('/api/agents/me/integrations/fub', {
      headers: sameSiteHeaders(),
      data: { api_key: FUB_FAKE_KEY, active: true },
    });
    expect(saved.status(), await saved.text()).toBe(200);

    await page.goto('/dashboard/leads');
    await waitForIslands(page);
    await page.getByRole('checkbox', { name: `Select Drew Pickeda${nameTag(agent)} to sync` }).check();
    await page.getByRole('checkbox', { name: `Select Drew Pickedb${nameTag(agent)} to sync` }).check();
    await page.getByRole('button', { name: 'Sync selected (2)' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: '2 leads synced to Follow Up Boss successfully!' }),
    ).toBeVisible();
    for (const email of emails) {
      await expect(leadRow(page, email).getByText('Synced', { exact: true })).toBeVisible();
      expect(await peopleWithEmail(page.request, email)).toHaveLength(1);
    }
    await expect(page.getByRole('button', { name: 'Sync selected (0)' })).toBeDisabled();
  });
});
