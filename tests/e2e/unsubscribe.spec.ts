import type { APIRequestContext } from '@playwright/test';
import * as z from 'zod';
import { emailsTo, expect, expectNoAxeViolations, test } from './fixtures.ts';

/** Asks for an estimate by e-mail as the estimate page's form does (lead, then send), and answers that e-mail. */
async function estimateEmailTo(request: APIRequestContext, address: string) {
  const created = await request.post('/api/estimates', {
    data: { agent_slug: 'alexmorgan', sale_price: 780200, mortgage_payoff: 450000 },
  });
  const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate.uuid;
  // The site mails an estimate only to a visitor who just left their details for it.
  const lead = await request.post('/api/leads', {
    data: { name: 'Morgan Blake', email: address, consent_marketing: true, estimate_uuid: uuid },
  });
  expect(lead.status()).toBe(201);
  const sent = await request.post('/api/email/send-estimate', {
    data: { estimate_uuid: uuid, recipient_email: address, recipient_name: 'Morgan Blake' },
  });
  expect(sent.status()).toBe(202);
  const [message] = await emailsTo(address);
  if (!message) throw new Error(`no e-mail to ${address}`);
  return message;
}

/** The path and query of the footer's unsubscribe link (the e2e server's site URL may name another host). */
function unsubscribeLinkIn(text: string): string {
  const link = /Unsubscribe: (\S+)/.exec(text)?.[1];
  if (!link) throw new Error(`no unsubscribe link in:\n${text}`);
  const url = new URL(link);
  expect(url.pathname).toBe('/unsubscribe');
  return `${url.pathname}${url.search}`;
}

test('the unsubscribe link of an e-mail opens a page that unsubscribes the address, and can undo it', async ({
  page,
}) => {
  const address = `morgan.blake.${test.info().project.name}@example.com`;
  const message = await estimateEmailTo(page.request, address);
  expect(message.headers['List-Unsubscribe']).toMatch(/^<https?:\/\/[^>]+\/api\/email\/unsubscribe\?token=[^>]+>$/);
  expect(message.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  expect(message.html).toContain('>Unsubscribe</a>');

  await page.goto(unsubscribeLinkIn(message.text));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unsubscribe');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.getByText(address)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();

  const status = page.getByRole('status');
  await expect(status).toContainText('You’re unsubscribed.');
  await expect(status).toContainText('We will no longer e-mail you lead notices');
  await expect(status).toContainText('E-mail you ask for still comes: an estimate you request');
  await expect(status).toContainText(address);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Undo: keep e-mailing me' }).click();
  await expect(page.getByRole('status')).toContainText('You’re subscribed again.');
});

test('an unsubscribe link that was cut short or changed says so', async ({ page }) => {
  await page.goto('/unsubscribe');
  await expect(page.getByRole('alert')).toHaveText(/This unsubscribe link is not valid/);
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);
});

test.describe('a forged token', () => {
  test.use({ consoleErrorsAllowed: [/status of 400/] });
  test('is refused by the server with the same message', async ({ page }) => {
    const forged = `${Buffer.from('victim@example.com').toString('base64url')}.${'A'.repeat(43)}`;
    await page.goto(`/unsubscribe?token=${forged}`);
    await expect(page.getByText('victim@example.com')).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('alert')).toHaveText(/This unsubscribe link is not valid/);
  });
});

for (const [path, date, datetime] of [
  // Both rewritten to say what the product does (newcomer audit minors 18 and 19).
  // The privacy policy again on 2026-11-27: unsubscribing ends the monthly net updates (issue 25).
  ['/privacy', 'November 27, 2026', '2026-11-27'],
  ['/terms', 'November 26, 2026', '2026-11-26'],
] as const) {
  test(`${path} says when its text last changed, not when the site was built`, async ({ page }) => {
    await page.goto(path);
    const updated = page.locator(`time[datetime="${datetime}"]`);
    await expect(updated).toHaveText(date);
    await expect(page.getByText(`Last updated: ${date}`)).toBeVisible();
  });
}

test('the privacy policy says what unsubscribing stops and what still comes', async ({ page }) => {
  await page.goto('/privacy');
  const section = page.getByRole('heading', { name: 'Unsubscribing' }).locator('xpath=following-sibling::p[1]');
  await expect(section).toContainText('Every e-mail we send ends with an Unsubscribe link');
  await expect(section).toContainText('one-click Unsubscribe button');
  await expect(section).toContainText('E-mail you ask for still comes');
  await expect(section).toContainText('monthly updates of your estimated net (your subscription to them ends at once)');
});

test('the unsubscribe page is left out of the sitemap', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  expect(sitemap).toContain('/privacy/');
  expect(sitemap).not.toContain('/unsubscribe');
});
