import {
  emailsTo,
  expect,
  sameSiteHeaders,
  signInAsNewAgent,
  test,
  unlockEstimate,
  waitForIslands,
} from './fixtures.ts';

/**
 * Issue 23, part P: the public pages and the seller's forms as a newcomer meets them
 * (audit newcomer-2026-11-26, minors 9, 15-20, 23, 27, 28, 33, 36, 37).
 * Screenshots go to each test's output folder (test-results/) to be looked at, not compared.
 */
const shot = (name: string) =>
  test.info().outputPath(`${name}-${test.info().project.name === 'phone' ? 390 : 1280}.png`);

test.describe('the phone menu (minor 36)', () => {
  test('reaches the counties, About and Agent Login, and Escape closes it with focus back on Menu', async ({
    page,
  }) => {
    test.skip(test.info().project.name !== 'phone', 'the menu shows on small screens only');
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'Nassau County towns' })).toHaveAttribute(
      'href',
      '/long-island-real-estate/nassau-county',
    );
    await expect(menu.getByRole('link', { name: 'Suffolk County towns' })).toHaveAttribute(
      'href',
      '/long-island-real-estate/suffolk-county',
    );
    await expect(menu.getByRole('link', { name: /^About / })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Agent Login' })).toHaveAttribute('href', '/auth');
    await page.screenshot({ path: shot('phone-menu') });
    await menu.getByRole('link', { name: 'Agent Login' }).focus();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await toggle.click();
    await menu.getByRole('link', { name: 'Suffolk County towns' }).click();
    await expect(page).toHaveURL(/\/long-island-real-estate\/suffolk-county$/);
  });

  test('the desktop footer offers the same pages', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Nassau County towns' })).toBeVisible();
    await expect(footer.getByRole('link', { name: /^About / })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Agent Login' })).toBeVisible();
    await footer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('footer'), fullPage: false });
  });
});

test.describe('the contact form (minors 19, 20, 28)', () => {
  test("the footer's 'Ask Alex to call you' opens it; errors keep the fields of a row aligned; a message reaches the agent", async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('button', { name: 'Ask Alex to call you' }).click();
    const contact = page.getByRole('dialog', { name: /^Work with / });
    await contact.locator('button[type="submit"]').click();
    await expect(contact.getByText('First name is required')).toBeVisible();
    // Side by side on a desktop, the two inputs of a row start at the same height, errors under each
    // (a phone has them one under the other).
    if (test.info().project.name === 'desktop') {
      const first = await contact.getByLabel('First name').boundingBox();
      const last = await contact.getByLabel('Last name').boundingBox();
      expect(first?.y).toBe(last?.y);
      expect(first?.height).toBe(last?.height);
    }
    await page.screenshot({ path: shot('contact-errors') });

    const email = `message.${Date.now()}@example.com`;
    await contact.getByLabel('First name').fill('Morgan');
    await contact.getByLabel('Last name').fill('Notes');
    await contact.getByRole('textbox', { name: 'Phone' }).fill('516-555-0142');
    await contact.getByRole('textbox', { name: 'Email' }).fill(email);
    const message = contact.getByLabel('Message (optional)');
    await expect(message).toHaveAttribute('maxlength', '1000');
    await message.fill('Please call after 5pm.\n<b>Not</b> on Sundays.');
    await contact.getByRole('checkbox', { name: /^I agree/ }).check();
    await page.screenshot({ path: shot('contact-message') });
    await contact.locator('button[type="submit"]').click();
    await expect(contact).toBeHidden();
    const [notice] = await emailsTo('alex.morgan@example.com', 1, (sent) => sent.text.includes(email));
    expect(notice?.text).toContain('Message:\nPlease call after 5pm.\n<b>Not</b> on Sundays.');
    expect(notice?.html).toContain('&lt;b&gt;Not&lt;/b&gt; on Sundays.');
  });

  test("the agent sees the seller's message in their leads table", async ({ page }) => {
    const agent = await signInAsNewAgent(page);
    const response = await page.request.post('/api/leads', {
      data: {
        agent_slug: agent.slug,
        firstName: 'Morgan',
        lastName: 'Notes',
        phone: '516-555-0142',
        email: 'morgan.notes@example.com',
        message: 'Please call after 5pm. The house has a new roof.',
        consent_marketing: true,
      },
      headers: sameSiteHeaders(),
    });
    expect(response.status(), await response.text()).toBe(201);
    await page.goto('/dashboard/leads');
    const row = page.getByRole('row', { name: /Morgan Notes/ });
    await expect(row.getByRole('cell', { name: 'Please call after 5pm. The house has a new roof.' })).toBeVisible();
    await page.screenshot({ path: shot('dashboard-lead-message'), fullPage: true });
  });
});

