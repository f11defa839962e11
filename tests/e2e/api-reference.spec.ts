import { apiOperations } from '../../src/app/api-groups.server.ts';
import { operationKey } from '../../src/app/openapi.server.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/features/webhooks/public/webhooks.ts';
import { expect, test } from './fixtures.ts';

test.describe('the API reference for developers', () => {
  test('lists every operation of the API with who may call it, and is linked from the footer', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'API for Developers' }).click();
    await expect(page).toHaveURL(/\/developers\/api$/);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();

    const listed = await page
      .locator('[data-operation]')
      .evaluateAll((sections) => sections.map((section) => section.getAttribute('data-operation') ?? ''));
    const documented = (await apiOperations()).map((operation) =>
      operationKey({ method: operation.method, path: operation.path.replace(/:(\w+)/g, '{$1}') }),
    );
    expect(listed.sort()).toEqual(documented.sort());

    // One operation as an integrator reads it: who may call it, a body field with its limits, the answers.
    const estimates = page.locator('[data-operation="POST /api/estimates"]');
    await expect(estimates).toContainText('Who may call it: Anyone');
    await expect(estimates.getByRole('row', { name: /agent_slug/ })).toContainText('at most 64 characters');
    await expect(estimates.getByRole('row', { name: /agent_slug/ })).toContainText('required');
    await expect(estimates.getByRole('row', { name: /^details\.liens array/ })).toContainText('at most 4 items');
    await expect(estimates).toContainText('201 The stored estimate');
    await expect(estimates).toContainText('400 The request is not valid');
    await expect(page.locator('[data-operation="GET /api/admin/leads"]')).toContainText(
      'Who may call it: A signed-in admin',
    );
  });

  test('documents every webhook event with its headers, its fields and a verification example', async ({ page }) => {
    await page.goto('/developers/api');
    const webhooks = page.getByRole('region', { name: 'Webhook events' });
    for (const type of WEBHOOK_EVENT_TYPES) {
      await expect(webhooks.getByRole('heading', { level: 3, name: `POST ${type}` })).toBeVisible();
    }
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      await expect(webhooks.getByRole('row', { name: new RegExp(`^${header}`) })).toBeVisible();
    }
    await expect(
      webhooks.locator('#webhook-lead-created').getByRole('row', { name: /^data\.lead\.email/ }),
    ).toBeVisible();
    await expect(webhooks.locator('pre')).toContainText('new Webhook(process.env.NETSHEET_WEBHOOK_SECRET)');
    await expect(webhooks.locator('pre')).toContainText('webhook.verify(');
    await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'lead.created' }).click();
    await expect(page).toHaveURL(/#webhook-lead-created$/);
  });

  for (const width of [390, 1280]) {
    test(`reads at ${width} px without sideways scrolling`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/developers/api#post-api-estimates');
      let overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.goto('/developers/api#webhooks-verify');
      await page.screenshot({ path: testInfo.outputPath(`api-reference-webhooks-${width}.png`) });
      overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`api-reference-${width}.png`) });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: testInfo.outputPath(`api-reference-top-${width}.png`) });
    });
  }
});
