import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, signInAsAdmin, test, waitForIslands } from './fixtures.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The demo admin (seeded for the e2e run), signed in, on /admin/content through the nav. */
async function openContent(page: Page) {
  await signInAsAdmin(page);
  await page.goto('/admin');
  await waitForIslands(page);
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Site Content', exact: true })
    .click();
  await expect(page).toHaveURL('/admin/content');
  await expect(page.getByRole('heading', { name: 'Site Content', level: 1 })).toBeVisible();
}

/** The saves of the content the page sends from now on (a refused or asked-about save sends none). */
function savesOf(page: Page): string[] {
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith('/api/admin/site-content')) saves.push(request.url());
  });
  return saves;
}

const claims = (page: Page) => page.getByRole('region', { name: 'Marketing claims' });
const claim = (page: Page, number: number) => claims(page).getByRole('group', { name: `Claim ${number}` });

// One admin and one site_content row: these tests take turns.
test.describe.configure({ mode: 'serial' });

test('the admin edits a claim and its source line, saves, and a reload shows them', async ({ page }) => {
  await openContent(page);
  // The seeded claims (the other project may have saved this test's values already).
  await expect(claim(page, 4).getByLabel('Label')).toHaveValue('of listings');
  // Both projects save the same values, so neither depends on the other's save.
  await claim(page, 1).getByLabel('Figure').fill('~3%');
  await claim(page, 1).getByLabel('Source (optional)').fill('Source: MLS data, Apr 2025');
  await page.getByRole('button', { name: 'Save site content' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Site content saved. The public pages show it after the next rebuild.' }),
  ).toBeVisible();

  await page.reload();
  await waitForIslands(page);
  await expect(claim(page, 1).getByLabel('Figure')).toHaveValue('~3%');
  await expect(claim(page, 1).getByLabel('Source (optional)')).toHaveValue('Source: MLS data, Apr 2025');
  await expect(claim(page, 2).getByLabel('Figure')).toHaveValue('75%');
});

test('a cleared figure is refused on its field, and nothing is saved', async ({ page }) => {
  await openContent(page);
  const saves = savesOf(page);
  const figure = claim(page, 2).getByLabel('Figure');
  await figure.fill('');
  await page.getByRole('button', { name: 'Save site content' }).click();
  await expect(figure).toHaveAttribute('aria-invalid', 'true');
  await expect(figure).toHaveAccessibleDescription('Figure is required');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Some fields need a change: see the message under each.' }),
  ).toBeVisible();
  await expect(page.getByText('Failed to save site content')).toHaveCount(0);
  expect(saves).toEqual([]);
});

test('claims are added, moved and removed in the form, up to six', async ({ page }) => {
  await openContent(page);
  const region = claims(page);
  await expect(region.getByRole('group')).toHaveCount(4);
  await region.getByRole('button', { name: 'Add claim' }).click();
  await expect(region.getByRole('group')).toHaveCount(5);
  await claim(page, 5).getByLabel('Figure').fill('9 days');
  await region.getByRole('button', { name: 'Move up claim 5' }).click();
  await expect(claim(page, 4).getByLabel('Figure')).toHaveValue('9 days');
  await expect(claim(page, 5).getByLabel('Label')).toHaveValue('of listings');
  await region.getByRole('button', { name: 'Add claim' }).click();
  await expect(region.getByRole('button', { name: 'Add claim' })).toBeDisabled();
  await region.getByRole('button', { name: 'Remove claim 4' }).click();
  await expect(region.getByRole('group')).toHaveCount(5);
  await expect(claim(page, 4).getByLabel('Label')).toHaveValue('of listings');
  await expect(region.getByRole('button', { name: 'Move up claim 1' })).toBeDisabled();
});

test('the site content screen has no accessibility violations', async ({ page }) => {
  await openContent(page);
  await expect(page.getByRole('region', { name: 'Suffolk County figures' }).getByRole('group')).toHaveCount(4);
  await expectNoAxeViolations(page, WCAG);
});

test('a figure without a source is asked about before it is saved, naming the claim (minor 34)', async ({
  page,
}, testInfo) => {
  await openContent(page);
  const saves = savesOf(page);
  const source = claim(page, 2).getByLabel('Source (optional)');
  const before = await source.inputValue();
  await source.fill('');
  await page.getByRole('button', { name: 'Save site content' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish a figure without a source?' });
  await expect(dialog).toContainText('“75% more engagement” has no source.');
  await expectNoAxeViolations(page, WCAG);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`claims-unsourced-${width}.png`) });
  }
  await dialog.getByRole('button', { name: 'Add a source' }).click();
  await expect(dialog).toBeHidden();
  await expect(source).toBeVisible();
  expect(saves).toHaveLength(0);
  await source.fill(before);
});

test('the home page shows a source line under every claim (minor 34)', async ({ page }, testInfo) => {
  await page.goto('/');
  const section = page.getByRole('region', { name: 'Showcase listings sell for more' });
  const cards = section.getByRole('listitem');
  await expect(cards).toHaveCount(4);
  await expect(section.locator('.stat-source')).toHaveCount(4);
  await expect(section.locator('.stat-source').nth(1)).toHaveText(
    'Source: sample marketing data (April 2025) shipped with this site, not its own sales',
  );
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await section.screenshot({ path: testInfo.outputPath(`claims-home-${width}.png`) });
  }
});

test('a track record without a source is asked about too, and the home page shows its source line (minor 34)', async ({
  page,
}, testInfo) => {
  await openContent(page);
  const saves = savesOf(page);
  const source = page.getByRole('region', { name: 'Track record' }).getByLabel('Source of the track record (optional)');
  // The shipped track record's source line (migration 0029).
  await expect(source).toHaveValue('Source: sample figures shipped with this site, not its own sales');
  const before = await source.inputValue();
  await source.fill('');
  await page.getByRole('button', { name: 'Save site content' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish a figure without a source?' });
  await expect(dialog).toContainText(
    'The track record (“1,381+ homes sold”, “350 sold in the last 12 months”, “$80K–$4.7M price range”, “5.0 rating from 47 reviews”) has no source.',
  );
  await expectNoAxeViolations(page, WCAG);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: testInfo.outputPath(`track-record-unsourced-${testInfo.project.name}-${width}.png`),
    });
  }
  await dialog.getByRole('button', { name: 'Add a source' }).click();
  await expect(dialog).toBeHidden();
  expect(saves).toHaveLength(0);
  await source.fill(before);
  await page.setViewportSize({ width: 1280, height: 900 });
  await source.scrollIntoViewIfNeeded();
  await page
    .getByRole('region', { name: 'Track record' })
    .screenshot({ path: testInfo.outputPath(`track-record-field-${testInfo.project.name}.png`) });

  await page.goto('/');
  const section = page.getByRole('region', { name: /track record$/ });
  await expect(section.getByRole('listitem')).toHaveCount(4);
  await expect(section.locator('.stat-source')).toHaveText(
    'Source: sample figures shipped with this site, not its own sales',
  );
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await section.screenshot({ path: testInfo.outputPath(`track-record-home-${testInfo.project.name}-${width}.png`) });
  }
});
