import * as z from 'zod';
import {
  calculate,
  clickNav,
  emailsTo,
  expect,
  expectNoAxeViolations,
  openHomeModal,
  recordApiCalls,
  test,
  waitForIslands,
} from './fixtures.ts';

test.describe('a seller on the home page', () => {
  test('gets the worked example, copies the link and sees the same figures on the shared page', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await waitForIslands(page);
    await clickNav(page, 'Get Estimate');

    const calculator = page.getByRole('dialog', { name: 'What Will You Net?' });
    await expect(calculator).toBeVisible();
    await calculator.getByLabel('First name').fill('  Pat  ');
    const price = calculator.getByLabel('Expected sale price');
    await price.pressSequentially('780200');
    await expect(price).toHaveValue('780,200');
    await calculator.getByLabel('Mortgage balance').pressSequentially('450000');
    await expect(calculator.getByLabel('Mortgage balance')).toHaveValue('450,000');
    await calculator.getByRole('button', { name: 'Calculate My Net Proceeds' }).click();

    const result = page.getByRole('dialog', { name: 'Your Estimate' });
    await expect(result.getByText("Hello Pat! Here's your estimated net proceeds:")).toBeVisible();
    const rows = result.getByRole('row');
    await expect(rows).toHaveText([
      'Sale Price$780,200.00',
      'Mortgage Payoff−$450,000.00',
      'Commission (6%)−$46,812.00',
      'Transfer Tax−$3,122.00',
      'Attorney Fee−$750.00',
      'Recording Fee−$175.00',
    ]);
    await expect(result.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');

    await result.getByRole('button', { name: 'Copy Estimate Link' }).click();
    await expect(result.getByRole('status')).toHaveText('Estimate link copied to clipboard!');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/estimate\/[0-9a-f-]{36}$/);

    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Net Sheet for Pat' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Estimated net proceeds' }).getByRole('row')).toHaveText([
      'Sale Price$780,200.00',
      'Mortgage Payoff−$450,000.00',
      'Commission (6%)−$46,812.00',
      'Transfer Tax−$3,122.00',
      'Attorney Fee−$750.00',
      'Recording Fee−$175.00',
    ]);
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
    await expect(page.getByRole('link', { name: 'Run another estimate' })).toHaveAttribute('href', '/');
    await expectNoAxeViolations(page);
  });

  test('with a payoff above the proceeds sees what they would bring to closing', async ({ page }) => {
    await openHomeModal(page, 'Get Estimate');
    await calculate(page, { firstName: 'Sam', price: '300000', mortgage: '320000' });
    await expect(page.getByTestId('net-proceeds')).toHaveText('Amount you would bring to closing$40,125.00');
  });

  test('an empty or wrong form shows its errors and sends nothing', async ({ page }) => {
    const calls = recordApiCalls(page, '/api/estimates');
    const calculator = await openHomeModal(page, 'Get Estimate');
    await calculator.getByRole('button', { name: 'Calculate My Net Proceeds' }).click();
    await expect(calculator.getByText('First name is required')).toBeVisible();
    await expect(calculator.getByText('Sale price is required')).toBeVisible();
    await expect(calculator.getByText('Mortgage balance is required')).toBeVisible();
    await expect(calculator.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');

    await calculator.getByLabel('First name').fill('Pat');
    await calculator.getByLabel('Expected sale price').pressSequentially('abc0');
    await expect(calculator.getByLabel('Expected sale price')).toHaveValue('0');
    await calculator.getByLabel('Mortgage balance').fill('200000');
    await calculator.getByRole('button', { name: 'Calculate My Net Proceeds' }).click();
    await expect(calculator.getByText('Sale price must be at least $10,000')).toBeVisible();

    await calculator.getByLabel('Expected sale price').fill('1');
    await calculator.getByRole('button', { name: 'Calculate My Net Proceeds' }).click();
    await expect(calculator.getByText('Sale price must be at least $10,000')).toBeVisible();
    await expect(calculator.getByLabel('Expected sale price')).toHaveAttribute('aria-invalid', 'true');

    await calculator.getByLabel('Expected sale price').fill('100000001');
    await calculator.getByRole('button', { name: 'Calculate My Net Proceeds' }).click();
    await expect(calculator.getByText('Sale price must be at most $100,000,000')).toBeVisible();
    expect(calls).toEqual([]);
  });

  test('Calculate Again clears the form, Escape and Close close the calculator', async ({ page }) => {
    await page.goto('/');
    await waitForIslands(page);
    await clickNav(page, 'Get Estimate');
    const calculator = page.getByRole('dialog');
    await expect(calculator.getByLabel('First name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(calculator).toBeHidden();

    await clickNav(page, 'Get Estimate');
    await calculate(page, { firstName: 'Pat', price: '500000', mortgage: '0' });
    await expect(page.getByRole('row')).toHaveText([
      'Sale Price$500,000.00',
      'Commission (6%)−$30,000.00',
      'Transfer Tax−$2,000.00',
      'Attorney Fee−$750.00',
      'Recording Fee−$175.00',
    ]);
    await page.getByRole('button', { name: 'Calculate Again' }).click();
    await expect(calculator.getByLabel('First name')).toHaveValue('');
    await expect(calculator.getByLabel('Expected sale price')).toHaveValue('');
    await page.getByRole('button', { name: 'Close' }).first().click();
    await expect(calculator).toBeHidden();
  });

  test('the agent button opens the contact form with the name filled and the estimate attached', async ({ page }) => {
    const estimates = recordApiCalls(page, '/api/estimates');
    const leads = recordApiCalls(page, '/api/leads');
    await openHomeModal(page, 'Get Estimate');
    await calculate(page, { firstName: 'Pat', price: '780200', mortgage: '450000' });
    const result = page.getByRole('dialog', { name: 'Your Estimate' });
    await expect(result.getByTestId('net-proceeds')).toBeVisible();
    await result.getByRole('button', { name: 'Talk to Alex' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(1);
    const contact = page.getByRole('dialog', { name: 'Work with Alex Morgan' });
    await expect(contact).toBeVisible();
    await expect(contact.getByLabel('First name')).toHaveValue('Pat');
    await expect(contact.getByText('Your estimate of $279,341.00 net will be attached.')).toBeVisible();

    await contact.getByLabel('Last name').fill('Quinn');
    await contact.getByRole('textbox', { name: 'Phone' }).fill('6315550123');
    await contact.getByRole('textbox', { name: 'Email' }).fill('pat.quinn@example.com');
    await contact.getByRole('checkbox', { name: /^I agree/ }).check();
    await contact.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Thank you! We will be in touch soon.' })).toBeVisible();

    expect(estimates).toHaveLength(1);
    expect(leads).toHaveLength(1);
    expect(leads[0]?.body).toMatchObject({
      firstName: 'Pat',
      lastName: 'Quinn',
      estimate_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      page: '/',
      company_site: '',
    });
  });
});

test.describe('the shared estimate page', () => {
  test.use({ consoleErrorsAllowed: [/status of 404/] });
  test('shows Estimate Not Found for an unknown estimate, with a 404 status', async ({ page }) => {
    const response = await page.goto('/estimate/00000000-0000-4000-8000-000000000000');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Estimate Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Run another estimate' })).toHaveAttribute('href', '/');
  });

  test('shows Estimate Not Found for a malformed link without asking the server', async ({ page }) => {
    const calls = recordApiCalls(page, '/api/estimates/not-a-uuid');
    await page.goto('/estimate/not-a-uuid');
    await expect(page.getByRole('heading', { name: 'Estimate Not Found' })).toBeVisible();
    expect(calls).toEqual([]);
  });
});

test.describe('a mistyped address', () => {
  test.use({ consoleErrorsAllowed: [/status of 404/] });
  test('shows the not-found page with a 404 status', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL('/');
  });
});

test('the home page passes axe', async ({ page }) => {
  await page.goto('/');
  await waitForIslands(page);
  await expectNoAxeViolations(page);
});

test.describe('when the estimate cannot be made', () => {
  test.use({ consoleErrorsAllowed: [/ERR_FAILED/] });
  test('the seller sees the error in the form and keeps it', async ({ page }) => {
    await page.route('**/api/estimates', (route) => route.abort('failed'));
    const calculator = await openHomeModal(page, 'Get Estimate');
    await calculate(page, { firstName: 'Pat', price: '780200', mortgage: '450000' });
    await expect(
      calculator
        .getByRole('alert')
        .filter({ hasText: 'There was an error calculating your estimate. Please try again.' }),
    ).toBeVisible();
    await expect(calculator.getByRole('button', { name: 'Calculate My Net Proceeds' })).toBeEnabled();
    await expect(calculator.getByLabel('Expected sale price')).toHaveValue('780,200');
  });
});

test('pages and API answers carry the security headers', async ({ page, request }) => {
  const response = await page.goto('/');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['strict-transport-security']).toContain('max-age=');
  await expect(page.locator('meta[http-equiv="content-security-policy"]')).toHaveAttribute(
    'content',
    /script-src 'self' 'sha256-/,
  );
  // A public read the CDN keeps (decision 0020): the browser always asks again.
  const api = await request.get('/api/global/settings');
  expect(api.headers()['x-content-type-options']).toBe('nosniff');
  expect(api.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(api.headers()['netlify-cache-tag']).toBe('settings');
  const session = await request.get('/api/auth/me');
  expect(session.headers()['x-content-type-options']).toBe('nosniff');
  expect(session.headers()['cache-control']).toBe('no-store');
});

test('a name with markup is refused like any other form’s, and a name is shown as the text it is', async ({
  page,
  request,
}) => {
  // One name rule for every form (issue 23, minor 5): markup never gets in.
  const refused = await request.post('/api/estimates', {
    data: { agent_slug: 'alexmorgan', sale_price: 500000, recipient_name: '<img src=x onerror=alert(1)>Pat' },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({
    fields: { recipient_name: 'Name can only contain letters, spaces, apostrophes, hyphens and periods' },
  });
  const created = await request.post('/api/estimates', {
    data: { agent_slug: 'alexmorgan', sale_price: 500000, recipient_name: "D'Arcy O’Neil-Smith Jr." },
  });
  expect(created.status()).toBe(201);
  const body: unknown = await created.json();
  const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(body).estimate.uuid;
  await page.goto(`/estimate/${uuid}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("Net Sheet for D'Arcy O’Neil-Smith Jr.");
});

test.describe('sending a shared estimate by e-mail', () => {
  test('checks the form, then sends it and says only that it was sent', async ({ page, request }) => {
    const created = await request.post('/api/estimates', {
      data: { agent_slug: 'alexmorgan', sale_price: 780200, mortgage_payoff: 450000 },
    });
    const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate.uuid;
    const leads = recordApiCalls(page, '/api/leads');
    await page.goto(`/estimate/${uuid}`);
    await page.getByRole('button', { name: 'Send this to my email' }).click();
    const modal = page.getByRole('dialog', { name: 'Send this to my email' });
    await modal.getByRole('button', { name: 'Send My Estimate' }).click();
    await expect(modal.getByText('Full name is required')).toBeVisible();
    await expect(modal.getByText('Email is required')).toBeVisible();
    await expect(modal.getByText('Please agree to be contacted about your home sale')).toBeVisible();
    expect(leads).toEqual([]);

    await modal.getByLabel('Full name').fill('Casey Morgan-Lee');
    await modal.getByRole('textbox', { name: 'Email', exact: true }).fill('casey@example.com');
    await modal.getByRole('checkbox', { name: /^I agree/ }).check();
    await expect(modal.getByRole('checkbox', { name: /^I agree/ })).toHaveAccessibleName(
      'I agree that Alex Morgan may contact me by phone, text or e-mail about selling my home.',
    );
    await modal.getByRole('button', { name: 'Send My Estimate' }).click();
    await expect(modal).toBeHidden();
    const sentNotice = page.getByRole('status').filter({ hasText: 'Your estimate has been sent to your email!' });
    await expect(sentNotice.getByRole('paragraph')).toHaveText('Your estimate has been sent to your email!');
    await expect(sentNotice).toBeInViewport();
    await expect(page.getByText(/CRM/)).toHaveCount(0);
    expect(leads[0]?.body).toMatchObject({
      agent_id: 1,
      name: 'Casey Morgan-Lee',
      estimate_uuid: uuid,
      page: `/estimate/${uuid}`,
      company_site: '',
    });
    const [sent] = await emailsTo('casey@example.com');
    expect(sent?.text).toContain('$279,341.00');
  });

  test.describe('when sending fails', () => {
    test.use({ consoleErrorsAllowed: [/status of 500/] });
    test('says so and keeps the form', async ({ page, request }) => {
      const created = await request.post('/api/estimates', { data: { agent_slug: 'alexmorgan', sale_price: 500000 } });
      const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate.uuid;
      await page.route('**/api/email/send-estimate', (route) =>
        route.fulfill({ status: 500, json: { success: false, error: 'Something went wrong', fields: {} } }),
      );
      await page.goto(`/estimate/${uuid}`);
      await page.getByRole('button', { name: 'Send this to my email' }).click();
      const modal = page.getByRole('dialog', { name: 'Send this to my email' });
      await modal.getByLabel('Full name').fill('Casey Lee');
      await modal.getByRole('textbox', { name: 'Email', exact: true }).fill('casey.fail@example.com');
      await modal.getByRole('checkbox', { name: /^I agree/ }).check();
      await modal.getByRole('button', { name: 'Send My Estimate' }).click();
      await expect(
        modal.getByRole('alert').filter({ hasText: 'There was an error sending your estimate. Please try again.' }),
      ).toBeVisible();
      await expect(modal.getByLabel('Full name')).toHaveValue('Casey Lee');
    });
  });
});
