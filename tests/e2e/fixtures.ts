import { randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test';
import * as z from 'zod';
import { E2E_BASE_URL, E2E_DATA_DIR } from '../../playwright.config.ts';

/**
 * Every page fails its test on a console error or an uncaught exception, except the errors a test
 * expects (`test.use({ consoleErrorsAllowed: [...] })`), such as a 404 it asks for on purpose; and
 * on any browser dialog (alert, confirm, prompt), which would block a visitor on a phone: pages say
 * what happened in the page.
 */
export const test = base.extend<{
  consoleErrorsAllowed: RegExp[];
  failOnConsoleErrors: undefined;
  failOnBrowserDialogs: undefined;
}>({
  consoleErrorsAllowed: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ page, consoleErrorsAllowed }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        const text = message.text();
        if (message.type() === 'error' && !consoleErrorsAllowed.some((pattern) => pattern.test(text))) {
          errors.push(text);
        }
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(undefined);
      expect(errors, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
  failOnBrowserDialogs: [
    async ({ page }, use) => {
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await use(undefined);
      expect(dialogs, 'browser dialogs opened by the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

const outboxMessageSchema = z.object({
  to: z.object({ email: z.string(), name: z.string().nullish() }),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()),
});

/**
 * The e-mails the server of the e2e run has delivered to `address` (its outbox writes each one to
 * DATA_DIR/outbox, see src/app/compose.ts) that satisfy `wanted`, waiting until `count` of them
 * have arrived. Other tests write to the same outbox (the featured agent gets every test's notices),
 * so wait for the message a test is about, not for any message.
 */
export async function emailsTo(
  address: string,
  count = 1,
  wanted: (message: z.output<typeof outboxMessageSchema>) => boolean = () => true,
): Promise<z.output<typeof outboxMessageSchema>[]> {
  const dir = join(E2E_DATA_DIR, 'outbox');
  let found: z.output<typeof outboxMessageSchema>[] = [];
  await expect
    .poll(
      async () => {
        // Oldest first: files are named by delivery id ("9.json" before "10.json").
        const files = (await readdir(dir).catch(() => []))
          .filter((file) => file.endsWith('.json'))
          .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
        const messages = await Promise.all(
          files.map(async (file) => outboxMessageSchema.parse(JSON.parse(await readFile(join(dir, file), 'utf8')))),
        );
        found = messages.filter((message) => message.to.email === address && wanted(message));
        return found.length;
      },
      { message: `e-mails to ${address} in the outbox` },
    )
    .toBeGreaterThanOrEqual(count);
  return found;
}

/** Waits until every island on the page has hydrated, so clicks reach React. */
export async function waitForIslands(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** Records API calls to `path` (method and body) made by the page. */
export function recordApiCalls(page: Page, path: string): { method: string; body: unknown }[] {
  const calls: { method: string; body: unknown }[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path)
      calls.push({ method: request.method(), body: request.postDataJSON() });
  });
  return calls;
}

/**
 * Runs axe on the page: no violations. With `tags` (such as `['wcag2a', 'wcag2aa']`), only the rules
 * of those standards run; without, every rule axe has.
 */
export async function expectNoAxeViolations(page: Page, tags?: readonly string[]): Promise<void> {
  const builder = new AxeBuilder({ page });
  const results = await (tags && tags.length > 0 ? builder.withTags([...tags]) : builder).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

/** Clicks a top-bar button, through the Menu on small screens. */
export async function clickNav(page: Page, button: 'Get Estimate' | 'Contact') {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('button', { name: button, exact: true }).click();
}

/** Opens `path` (the home page by default) and the modal that `button` opens; returns that dialog. */
export async function openHomeModal(page: Page, button: 'Get Estimate' | 'Contact', path = '/') {
  await page.goto(path);
  await clickNav(page, button);
  return page.getByRole('dialog');
}

/** Fills the calculator as a seller types (digits only) and asks for the estimate. */
export async function calculate(page: Page, seller: { firstName: string; price: string; mortgage: string }) {
  const calculator = page.getByRole('dialog');
  await calculator.getByLabel('First name').fill(seller.firstName);
  await calculator.getByLabel('Expected sale price').fill(seller.price);
  await calculator.getByLabel('Mortgage balance').fill(seller.mortgage);
  await calculator.getByRole('button', { name: 'Calculate My Net Proceeds' }).click();
}

/** The demo agent's page with the worked example calculated (net $279,341.00 once unlocked). */
export async function calculateOnAgentPage(page: Page): Promise<void> {
  await page.goto('/r/alexmorgan');
  await waitForIslands(page);
  await page.getByLabel('Sale Price').pressSequentially('780200');
  await page.getByLabel('Mortgage balance').fill('450000');
  await page.getByRole('button', { name: 'Calculate' }).click();
}

/** What POST /api/leads answers while the database cannot be reached (src/app/api-app.ts). */
export const DATABASE_UNAVAILABLE = 'We could not reach our database just now. Please try again in a moment.';

/**
 * Makes POST /api/leads answer as the API does while the database cannot be reached: a 503 with
 * Retry-After in the error shape (the server side is proven in tests/integration/faults.test.ts).
 */
export async function leadsWithDatabaseDown(page: Page): Promise<void> {
  await page.route('**/api/leads', (route) =>
    route.fulfill({
      status: 503,
      headers: { 'retry-after': '10' },
      contentType: 'application/json',
      body: JSON.stringify({ success: false, error: DATABASE_UNAVAILABLE, fields: {} }),
    }),
  );
}

/** On /r/{slug} with an estimate made: opens Unlock, leaves the seller's details with consent, submits. */
export async function unlockEstimate(
  page: Page,
  seller: { firstName: string; lastName: string; phone: string; email: string },
) {
  await page.getByRole('button', { name: 'Unlock Your Estimate' }).click();
  const unlock = page.getByRole('dialog', { name: 'Unlock Your Estimate' });
  await unlock.getByLabel('First name').fill(seller.firstName);
  await unlock.getByLabel('Last name').fill(seller.lastName);
  await unlock.getByRole('textbox', { name: 'Phone' }).pressSequentially(seller.phone);
  await unlock.getByRole('textbox', { name: 'Email' }).fill(seller.email);
  await unlock.getByRole('checkbox', { name: /^I agree/ }).check();
  await unlock.getByRole('button', { name: 'Unlock My Estimate' }).click();
}

/** Fills every field of the contact form, ticks consent and submits. */
export async function submitContact(
  page: Page,
  person: { firstName: string; lastName: string; phone: string; email: string; address?: string },
) {
  const contact = page.getByRole('dialog', { name: /^Work with / });
  await contact.getByLabel('First name').fill(person.firstName);
  await contact.getByLabel('Last name').fill(person.lastName);
  await contact.getByRole('textbox', { name: 'Phone' }).fill(person.phone);
  await contact.getByRole('textbox', { name: 'Email' }).fill(person.email);
  if (person.address) await contact.getByLabel('Property address (optional)').fill(person.address);
  await contact.getByRole('checkbox', { name: /^I agree/ }).check();
  // "Submit" on the home page, "Get Started" on the county pages.
  await contact.locator('button[type="submit"]').click();
}

/** The `path?token=…` links in `text`. */
const tokenLinks = (text: string, path: string): string[] =>
  [...text.matchAll(new RegExp(`https?://[^\\s]+${path}\\?token=[A-Za-z0-9_-]+(&[a-z]+=[a-z0-9]+)*`, 'g'))].map(
    (m) => m[0],
  );

/** The path and query of the last `path?token=…` link e-mailed to `address`, waiting for `count` such e-mails. */
export async function linkFromEmail(address: string, path: string, count = 1): Promise<string> {
  const messages = await emailsTo(address, count, (message) => tokenLinks(message.text, path).length > 0);
  const link = tokenLinks(messages.map((message) => message.text).join('\n'), path).at(-1);
  if (!link) throw new Error(`no ${path} link in the e-mails to ${address}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

export interface SignedInAgent {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  slug: string;
}

/** A random hex id as letters only (digits become g–p): a name takes letters, not digits (issue 23, minor 5). */
export const nameTag = (id: string): string => id.replace(/[0-9]/g, (digit) => 'ghijklmnop'.charAt(Number(digit)));

/**
 * A new agent of the test's own, signed up, verified by the e-mailed link and signed in: the page's
 * context holds the session cookie, so the next page.goto opens the signed-in areas. Every test
 * gets its own agent (and so its own leads, settings and profile), whatever runs beside it.
 */
export async function signInAsNewAgent(page: Page): Promise<SignedInAgent> {
  const id = randomUUID().slice(0, 8);
  const agent = {
    first_name: 'Jordan',
    last_name: `Casey${nameTag(id)}`,
    email: `jordan.${id}@example.com`,
    password: 'a-good-password',
    slug: `jordancasey${id}`,
  };
  const signup = await page.request.post('/api/auth/signup', {
    data: { ...agent, phone: null, brokerage: 'Harbor Point Realty (demo)', is_admin: false },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = new URL(await linkFromEmail(agent.email, '/verify-email'), 'http://x').searchParams.get('token');
  expect((await page.request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
  const login = await page.request.post('/api/auth/login', { data: { email: agent.email, password: agent.password } });
  expect(login.status(), await login.text()).toBe(200);
  return agent;
}

const madeEstimateSchema = z.object({ estimate: z.object({ uuid: z.string(), commission_percent: z.number() }) });

/**
 * Headers of a call a page of the site makes: its Origin, which a request carrying the session
 * cookie (page.request after signInAsNewAgent) needs to pass the CSRF check.
 */
export const sameSiteHeaders = (): Record<string, string> => {
  const { baseURL } = test.info().project.use;
  return baseURL ? { origin: new URL(baseURL).origin } : {};
};

/** An estimate on `slug`'s calculator (the worked example), made through the public API as /r/{slug} makes it. */
export async function makeEstimate(
  request: APIRequestContext,
  slug: string,
): Promise<z.output<typeof madeEstimateSchema>['estimate']> {
  const response = await request.post('/api/estimates', {
    data: { agent_slug: slug, sale_price: '780,200', mortgage_payoff: 450000 },
    headers: sameSiteHeaders(),
  });
  expect(response.status(), await response.text()).toBe(201);
  return madeEstimateSchema.parse(await response.json()).estimate;
}

/** The seed's demo admin (src/app/seed.ts). */
export const DEMO_ADMIN = { email: 'admin@example.com', password: 'demo-admin-password' };

/**
 * Signs `page`'s context in as the seed's demo admin, with the session of one login per run (kept
 * under the run's DATA_DIR): a login per test would meet the login limit (10 per address in 15
 * minutes) that protects the account, as it should.
 */
export async function signInAsAdmin(page: Page): Promise<void> {
  const file = join(E2E_DATA_DIR, 'admin-session.txt');
  const kept = await readFile(file, 'utf8').catch(() => '');
  if (kept) {
    await page.context().addCookies([{ name: 'nts_session', value: kept, url: E2E_BASE_URL }]);
    return;
  }
  // Same-site headers: the page may already hold another session (a test's new agent), and a
  // request with a session cookie must say where it comes from.
  const login = await page.request.post('/api/auth/login', { data: DEMO_ADMIN, headers: sameSiteHeaders() });
  expect(login.status(), await login.text()).toBe(200);
  const cookie = login
    .headersArray()
    .filter(({ name }) => name.toLowerCase() === 'set-cookie')
    .map(({ value }) => /^nts_session=([^;]+)/.exec(value)?.[1])
    .find((token) => token !== undefined);
  if (cookie) await writeFile(file, cookie);
}

/** A lead for the agent, through the public API as a contact form sends it. */
export async function makeContactLead(request: APIRequestContext, slug: string, firstName: string) {
  const response = await request.post('/api/leads', {
    data: {
      agent_slug: slug,
      firstName,
      lastName: 'Seller',
      phone: '516-555-0142',
      email: `${firstName.toLowerCase()}.${slug}@example.com`,
      source: 'calculator',
      consent_marketing: true,
    },
    headers: sameSiteHeaders(),
  });
  expect(response.status(), await response.text()).toBe(201);
}

/**
 * Opens `path` with the API answer `held` held back until `loading` shows, releases it, waits for
 * `loaded`, and expects the page's layout shifts (the browser's own measure, as Lighthouse's CLS)
 * to add up to under 0.02: nothing the visitor sees moves when a screen's data arrives.
 */
export async function expectNoLayoutShiftOnLoad(
  page: Page,
  { path, held, loading, loaded }: { path: string; held: string; loading: Locator; loaded: Locator },
): Promise<void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${held}`, async (route) => {
    await released;
    await route.continue();
  });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push('value' in entry ? Number(entry.value) : 0);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(path);
  await expect(loading).toBeVisible();
  release();
  await expect(loaded).toBeVisible();
  await page.waitForLoadState('networkidle');
  const shifts = await page.evaluate(() =>
    'layoutShifts' in window && Array.isArray(window.layoutShifts) ? window.layoutShifts.map(Number) : [],
  );
  expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.02);
}

/**
 * Screenshots of a changed screen at a phone's 390 px and a desktop's 1280 px, taken once (from the
 * desktop project) into the test's output folder (test-results/, not committed) for a reviewer to look at.
 */
export async function shootPhoneAndDesktop(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  if (testInfo.project.name !== 'desktop') return;
  const before = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`) });
  }
  // The test goes on at the size it had.
  if (before) await page.setViewportSize(before);
}