test.describe('legal pages (minors 18, 19)', () => {
  test('the Terms describe both estimates, the privacy policy each form', async ({ page }) => {
    await page.goto('/terms');
    await expect(page.getByText('are not included')).toHaveCount(0);
    await expect(page.getByText(/The detailed sheet/)).toBeVisible();
    await page.screenshot({ path: shot('terms'), fullPage: true });
    await page.goto('/privacy');
    await expect(page.getByText(/your property address and a message/)).toBeVisible();
    await page.screenshot({ path: shot('privacy'), fullPage: true });
  });
});

test.describe('town pages (minors 15, 16, 37)', () => {
  test('a town without data says so and points to its county; no "Not available" row, no keyword line', async ({
    page,
  }) => {
    await page.goto('/long-island-real-estate/levittown');
    const stats = page
      .getByRole('region', { name: /at a glance/ })
      .or(page.locator('section[aria-labelledby="town-stats"]'));
    await expect(stats.getByText('No figure for Levittown')).toBeVisible();
    await expect(page.getByText('Contact for pricing')).toHaveCount(0);
    await expect(page.getByText('temporarily unavailable')).toHaveCount(0);
    await expect(page.getByText('Not available')).toHaveCount(0);
    await page.screenshot({ path: shot('town-no-data'), fullPage: true });
  });

  test('a town with data: one-colour chart with a sentence, claims two by two or four across', async ({ page }) => {
    await page.goto('/long-island-real-estate/huntington');
    await expect(page.getByText('North Shore real estate · Gold Coast homes')).toHaveCount(0);
    await expect(page.locator('.trend-summary')).toHaveText(/^From .+ the typical home value (rose|fell|stayed)/);
    const fills = await page
      .locator('.bars rect')
      .evaluateAll((bars) => [...new Set(bars.map((bar) => getComputedStyle(bar).fill))]);
    expect(fills).toHaveLength(1);
    // The claims: never one card alone on a row.
    const tops = await page
      .locator('section[aria-labelledby="why-showcase"] li.card')
      .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
    const perRow = [...new Set(tops)].map((top) => tops.filter((each) => each === top).length);
    expect(perRow.every((count) => count === perRow[0])).toBe(true);
    await page.screenshot({ path: shot('town-with-data'), fullPage: true });
  });
});

test.describe('an unknown agent (minor 17)', () => {
  test.use({ consoleErrorsAllowed: [/404/] });
  test('an unknown agent: no estimate disclaimer', async ({ page }) => {
    await page.goto('/r/nosuchagentanywhere');
    await expect(page.getByRole('heading', { name: 'Agent Not Found' })).toBeVisible();
    await expect(page.getByText('This estimate is for information only.')).toBeHidden();
    await page.screenshot({ path: shot('agent-not-found'), fullPage: true });
  });
});

test.describe('the agent page (minors 27, 37, 9, 23)', () => {
  test('the calculator: the labels of the home page, Share at the header end; the sheet comes into view', async ({
    page,
  }) => {
    await page.goto('/r/alexmorgan');
    await waitForIslands(page);
    await expect(page.getByText('This estimate is for information only.')).toBeVisible();
    await expect(page.getByLabel('Expected sale price')).toHaveAttribute('placeholder', '780,000');
    await expect(page.getByLabel('Mortgage balance')).toHaveAttribute('placeholder', '450,000');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await expect(page.getByText('Mortgage balance is required')).toBeVisible();
    await page.screenshot({ path: shot('agent-page') });

    await page.getByLabel('Expected sale price').pressSequentially('780200');
    await page.getByLabel('Mortgage balance').fill('450000');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await unlockEstimate(page, {
      firstName: 'Sam',
      lastName: 'Scroll',
      phone: '516-555-0177',
      email: `sam.${Date.now()}@example.com`,
    });
    await expect(page.getByRole('button', { name: 'Start New Calculation', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Refine this estimate' }).click();
    const form = page.locator('form.refine-form');
    const payoff = form.getByRole('group', { name: 'Lien 1' }).getByLabel('Payoff ($)');
    await payoff.fill('lots');
    await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
    const summary = form.getByRole('alert').filter({ hasText: 'Please check the fields marked above:' });
    await expect(summary).toBeVisible();
    await expect(payoff).toBeFocused();
    await summary.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('refine-error-summary') });
    await summary.getByRole('link').first().click();
    await expect(payoff).toBeFocused();

    await payoff.fill('450,000');
    await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
    const heading = page.getByRole('heading', { name: 'Your estimate', exact: true });
    await expect(heading).toBeFocused();
    await expect(page.getByText('Estimated closing:')).toBeInViewport();
    await page.screenshot({ path: shot('detailed-sheet-in-view') });
  });
});
