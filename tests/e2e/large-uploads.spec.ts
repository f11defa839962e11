/**
 * Decision 0027 in a real browser: a camera's 9 MB photo and a 9 MB transparent logo, which the
 * profile screen says it takes ("at most 10MB"), are scaled in the page before they are sent, so
 * every request body stays under Netlify's 4.5 MB; both are saved and shown. A logo nothing can
 * compress is still sent within one request. (The admin's website logo and a showcase photo:
 * admin-logos.spec.ts and admin-showcase.spec.ts.)
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import * as z from 'zod';
import { UPLOAD_IMAGE_BYTES } from '../../src/ui/uploads.ts';
import { expect, signInAsNewAgent, test, waitForIslands } from './fixtures.ts';
import { heavyLogo, largePhoto, NETLIFY_BODY_LIMIT, noiseLogo, recordRequestBodies, TEN_MB } from './large-images.ts';

/** The profile at both widths, into the test's output folder (test-results/): looked at, not compared. */
async function shootProfile(page: Page): Promise<void> {
  if (test.info().project.name !== 'desktop') return;
  const size = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('heading', { name: 'Profile photo' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`profile-large-upload-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

test('a 9 MB photo and a 9 MB logo are scaled in the page, each request under 4.5 MB, and are shown', async ({
  page,
}) => {
  // Two large images made, decoded and scaled: more than the default 30 s on a slow machine.
  test.setTimeout(180_000);
  const [photo, logo] = await Promise.all([largePhoto(), heavyLogo()]);
  for (const picked of [photo, logo]) {
    // What the spec's "at most 10MB" lets an agent pick, and far over what one request may carry.
    expect(picked.bytes).toBeGreaterThan(8 * 1000 * 1000);
    expect(picked.bytes).toBeLessThan(TEN_MB);
  }

  await signInAsNewAgent(page);
  const sent = recordRequestBodies(page);
  await page.goto('/dashboard/profile');
  await waitForIslands(page);
  await expect(page.getByText('JPG, PNG or WebP, at most 10MB.')).toBeVisible();

  await page.getByLabel('Choose a photo').setInputFiles(photo.path);
  await expect(page.locator('.ReactCrop__crop-selection')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Save photo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile photo updated successfully!' })).toBeVisible({
    timeout: 60_000,
  });
  const shown = page.getByRole('img', { name: 'Your profile photo' });
  await expect(shown).toHaveAttribute('src', /^\/api\/images\/[0-9a-f]{64}\.jpg$/);
  await expect(shown).toHaveJSProperty('complete', true);
  // The square is 90 % of the photo's height (2700 px): sent, and kept, at the server's 800.
  expect(await shown.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight])).toEqual([
    800, 800,
  ]);

  await page.getByLabel('Upload a logo').setInputFiles(logo.path);
  await expect(page.getByRole('status').filter({ hasText: 'Business logo uploaded successfully!' })).toBeVisible({
    timeout: 60_000,
  });
  const logoShown = page.getByRole('img', { name: 'Your business logo' });
  await expect(logoShown).toHaveAttribute('src', /^\/api\/images\/[0-9a-f]{64}\.png$/);
  await expect(logoShown).toHaveJSProperty('complete', true);
  // Kept at the server's 1200 px, its transparency with it.
  const stored = await page.request.get((await logoShown.getAttribute('src')) ?? '');
  const { width, height, hasAlpha } = await sharp(await stored.body()).metadata();
  expect([width, height, hasAlpha]).toEqual([1200, 1200, true]);

  // Each upload was sent, as one request each, and every body the page sent stayed under the limit.
  await expect
    .poll(() => sent.map(({ path }) => path).sort())
    .toEqual(expect.arrayContaining(['/api/upload/logo', '/api/upload/profile-photo']));
  for (const body of sent) {
    expect(body.bytes, `${body.method} ${body.path}`).toBeLessThan(NETLIFY_BODY_LIMIT);
  }
  // The photo went as an image, not as a few bytes of nothing.
  const photoBody = sent.find(({ path }) => path === '/api/upload/profile-photo');
  expect(photoBody?.bytes).toBeGreaterThan(50 * 1000);
  await shootProfile(page);
});

test.describe('a logo nothing can compress', () => {
  // The test holds the upload back with a 413 of its own (it is about what the page sends).
  test.use({ consoleErrorsAllowed: [/status of 413/] });

  test('is still sent within one request: as WebP or smaller, its transparency kept', async ({ page }) => {
    test.skip(test.info().project.name !== 'desktop', 'what the page encodes does not depend on the screen');
    test.setTimeout(120_000);
    // 9 MB of noise: even at the 1200 px the server keeps, about 5.5 MB as a PNG.
    const logo = await noiseLogo();
    expect(logo.bytes).toBeLessThan(TEN_MB);
    await signInAsNewAgent(page);
    await page.goto('/dashboard/profile');
    await waitForIslands(page);
    // Not stored: a 5 MB PNG of noise would only slow the other tests' server down.
    const bodies: Buffer[] = [];
    await page.route('/api/upload/logo', async (route) => {
      bodies.push(route.request().postDataBuffer() ?? Buffer.alloc(0));
      await route.fulfill({ status: 413, json: { success: false, error: 'Held back by the test', fields: {} } });
    });
    await page.getByLabel('Upload a logo').setInputFiles(logo.path);
    await expect(page.getByRole('alert').filter({ hasText: 'Held back by the test' })).toBeVisible({ timeout: 60_000 });

    expect(bodies).toHaveLength(1);
    const [body = Buffer.alloc(0)] = bodies;
    expect(body.length).toBeLessThan(NETLIFY_BODY_LIMIT);
    const { imageData } = z.object({ imageData: z.string() }).parse(JSON.parse(body.toString('utf8')));
    const [, type = '', base64 = ''] = /^data:(image\/[a-z]+);base64,(.*)$/.exec(imageData) ?? [];
    const image = Buffer.from(base64, 'base64');
    expect(image.length).toBeLessThanOrEqual(UPLOAD_IMAGE_BYTES);
    // A format the server reads for a logo, with its alpha channel, no larger than what it keeps.
    expect(['image/png', 'image/webp']).toContain(type);
    const { width = 0, height = 0, hasAlpha } = await sharp(image).metadata();
    expect(hasAlpha).toBe(true);
    expect(Math.max(width, height)).toBeLessThanOrEqual(1200);
    expect(width / height).toBeCloseTo(1600 / 1500, 1);
  });
});
