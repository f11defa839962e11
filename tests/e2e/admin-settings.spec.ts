import type { Page } from '@playwright/test';
import {
  DEMO_ADMIN,
  emailsTo,
  expect,
  expectNoAxeViolations,
  expectNoLayoutShiftOnLoad,
  signInAsAdmin,
  test,
  waitForIslands,
} from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The demo admin (seeded for the e2e run), signed in, on /admin/settings. */
async function openSettings(page: Page) {
  await signInAsAdmin(page);
  await page.goto('/admin');
  await waitForIslands(page);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL('/admin/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
}

const emailCard = (page: Page) => page.getByRole('region', { name: 'E-mail sending' });
const seoCard = (page: Page) => page.getByRole('region', { name: 'SEO' });

// One admin and one set of site-wide settings: these tests take turns.
test.describe.configure({ mode: 'serial' });

test('the admin saves the e-mail settings, and the key is shown only masked afterwards', async ({ page }) => {
  await openSettings(page);
  const card = emailCard(page);
  const key = `key-e2e-${Date.now()}-abcd`;
  await card.getByLabel('Mailgun domain').fill('mg.example.com');
  await card.getByLabel('Mailgun API key').fill(key);
  await card.getByLabel('Sender name').fill('Long Island Net Proceeds');
  // No sender address: the settings stay incomplete, so the run's other e-mail keeps going to the outbox.
  await card.getByRole('button', { name: 'Save e-mail settings' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Email settings saved successfully!' })).toBeVisible();
  await expect(card.getByLabel('Mailgun API key')).toHaveValue('');
  await expect(card.getByText('Saved key ••••••••abcd. Leave blank to keep it.')).toBeVisible();
  await expect(card.getByText('Mailgun not set up')).toBeVisible();

  await page.reload();
  await waitForIslands(page);
  await expect(emailCard(page).getByLabel('Mailgun domain')).toHaveValue('mg.example.com');
  await expect(emailCard(page).getByText('Saved key ••••••••abcd. Leave blank to keep it.')).toBeVisible();
  expect(await page.content()).not.toContain(key);
});

test('a test e-mail reaches the admin through the outbox, and the card’s one notice says so', async ({
  page,
}, testInfo) => {
  await openSettings(page);
  const card = emailCard(page);
  // A save first (nothing edited: the stored settings stay), then the test: the card has one notice,
  // telling the latest outcome (minor 26, decision 0048).
  await card.getByRole('button', { name: 'Save e-mail settings' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Email settings saved successfully!' })).toBeVisible();
  await card.getByRole('button', { name: 'Send a test e-mail' }).click();
  await expect(
    card.getByRole('status').filter({ hasText: `Test e-mail sent to ${DEMO_ADMIN.email} through outbox.` }),
  ).toBeVisible();
  await expect(card.locator('.notice')).toHaveCount(1);
  await expect(card.getByText('Email settings saved successfully!')).toHaveCount(0);
  if (testInfo.project.name === 'desktop') {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await card.screenshot({ path: testInfo.outputPath(`email-card-one-notice-${width}.png`) });
    }
  }
  const [message] = await emailsTo(
    DEMO_ADMIN.email,
    1,
    (sent) => sent.subject === 'Test e-mail from your net proceeds site',
  );
  expect(message?.text).toContain('If you are reading it, e-mail sending works.');
});

test('the SEO form counts characters as the admin types and saves', async ({ page }) => {
  await openSettings(page);
  const card = seoCard(page);
  const title = card.getByLabel('Page title');
  await title.fill('Sell smarter on Long Island');
  await expect(card.getByText('27/60 characters')).toBeVisible();
  await card.getByLabel('Meta description').fill('Your net proceeds in seconds.');
  await expect(card.getByText('29/160 characters')).toBeVisible();
  await card.getByLabel('OG title (optional)').fill('Know your number');
  await expect(card.getByText('16/90 characters')).toBeVisible();
  await card.getByLabel('OG description (optional)').fill('Net proceeds');
  await expect(card.getByText('12/200 characters')).toBeVisible();
  await card.getByLabel('OG description (optional)').fill('');
  await expect(card.getByText('0/200 characters')).toBeVisible();
  await expect(title).toHaveAttribute('maxlength', '60');
  await card.getByLabel('Twitter card').selectOption('summary');
  await card.getByRole('button', { name: 'Save SEO settings' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'SEO settings saved successfully!' })).toBeVisible();

  // One notice per card (minor 26): an edit clears the success, the next save replaces it.
  await card.getByLabel('Keywords (optional)').fill('Long Island, net proceeds');
  await expect(card.getByText('SEO settings saved successfully!')).toHaveCount(0);
  await card.getByLabel('Keywords (optional)').fill('');
  await card.getByRole('button', { name: 'Save SEO settings' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'SEO settings saved successfully!' })).toHaveCount(1);
  await expect(page.getByText('SEO settings saved successfully!')).toHaveCount(1);

  await page.reload();
  await waitForIslands(page);
  await expect(seoCard(page).getByLabel('Page title')).toHaveValue('Sell smarter on Long Island');
  await expect(seoCard(page).getByLabel('Twitter card')).toHaveValue('summary');
  await expect(seoCard(page).getByText('27/60 characters')).toBeVisible();
});

test('the settings screen has no accessibility violations, with the Follow Up Boss card', async ({ page }) => {
  await openSettings(page);
  await expect(page.getByRole('heading', { name: 'Follow Up Boss' })).toBeVisible();
  await expect(emailCard(page).getByLabel('Mailgun domain')).toBeVisible();
  await expect(seoCard(page).getByLabel('Page title')).toBeVisible();
  await expectNoAxeViolations(page, WCAG);
});

test('a list of the sections leads to each card; on a computer it stays in view beside them', async ({
  page,
}, testInfo) => {
  // Axe and two full-page screenshots of a long screen: slow on a loaded machine.
  test.setTimeout(90_000);
  await openSettings(page);
  const nav = page.getByRole('navigation', { name: 'Settings sections' });
  const links = nav.getByRole('link');
  await expect(links).toHaveText([
    'E-mail sending',
    'SEO',
    'Social preview image',
    'Website logo',
    'Town page logo',
    'Closing fees',
    'Follow Up Boss',
    'Webhooks',
    'Seller updates',
  ]);
  await nav.getByRole('link', { name: 'Closing fees' }).click();
  await expect(page).toHaveURL(/#fee-table-title$/);
  await expect(page.getByRole('heading', { name: 'Closing fees (Long Island)' })).toBeInViewport();
  if (testInfo.project.name === 'desktop') {
    await expect(nav).toBeInViewport();
    // Two columns of cards: the SEO card sits beside the e-mail card, not below it.
    const email = await emailCard(page).boundingBox();
    const seo = await seoCard(page).boundingBox();
    expect(seo?.y).toBe(email?.y);
  }
  await expectNoAxeViolations(page, WCAG);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: testInfo.outputPath(`settings-top-${width}.png`) });
    await page.screenshot({
      path: testInfo.outputPath(`settings-full-${width}.png`),
      fullPage: true,
    });
  }
});

