import { mkdir } from 'node:fs/promises';
import type { Locator, Page, TestInfo } from '@playwright/test';
import * as z from 'zod';
import { WEBHOOK_MESSAGES } from '../../src/features/webhooks/public/webhooks.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import {
  expect,
  expectNoAxeViolations,
  sameSiteHeaders,
  signInAsAdmin,
  signInAsNewAgent,
  test,
  waitForIslands,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Where a reviewer (or the author) looks at the card's states: the phone's 390 px and a desktop's 1280 px. */
const SHOTS = '/tmp/webhook-shots';

const leadBodySchema = z.object({
  type: z.string(),
  data: z.object({ lead: z.object({ email: z.string(), first_name: z.string() }).optional() }),
});

/**
 * The card (or the window) at 390 px and 1280 px (from the desktop project only), with no sideways scroll at either;
 * the test goes on at the size it had.
 */
async function shoot(page: Page, card: Locator | null, testInfo: TestInfo, name: string) {
  if (testInfo.project.name !== 'desktop') return;
  await mkdir(SHOTS, { recursive: true });
  const before = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const path = `${SHOTS}/${name}-${width}.png`;
    // null: the window as it is (a dialog over the page).
    await (card ? card.screenshot({ path }) : page.screenshot({ path }));
  }
  if (before) await page.setViewportSize(before);
}

/** A lead for the signed-in agent through the public API, as the agent page's form sends it. */
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

/** What the receiver took as `type` about `email`, verified with the secret the screen showed. */
const receivedAbout = (receiver: WebhookReceiver, type: string, email: string) =>
  receiver.received.filter((hook) => {
    const body = leadBodySchema.safeParse(JSON.parse(hook.body));
    return body.success && body.data.type === type && body.data.data.lead?.email === email;
  });

