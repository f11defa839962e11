/**
 * Issue 25 end to end, in the order the world does it: a seller on a new agent's /r/{slug} ticks the
 * monthly-update box, confirms from the e-mail; the market moves (an admin uploads a Zillow file
 * whose newest month is up 2 % for the seller's town); the admin runs the updates as of a later day;
 * the seller opens the update and follows both of its links; the agent is alerted and sees the
 * seller marked active in /dashboard/leads.
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import * as z from 'zod';
import {
  emailsTo,
  expect,
  expectNoAxeViolations,
  sameSiteHeaders,
  signInAsAdmin,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

const TOWN = { name: 'Merrick', county: 'Nassau County' };
const DAY_MS = 86_400_000;

/** The month-ends of a ZHVI file: twelve before the first month-end after today, and that one. */
function monthEnds(today: Date): string[] {
  const end = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0));
  let first = end(today.getUTCFullYear(), today.getUTCMonth());
  // On a month's last day, its end is not after today: the next month's is.
  if (first.getTime() <= today.getTime()) first = end(today.getUTCFullYear(), today.getUTCMonth() + 1);
  return Array.from({ length: 13 }, (_, index) =>
    end(first.getUTCFullYear(), first.getUTCMonth() - 12 + index)
      .toISOString()
      .slice(0, 10),
  );
}

/** A ZHVI City file with the town alone: flat at $600,000, then its newest month up 2 % ($612,000). */
function zhviFile(months: readonly string[]): string {
  const values = months.map((_, index) => (index === months.length - 1 ? 612_000 : 600_000));
  return [
    `RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName,${months.join(',')}`,
    `912399,2000,${TOWN.name},city,NY,NY,${TOWN.name},"New York-Newark-Jersey City, NY-NJ-PA",${TOWN.county},${values.join(',')}`,
    '',
  ].join('\n');
}

/** A link of an e-mail as a path of the site under test (the e-mail names the configured site URL). */
const pathOf = (href: string | null): string => {
  if (!href) throw new Error('the link has no href');
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};

const runAnswer = z.object({ success: z.literal(true), due: z.number(), sent: z.number(), skipped: z.number() });

/** A new agent's page says "being set up" until the profile and the calculator are saved. */
async function setUpCalculator(page: Page): Promise<void> {
  await page.goto('/dashboard/profile');
  await waitForIslands(page);
  await page.getByLabel('Professional title').selectOption('Licensed Associate Broker');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();
  await page.goto('/dashboard/settings');
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status')).toHaveText('Calculator settings saved successfully!');
}

async function optIn(seller: Page, slug: string, email: string): Promise<void> {
  await seller.goto(`/r/${slug}`);
  await waitForIslands(seller);
  await seller.getByLabel('Sale Price').fill('650000');
  await seller.getByLabel('Mortgage balance').fill('300000');
  await seller.getByRole('button', { name: 'Calculate' }).click();
  await seller.getByRole('button', { name: 'Unlock Your Estimate' }).click();
  const unlock = seller.getByRole('dialog', { name: 'Unlock Your Estimate' });
  await unlock.getByLabel('First name').fill('Riley');
  await unlock.getByLabel('Last name').fill('Quinn');
  await unlock.getByRole('textbox', { name: 'Phone' }).pressSequentially('5165550188');
  await unlock.getByRole('textbox', { name: 'Email' }).fill(email);
  await unlock.getByRole('checkbox', { name: /^I agree/ }).check();
  await unlock.getByRole('checkbox', { name: 'Send me a monthly update of my estimated net' }).check();
  await unlock.getByLabel("Your home's town or ZIP code").fill(TOWN.name);
  await unlock.getByRole('button', { name: 'Unlock My Estimate' }).click();
  await expect(
    seller.getByRole('status').filter({ hasText: 'Check your inbox to confirm your monthly updates.' }),
  ).toBeVisible();

  const [confirmation] = await emailsTo(email, 1, (sent) => sent.text.includes('/updates/confirm?token='));
  const link = /(https?:\/\/\S+\/updates\/confirm\?token=[\w.%-]+)/.exec(confirmation?.text ?? '')?.[1] ?? null;
  await seller.goto(pathOf(link));
  const card = seller.getByRole('region', { name: 'Monthly updates' });
  await card.getByRole('button', { name: 'Yes, send me monthly updates' }).click();
  await expect(card.getByRole('status')).toContainText('You’re confirmed.');
}

