import { describe, expect, it } from 'vitest';
import { LOGO_SIZE, PHOTO_SIZE } from '../agents/profile.ts';
import { SITE_IMAGE_SIZES } from '../site-images/public/site-images.ts';
import { fittedSize, MAX_UPLOAD_BODY_BYTES, UPLOAD_IMAGE_BYTES } from '../../ui/uploads.ts';

describe('the one upload limit (decision 0027)', () => {
  it('is under Netlify\u2019s 4.5 MB for a binary body, read as decimal or binary megabytes', () => {
    expect(MAX_UPLOAD_BODY_BYTES).toBeLessThan(4.5 * 1000 * 1000);
    expect(MAX_UPLOAD_BODY_BYTES).toBeLessThan(4.5 * 1024 * 1024);
  });

  it('an image of UPLOAD_IMAGE_BYTES, as a data URL in the largest JSON body the screens send, fits', () => {
    const imageData = `data:image/webp;base64,${Buffer.alloc(UPLOAD_IMAGE_BYTES, 0xff).toString('base64')}`;
    const body = JSON.stringify({ imageData, showProfilePhoto: false, filename: 'x'.repeat(255) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_UPLOAD_BODY_BYTES);
    // Nearly all of the limit is left for the image.
    expect(UPLOAD_IMAGE_BYTES).toBeGreaterThan(0.74 * MAX_UPLOAD_BODY_BYTES);
  });
});

describe('fittedSize: what the browser scales a picked image to', () => {
  it('scales a large photo down to what the server keeps, keeping its proportions', () => {
    expect(fittedSize(6000, 4000, PHOTO_SIZE)).toEqual({ width: 800, height: 533 });
    expect(fittedSize(3000, 4000, LOGO_SIZE)).toEqual({ width: 900, height: 1200 });
  });

  it('never enlarges', () => {
    expect(fittedSize(240, 80, LOGO_SIZE)).toEqual({ width: 240, height: 80 });
  });

  it('fits the town-page logo inside 300 x 100', () => {
    expect(fittedSize(1200, 200, SITE_IMAGE_SIZES.townLogo)).toEqual({ width: 300, height: 50 });
    expect(fittedSize(400, 400, SITE_IMAGE_SIZES.townLogo)).toEqual({ width: 100, height: 100 });
  });

  it('keeps at least one pixel a side', () => {
    expect(fittedSize(100_000, 10, PHOTO_SIZE)).toEqual({ width: 800, height: 1 });
  });
});