test.describe('webhooks', () => {
  let receiver: WebhookReceiver;
  test.beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  test.afterEach(async () => {
    await receiver.close();
  });
  // The refused address (400) and the endpoint limit (409) are logged by the browser.
  test.use({ consoleErrorsAllowed: [/status of (400|409)/] });

  test('an agent adds an endpoint, copies its secret, tests it, a lead reaches it signed, and the log shows it', async ({
    page,
  }, testInfo) => {
    test.slow();
    const agent = await signInAsNewAgent(page);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/dashboard/integrations');
    await waitForIslands(page);
    await expect(page.getByText(/any other CRM, Zapier or Make through webhooks/)).toBeVisible();
    const card = page.getByRole('region', { name: 'Webhooks', exact: true });
    await expect(
      card.getByText('No endpoints yet. Add one to send your leads to Zapier, Make or your CRM.'),
    ).toBeVisible();
    await expectNoAxeViolations(page, WCAG);
    await shoot(page, card, testInfo, 'empty');

    // The form: a new lead ticked by default; no event, then an address inside a private network.
    await card.getByRole('button', { name: 'Add endpoint' }).click();
    const form = card.getByRole('form', { name: 'Add endpoint' });
    const url = form.getByLabel('Endpoint URL');
    await expect(url).toHaveAttribute('type', 'url');
    const newLead = form.getByRole('checkbox', { name: /A seller asks to be contacted/ });
    await expect(newLead).toBeChecked();
    await newLead.uncheck();
    await url.fill('http://10.0.0.1/hooks/catch');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(form.getByRole('group', { name: 'Events to send' })).toHaveAccessibleDescription(
      'Choose at least one event',
    );
    await newLead.check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expect(url).toHaveAccessibleDescription(/points inside a private network/);
    await expect(form.getByText('Some fields need a change: see the message under each.')).toBeVisible();
    await expectNoAxeViolations(page, WCAG);
    await shoot(page, card, testInfo, 'form-errors');

    // Added: the secret is shown this once, and copied.
    await url.fill(receiver.url());
    await form.getByLabel('Description (optional)').fill('Zapier: new sellers to the sheet');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const panel = card.getByRole('region', { name: 'Signing secret' });
    await expect(panel.getByText('Copy it now: it will not be shown again.')).toBeVisible();
    await expect(panel).toBeFocused();
    const secret = (await panel.locator('.webhook-secret-value code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    receiver.verifyWith(secret);
    await panel.getByRole('button', { name: 'Copy secret' }).click();
    await expect(panel.getByRole('status')).toHaveText('Secret copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expect(panel.getByRole('link', { name: 'Standard Webhooks' })).toBeVisible();
    await expectNoAxeViolations(page, WCAG);
    await shoot(page, card, testInfo, 'secret');
    await panel.getByRole('button', { name: 'I have copied it' }).click();
    await expect(panel).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);

    // The endpoint, listed; a test event reaches the receiver, signed.
    const endpoint = card.getByRole('article', { name: receiver.url() });
    await expect(endpoint.getByText('On', { exact: true })).toBeVisible();
    await expect(endpoint.getByText('Zapier: new sellers to the sheet')).toBeVisible();
    await expect(endpoint.getByText('No deliveries yet')).toBeVisible();
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await expect(endpoint.getByRole('status')).toHaveText(/^Delivered: the receiver answered 200 in \d+ ms\.$/);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.verified).toBe(true);
    await expect(endpoint.getByText(/Last delivery: Delivered/)).toBeVisible();
    await shoot(page, card, testInfo, 'list');

    // A seller's lead: a verified lead.created about that person.
    const email = `webhook.${agent.slug}@example.com`;
    await leaveLead(page, { first_name: 'Morgan', last_name: 'Hooks', email });
    await expect.poll(() => receivedAbout(receiver, 'lead.created', email).length).toBe(1);
    expect(receivedAbout(receiver, 'lead.created', email)[0]?.verified).toBe(true);

    // The log: the lead's delivery with the receiver's 200 and its first bytes, as text.
    await endpoint.getByRole('button', { name: 'Deliveries' }).click();
    const log = endpoint.getByRole('region', { name: 'Deliveries', exact: true });
    const leadRow = log.getByRole('row').filter({ hasText: 'lead.created' }).first();
    await expect(leadRow).toContainText('Delivered');
    await expect(log.getByText(/Delivered · HTTP 200 · \d+ ms/).first()).toBeVisible();
    await expect(log.locator('pre').first()).toHaveText('{"ok":true}');
    await expectNoAxeViolations(page, WCAG);
    await shoot(page, card, testInfo, 'deliveries');

    // The receiver fails: the test event says so as an error, never as a success.
    receiver.plan({ status: 500, body: '<h1>Internal error</h1>' });
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await expect(endpoint.getByRole('alert').filter({ hasText: /^Not delivered: / })).toBeVisible();
    await expect(endpoint.getByRole('status').filter({ hasText: /Delivered/ })).toHaveCount(0);
    // The receiver's answer is shown as text, never as HTML.
    await expect(log.locator('pre').filter({ hasText: '<h1>Internal error</h1>' })).toBeVisible();
    await expect(log.locator('pre h1')).toHaveCount(0);
    await shoot(page, card, testInfo, 'test-failed');
  });

  test('an agent edits an endpoint, turns it off and on, and rotates its secret: the new one signs', async ({
    page,
  }, testInfo) => {
    await signInAsNewAgent(page);
    const created = await page.request.post('/api/webhooks', {
      headers: sameSiteHeaders(),
      data: { url: receiver.url('/before'), events: ['lead.created'] },
    });
    expect(created.status(), await created.text()).toBe(201);
    await page.goto('/dashboard/integrations');
    await waitForIslands(page);
    const card = page.getByRole('region', { name: 'Webhooks', exact: true });

    // Edit: the address, the description and the events.
    await card
      .getByRole('article', { name: receiver.url('/before') })
      .getByRole('button', { name: 'Edit' })
      .click();
    const form = card.getByRole('form', { name: 'Edit endpoint' });
    await form.getByLabel('Endpoint URL').fill(receiver.url('/after'));
    await form.getByLabel('Description (optional)').fill('Make scenario');
    await form.getByRole('checkbox', { name: /A lead sends a newer estimate/ }).check();
    await form.getByRole('button', { name: 'Save endpoint' }).click();
    const endpoint = card.getByRole('article', { name: receiver.url('/after') });
    await expect(endpoint.getByRole('status')).toHaveText(WEBHOOK_MESSAGES.saved);
    await expect(endpoint).toContainText('Make scenario');
    await expect(endpoint).toContainText('lead.created, lead.updated');

    // Off: no test event; on again.
    await endpoint.getByRole('button', { name: 'Turn off' }).click();
    await expect(endpoint.getByText('Off', { exact: true })).toBeVisible();
    await expect(endpoint.getByRole('button', { name: 'Send test event' })).toBeDisabled();
    await endpoint.getByRole('button', { name: 'Turn on' }).click();
    await expect(endpoint.getByText('On', { exact: true })).toBeVisible();

    // Rotate, after a confirmation: the new secret is shown once and signs the next test event.
    await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Make a new signing secret?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoAxeViolations(page, WCAG);
    await shoot(page, null, testInfo, 'rotate-confirm');
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    const panel = card.getByRole('region', { name: 'Signing secret' });
    await expect(panel).toContainText(WEBHOOK_MESSAGES.rotated);
    const secret = (await panel.locator('.webhook-secret-value code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    receiver.verifyWith(secret);
    await expect(endpoint.getByText(/The previous secret also signs until/)).toBeVisible();
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await expect(endpoint.getByRole('status')).toHaveText(/^Delivered: /);
    expect(receiver.received.at(-1)?.verified).toBe(true);

    // 410 Gone stops the endpoint until it is turned on again, and the card says why.
    receiver.plan({ status: 410, body: 'gone' });
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await expect(endpoint.getByRole('alert').filter({ hasText: /^Not delivered: / })).toBeVisible();
    await expect(endpoint.getByText('Stopped: the receiver answered 410 Gone', { exact: false })).toBeVisible();
    await expect(endpoint.getByText('Off', { exact: true })).toBeVisible();
    await shoot(page, endpoint, testInfo, 'stopped-gone');
    await endpoint.getByRole('button', { name: 'Turn on' }).click();
    await expect(endpoint.getByText('On', { exact: true })).toBeVisible();
    await expect(endpoint.getByText('Stopped: the receiver answered 410 Gone', { exact: false })).toHaveCount(0);
  });

  test('the eleventh endpoint is refused with the limit’s message', async ({ page }) => {
    await signInAsNewAgent(page);
    for (let index = 0; index < 10; index += 1) {
      const response = await page.request.post('/api/webhooks', {
        headers: sameSiteHeaders(),
        data: { url: receiver.url(`/hooks/${index}`), events: ['lead.created'], active: false },
      });
      expect(response.status(), await response.text()).toBe(201);
    }
    await page.goto('/dashboard/integrations');
    await waitForIslands(page);
    const card = page.getByRole('region', { name: 'Webhooks', exact: true });
    await expect(card.getByRole('article')).toHaveCount(10);
    await card.getByRole('button', { name: 'Add endpoint' }).click();
    const form = card.getByRole('form', { name: 'Add endpoint' });
    await form.getByLabel('Endpoint URL').fill(receiver.url('/hooks/eleventh'));
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(form.getByRole('alert').filter({ hasText: WEBHOOK_MESSAGES.tooMany })).toBeVisible();
    await expect(card.getByRole('article')).toHaveCount(10);
  });

  test('an admin adds a site-wide endpoint (every agent’s leads) on /admin/settings, then removes it', async ({
    page,
  }, testInfo) => {
    await signInAsAdmin(page);
    await page.goto('/admin/settings');
    await waitForIslands(page);
    const card = page.getByRole('region', { name: 'Webhooks (every agent’s leads)' });
    await expect(card.getByText(/Send every agent’s leads as they happen/)).toBeVisible();
    await card.getByRole('button', { name: 'Add endpoint' }).click();
    const form = card.getByRole('form', { name: 'Add endpoint' });
    // Off: the site's endpoint must not take the run's other leads while this test looks at it.
    const address = receiver.url(`/site/${testInfo.project.name}`);
    await form.getByLabel('Endpoint URL').fill(address);
    await form.getByRole('checkbox', { name: 'Active: send events to this endpoint' }).uncheck();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(card.getByRole('region', { name: 'Signing secret' })).toContainText(/whsec_/);
    await card.getByRole('button', { name: 'I have copied it' }).click();
    const endpoint = card.getByRole('article', { name: address });
    await expect(endpoint.getByText('Off', { exact: true })).toBeVisible();
    await expect(endpoint.getByRole('button', { name: 'Send test event' })).toBeDisabled();
    await expectNoAxeViolations(page, WCAG);
    await shoot(page, card, testInfo, 'admin-list');

    await endpoint.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this endpoint?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Remove endpoint' }).click();
    await expect(card.getByRole('status').filter({ hasText: WEBHOOK_MESSAGES.removed })).toBeVisible();
    await expect(endpoint).toHaveCount(0);
  });
});
