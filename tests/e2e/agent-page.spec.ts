import {
  calculateOnAgentPage,
  DATABASE_UNAVAILABLE,
  emailsTo,
  expect,
  leadsWithDatabaseDown,
  recordApiCalls,
  test,
  unlockEstimate,
  waitForIslands,
} from './fixtures.ts';

test.describe('an agent calculator page', () => {
  test('unlocks the estimate once the visitor leaves their details', async ({ page }) => {
    const leads = recordApiCalls(page, '/api/leads');
    const templates = recordApiCalls(page, '/api/templates');
    await page.goto('/r/alexmorgan');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Net to Seller Calculator');
    await expect(page.getByLabel('Expected sale price')).toHaveAttribute('placeholder', '780,000');
    await expect(page.getByLabel('Mortgage balance')).toHaveAttribute('placeholder', '450,000');

    await page.getByLabel('Sale Price').pressSequentially('780200');
    await expect(page.getByLabel('Sale Price')).toHaveValue('780,200');
    await page.getByLabel('Mortgage balance').fill('450000');
    await page.getByRole('button', { name: 'Calculate' }).click();

    // Locked: a blurred sample, not the seller's figures.
    await expect(page.getByRole('heading', { name: 'Your estimate is ready' })).toBeVisible();
    await expect(page.getByText('$279,341.00')).toHaveCount(0);
    await page.getByRole('button', { name: 'Unlock Your Estimate' }).click();

    const unlock = page.getByRole('dialog', { name: 'Unlock Your Estimate' });
    await unlock.getByRole('button', { name: 'Unlock My Estimate' }).click();
    await expect(unlock.getByText('First name is required')).toBeVisible();
    await expect(unlock.getByText('Please agree to be contacted about your home sale')).toBeVisible();
    await expect(unlock.getByRole('checkbox', { name: /^I agree/ })).toHaveAccessibleName(
      'I agree that Alex Morgan may contact me by phone, text or e-mail about selling my home.',
    );
    expect(leads).toEqual([]);

    await unlock.getByLabel('First name').fill('Robin');
    await unlock.getByLabel('Last name').fill('Park');
    await unlock.getByRole('textbox', { name: 'Phone' }).pressSequentially('6315550199');
    await expect(unlock.getByRole('textbox', { name: 'Phone' })).toHaveValue('(631) 555-0199');
    await unlock.getByRole('textbox', { name: 'Email' }).fill('robin@example.com');
    await unlock.getByRole('checkbox', { name: /^I agree/ }).check();
    await unlock.getByRole('button', { name: 'Unlock My Estimate' }).click();

    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
    await expect(page.getByText('We have e-mailed this estimate to robin@example.com')).toHaveRole('status');
    expect(leads).toHaveLength(1);
    expect(leads[0]?.body).toMatchObject({
      agent_id: 1,
      first_name: 'Robin',
      last_name: 'Park',
      phone: '6315550199',
      email: 'robin@example.com',
      source: 'calculator',
      consent_marketing: true,
      estimate_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email_body: 'Sale price: $780,200.00\nMortgage payoff: $450,000.00\nEstimated net proceeds: $279,341.00',
      page: '/r/alexmorgan',
      company_site: '',
    });
    // The estimate went to the visitor, and the lead (stored with it) to the agent.
    const [toVisitor] = await emailsTo('robin@example.com');
    expect(toVisitor?.text).toContain('$279,341.00');
    const [notice] = await emailsTo('alex.morgan@example.com', 1, (message) =>
      message.text.includes('robin@example.com'),
    );
    expect(notice?.text).toContain('Robin Park');
    await expect.poll(() => templates.length).toBe(1);
    expect(templates[0]?.body).toMatchObject({ first_name: 'Robin', sender_name: 'Alex Morgan' });

    await page.getByRole('button', { name: 'Start New Calculation' }).click();
    await expect(page.getByLabel('Sale Price')).toHaveValue('');
  });

  test('shares the page, or copies its link where sharing is not available', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined });
    });
    await page.goto('/r/alexmorgan');
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Share this page' }).click();
    await expect(page.getByRole('status')).toHaveText('Link copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/r\/alexmorgan$/);
  });

  test('where the clipboard is refused, shows the link to copy by hand, in the page', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined });
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) },
      });
    });
    await page.goto('/r/alexmorgan');
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Share this page' }).click();
    await expect(page.getByRole('status')).toHaveText(/^Copy this link: http:\/\/127\.0\.0\.1:\d+\/r\/alexmorgan$/);
  });

  test('shows the agent contact block and the fair-housing notice', async ({ page }) => {
    await page.goto('/r/alexmorgan');
    const contact = page.getByRole('region', { name: 'Contact Alex' });
    await expect(contact.getByRole('link', { name: 'alex.morgan@example.com' })).toHaveAttribute(
      'href',
      'mailto:alex.morgan@example.com',
    );
    await expect(contact).toContainText('License #10401234567');
    await expect(contact).toContainText('100 Main Street, Huntington, NY 11743');
    await expect(page.getByRole('img', { name: 'Equal Housing Opportunity' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New York State Fair Housing Notice' })).toBeVisible();
  });

  test('an agent whose profile is unfinished shows Coming Soon with an e-mail link', async ({ page }) => {
    await page.goto('/r/jamierivera');
    await expect(page.getByRole('heading', { name: 'Coming Soon' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'E-mail Jamie' })).toHaveAttribute(
      'href',
      'mailto:jamie.rivera@example.com',
    );
  });

  test.describe('an unknown agent', () => {
    test.use({ consoleErrorsAllowed: [/status of 404/] });
    test('shows Agent Not Found', async ({ page }) => {
      await page.goto('/r/nosuchagent');
      await expect(page.getByRole('heading', { name: 'Agent Not Found' })).toBeVisible();
    });
  });

  test.describe('when the database cannot be reached', () => {
    test.use({ consoleErrorsAllowed: [/status of 503/] });
    test('the unlock form says to try again and the estimate stays locked', async ({ page }) => {
      await leadsWithDatabaseDown(page);
      await calculateOnAgentPage(page);
      await unlockEstimate(page, {
        firstName: 'Robin',
        lastName: 'Park',
        phone: '6315550199',
        email: 'robin@example.com',
      });
      const unlock = page.getByRole('dialog', { name: 'Unlock Your Estimate' });
      await expect(unlock.getByRole('alert').filter({ hasText: DATABASE_UNAVAILABLE })).toBeVisible();
      await expect(unlock.getByRole('textbox', { name: 'Email' })).toHaveValue('robin@example.com');
      await expect(page.getByText('$279,341.00')).toHaveCount(0);
    });
  });
});
