/**
 * /admin/data against the running site (desktop): a ZHVI CSV and a RESO file uploaded while the
 * site runs and the town page changed after Rebuild now; a moderate ZHVI file sent in chunks under
 * Netlify's body limit with its progress shown; a file of the wrong kind refused with the server's
 * message.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import * as z from 'zod';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { generateClosedSales } from '../fakes/reso.ts';
import { fakeSeries, zhviCsv } from '../fakes/zillow.ts';
import { buildCard, runsTable, WCAG } from './admin-data-screen.ts';
import { expect, expectNoAxeViolations, signInAsAdmin, test, waitForIslands } from './fixtures.ts';

/** A town no other test looks at: its page changes here. */
const TOWN = allTowns().find((town) => town.slug === 'lynbrook');
/** Another one, for the moderate file. */
const MODERATE_TOWN = allTowns().find((town) => town.slug === 'seaford');
/** Netlify: 6 MB per request body, 4.5 MB once a binary body is base64-encoded. */
const NETLIFY_BINARY_BODY_LIMIT = 4_718_592;

/**
 * A ZHVI City file of about 10 MB whose New York rows (900 Westchester places and Seaford) come to
 * more than one chunk: written line by line.
 */
async function writeModerateZhvi(path: string, town: { name: string; county: string }): Promise<void> {
  const places = [
    ...Array.from({ length: 900 }, (_, index) => ({ name: `Upstate Place ${index}`, county: 'Westchester County' })),
    town,
  ];
  const out = createWriteStream(path);
  for (const line of zhviCsv({ towns: places, extraRows: 1000, months: 300 })) {
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
}

/** A Zillow ZHVI City file with one row, Lynbrook's, ending at `latest`. */
function zhviFile(latest: number): string {
  const months = Array.from({ length: 13 }, (_, index) => {
    const end = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 12 + index, 0));
    return end.toISOString().slice(0, 10);
  });
  const values = months.map((_, index) => latest - (12 - index) * 1000);
  return [
    `RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName,${months.join(',')}`,
    `912345,2000,Lynbrook,city,NY,NY,Lynbrook,"New York-Newark-Jersey City, NY-NJ-PA",Nassau County,${values.join(',')}`,
    '',
  ].join('\n');
}