async function moveTheMarket(admin: Page, file: string): Promise<void> {
  await admin.goto('/admin/data');
  await waitForIslands(admin);
  await admin.getByLabel('Zillow ZHVI CSV').setInputFiles(file);
  await admin.getByRole('button', { name: 'Upload CSV' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /succeeded: 1 town updated/ })).toBeVisible();
}

test('a seller opts in and confirms; the market moves; the update comes; their clicks alert the agent and mark them active', async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one journey, on the desktop project');
  test.setTimeout(180_000);
  const agent = await signInAsNewAgent(page);
  await setUpCalculator(page);
  const email = `riley.${agent.slug}@example.com`;

  const seller = await browser.newPage();
  await optIn(seller, agent.slug, email);

  // The market moves: the town's newest month is up 2 % on the month the estimate was made in.
  const today = new Date();
  const file = testInfo.outputPath('zhvi-merrick.csv');
  await writeFile(file, zhviFile(monthEnds(today)));
  const admin = await browser.newPage();
  await signInAsAdmin(admin);
  await moveTheMarket(admin, file);

  // 40 days on, past the first update's due day (30 days after confirming) and the new month's end.
  const asOf = new Date(today.getTime() + 40 * DAY_MS).toISOString().slice(0, 10);
  const run = await admin.request.post('/api/admin/digests/run', {
    data: { as_of: asOf },
    headers: sameSiteHeaders(),
  });
  expect(run.status(), await run.text()).toBe(200);
  expect(runAnswer.parse(await run.json()).sent).toBeGreaterThanOrEqual(1);

  // The update, as the seller's mail client shows it: $650,000 up 2 % is $663,000.
  const [update] = await emailsTo(email, 1, (sent) => sent.subject.startsWith('Your estimated net this month'));
  if (!update) throw new Error('no update');
  expect(update.text).toContain('$663,000');
  expect(update.text).toContain('Merrick');
  expect(update.headers['List-Unsubscribe']).toMatch(/unsubscribe/);
  await seller.setViewportSize({ width: 390, height: 844 });
  await seller.setContent(update.html);
  await seller.screenshot({ path: testInfo.outputPath('update-390.png'), fullPage: true });
  const sheetHref = await seller.getByRole('link', { name: 'See my updated sheet' }).getAttribute('href');
  const agentHref = await seller.getByRole('link', { name: `Talk to ${agent.first_name}` }).getAttribute('href');

  // Click through: the sheet at the new price, then the agent's page. Two clicks in 14 days: active.
  await seller.setViewportSize({ width: 1280, height: 900 });
  await seller.goto(pathOf(sheetHref));
  await expect(seller).toHaveURL(/\/estimate\/[0-9a-f-]{36}$/);
  await waitForIslands(seller);
  await expect(seller.getByText('$663,000').first()).toBeVisible();
  await seller.goto(pathOf(agentHref));
  await expect(seller).toHaveURL(new RegExp(`/r/${agent.slug}$`));
  await seller.close();

  // The agent's alert, once.
  const [alert] = await emailsTo(agent.email, 1, (sent) => sent.subject.startsWith('Active seller'));
  expect(alert?.subject).toContain('Riley Quinn');

  // The lead, marked active, and found by the filter.
  await page.goto('/dashboard/leads');
  await waitForIslands(page);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Active');
  await page.getByLabel('Ready to sell').check();
  await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath('leads-active-1280.png'), fullPage: true });
  await admin.close();

  // The agent's own sample: said to be queued once it is, and it reaches the agent, marked SAMPLE.
  await page.goto('/dashboard/updates');
  await waitForIslands(page);
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Active');
  await page.getByRole('button', { name: 'Send me a sample' }).click();
  await expect(page.getByText(`Sample queued for ${agent.email}`)).toBeVisible();
  const [sample] = await emailsTo(agent.email, 1, (sent) => sent.subject.startsWith('SAMPLE'));
  expect(sample?.text).toContain('See my updated sheet');
  await expectNoAxeViolations(page);
});