test('the file pickers are one styled control: a button with the chosen file’s name, reached by the keyboard (minor 37)', async ({
  page,
}, testInfo) => {
  await openSettings(page);
  const card = page.getByRole('region', { name: 'Social preview image' });
  // "Upload an OG image", or "Upload a new OG image" while admin-logos.spec.ts (in another worker) has
  // one up: the image is site-wide, and this test is about the picker either way.
  const input = card.getByLabel(/^Upload (an|a new) OG image$/);
  await expect(input).toHaveAttribute('type', 'file');
  await expect(card.locator('.file-picker-button')).toHaveText('Choose file');
  await expect(card.locator('.file-picker-name')).toHaveText('No file chosen');
  // The browser's own input takes the focus (Tab), its ring drawn on the button.
  await input.focus();
  await expect(input).toBeFocused();
  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(card.locator('.file-picker-name')).toHaveText('notes.txt');
  await expect(card.getByRole('alert')).toContainText('Please select an image file');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await card.screenshot({ path: testInfo.outputPath(`file-picker-${width}.png`) });
  }
});

test('the cards stay where they are when the e-mail settings arrive (no layout shift, issue 23)', async ({ page }) => {
  await signInAsAdmin(page);
  await expectNoLayoutShiftOnLoad(page, {
    path: '/admin/settings',
    held: '/api/agents/me/integrations/mailgun',
    loading: page.getByRole('group', { name: 'Loading the e-mail settings…' }),
    loaded: emailCard(page).getByRole('button', { name: 'Save e-mail settings' }),
  });
});