test.describe('/admin/data', () => {
  test('uploads a ZHVI CSV and a RESO file while the site runs; the town page changes after Rebuild now', async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'desktop', 'builds take time: the desktop project only');
    test.setTimeout(240_000);
    if (!TOWN) throw new Error('no Lynbrook in the towns');
    const zhvi = testInfo.outputPath('zhvi-lynbrook.csv');
    await writeFile(zhvi, zhviFile(876_543));
    const sold = testInfo.outputPath('sold-lynbrook.json');
    // Modified now: the server already holds the e2e feed's sales, so the import is incremental
    // (only records modified since the newest it stored are read), as `npm run data:refresh` is.
    const modified = new Date().toISOString();
    const sales = generateClosedSales({ towns: [TOWN], now: new Date(), perTown: 3, monthsBack: 2, keyPrefix: 'E2E' });
    for (const sale of sales) sale.ModificationTimestamp = modified;
    await writeFile(sold, JSON.stringify({ value: sales }));

    const town = await page.request.get(`/long-island-real-estate/${TOWN.slug}`);
    expect(await town.text()).not.toContain('$876,543');

    await signInAsAdmin(page);
    await page.goto('/admin/data');
    await waitForIslands(page);
    await expect(page.getByRole('heading', { name: 'Market Data', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Market Data' })).toHaveAttribute('aria-current', 'page');

    await page.getByLabel('Zillow ZHVI CSV').setInputFiles(zhvi);
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The import of zhvi-lynbrook.csv succeeded: 1 town updated.' }),
    ).toBeVisible();
    const zhviRun = runsTable(page).getByRole('row').filter({ hasText: 'Upload: zhvi-lynbrook.csv' });
    await expect(zhviRun).toContainText('Succeeded');
    await expect(zhviRun.getByRole('cell').nth(5)).toHaveText('Updated 1 town: Lynbrook');

    await page.getByLabel('RESO JSON file').setInputFiles(sold);
    await page.getByRole('button', { name: 'Upload JSON' }).click();
    const soldRun = runsTable(page).getByRole('row').filter({ hasText: 'Upload: sold-lynbrook.json' });
    await expect(soldRun).toContainText('Succeeded');
    await expect(soldRun.getByRole('cell').nth(4)).toHaveText('3');

    // The pages are built ahead of time: the change waits for a rebuild.
    await expect(buildCard(page)).toContainText('Changes waiting since');
    await page.screenshot({ path: testInfo.outputPath('data-after-upload-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'Rebuild now' }).click();
    await expect(buildCard(page)).toContainText('Building since');
    await page.screenshot({ path: testInfo.outputPath('data-building-1280.png'), fullPage: true });
    // The site keeps serving while it builds.
    expect((await page.request.get(`/long-island-real-estate/${TOWN.slug}`)).status()).toBe(200);
    // Another test's save may start one more build after this one: wait for the page, not the card.
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`/long-island-real-estate/${TOWN.slug}`)).text()).includes('$876,543'),
        {
          timeout: 180_000,
        },
      )
      .toBe(true);
    await expect(buildCard(page)).not.toContainText('Building since', { timeout: 60_000 });
    await expect(buildCard(page)).toContainText('The pages visitors see were built');

    await page.goto(`/long-island-real-estate/${TOWN.slug}`);
    await expect(page.getByText('$876,543').first()).toBeVisible();
    for (const sale of sales)
      await expect(page.getByText(z.string().parse(sale.UnparsedAddress)).first()).toBeVisible();
  });

  test('uploads a moderate ZHVI file in chunks under 4.5 MB, showing its progress, then the import’s result', async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'desktop', 'a 10 MB file: the desktop project only');
    if (!MODERATE_TOWN) throw new Error('no Seaford in the towns');
    const file = testInfo.outputPath('moderate-zhvi.csv');
    await writeModerateZhvi(file, { name: MODERATE_TOWN.name, county: MODERATE_TOWN.county });
    expect((await stat(file)).size).toBeGreaterThan(8 * 1024 * 1024);

    await signInAsAdmin(page);
    await page.goto('/admin/data');
    await waitForIslands(page);
    // Every request the page sends for the upload, with the size of its body.
    const bodies: { url: string; bytes: number }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/data/uploads/')) {
        bodies.push({ url: request.url(), bytes: request.postDataBuffer()?.byteLength ?? 0 });
      }
    });
    // The second chunk waits until the page has shown how far the first one got.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/data/uploads/*/chunks/1?*', async (route) => {
      await held;
      await route.continue();
    });

    await page.getByLabel('Zillow ZHVI CSV').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const progress = page.getByRole('progressbar', { name: 'Uploading moderate-zhvi.csv' });
    await expect(progress).toBeVisible();
    await expect(page.getByText(/^\d+% sent$/)).not.toHaveText('0% sent');
    await page.screenshot({ path: testInfo.outputPath('data-uploading-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: testInfo.outputPath('data-uploading-390.png'), fullPage: true });
    release();

    await expect(
      page.getByRole('status').filter({ hasText: 'The import of moderate-zhvi.csv succeeded: 1 town updated.' }),
    ).toBeVisible();
    await expect(progress).toHaveCount(0);
    const run = runsTable(page).getByRole('row').filter({ hasText: 'Upload: moderate-zhvi.csv' });
    await expect(run).toContainText('Succeeded');
    await page.screenshot({ path: testInfo.outputPath('data-imported-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: testInfo.outputPath('data-imported-1280.png'), fullPage: true });

    const chunks = bodies.filter((body) => body.url.includes('/chunks/'));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(bodies.filter((body) => body.url.includes('/complete'))).toHaveLength(1);
    for (const body of bodies) expect(body.bytes, body.url).toBeLessThan(NETLIFY_BINARY_BODY_LIMIT);
    // The API answers the new figure at once; the town page shows it after the next rebuild.
    const market = await page.request.get(`/api/zillow/market?town=${MODERATE_TOWN.slug}`);
    expect(
      z.object({ data: z.object({ typical_home_value: z.number() }) }).parse(await market.json()).data
        .typical_home_value,
    ).toBe(Math.round((fakeSeries(MODERATE_TOWN.name, 300).at(-1) ?? 0) * 100) / 100);
  });

  test.describe('a refused file', () => {
    test.use({ consoleErrorsAllowed: [/status of 400 \(Bad Request\)/] });
    test('refuses a file of the wrong kind with the server’s message, and passes axe', async ({ page }, testInfo) => {
      const wrong = testInfo.outputPath('not-zillow.csv');
      await writeFile(wrong, 'name,price\nx,1\n');
      await signInAsAdmin(page);
      await page.goto('/admin/data');
      await waitForIslands(page);
      await page.getByLabel('Zillow ZHVI CSV').setInputFiles(wrong);
      await page.getByRole('button', { name: 'Upload CSV' }).click();
      await expect(page.getByRole('alert')).toContainText('not a Zillow City file: column 1 is "name"');
      await expect(runsTable(page).or(page.getByText('No market data has been imported yet.')).first()).toBeVisible();
      await expect(runsTable(page).getByText('not-zillow.csv')).toHaveCount(0);
      await expectNoAxeViolations(page, WCAG);
    });
  });
});
