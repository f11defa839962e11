/**
 * The admin's site-wide image uploads, over HTTP on both backends: the OG image, the website logo
 * and the town-page logo (POST and DELETE, the town logo also at the old product's
 * /town-logo-api.php with the same answers), each stored re-encoded and served, and where each is
 * read (GET /api/seo/settings, GET /api/global/settings).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_MESSAGES } from '../../src/features/images/public/images.server.ts';
import { ogImageAnswerSchema } from '../../src/features/seo/seo-settings.ts';
import { siteLogosAnswerSchema } from '../../src/features/site-images/public/site-images.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { dataUrl, png } from '../support/images.ts';
import {
  deleted,
  LEGACY_TOWN_LOGO,
  OG,
  TOWN_LOGO,
  uploaded,
  UPLOADS,
  useSiteImagesSuite,
  WEBSITE_LOGO,
} from '../support/site-images-suite.ts';

describe.each(BACKENDS)('site-wide images on %s', (backend) => {
  const { suite, adminClient, expectRefused } = useSiteImagesSuite(backend);
  describe('uploads', () => {
    it.each(UPLOADS)('$path stores the image re-encoded and answers where it is served', async ({ path, type }) => {
      const admin = await adminClient();
      const answer = await expectJson(
        await admin.send('POST', path, { image: dataUrl(await png(640, 480)), filename: 'brand.png' }),
        200,
        uploaded,
      );
      expect(answer.mime_type).toBe(type);
      expect(answer.image_data).toMatch(/^\/api\/images\/[0-9a-f]{64}\.(jpg|png)$/);
      const served = await suite.client().get(answer.image_data);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
    });

    it('takes bare base64 as well as a data URL', async () => {
      const admin = await adminClient();
      const bytes = await png(120, 40);
      const bare = await expectJson(
        await admin.send('POST', WEBSITE_LOGO, { image: bytes.toString('base64') }),
        200,
        uploaded,
      );
      const url = await expectJson(await admin.send('POST', WEBSITE_LOGO, { image: dataUrl(bytes) }), 200, uploaded);
      expect(bare.image_data).toBe(url.image_data);
    });

    it('the OG image is kept by seo_settings and answered by GET /api/seo/settings; DELETE clears it', async () => {
      const admin = await adminClient();
      const { image_data } = await expectJson(
        await admin.send('POST', OG, { image: dataUrl(await png(1000, 570)) }),
        200,
        uploaded,
      );
      expect(await expectJson(await admin.get('/api/seo/settings'), 200, ogImageAnswerSchema)).toMatchObject({
        og_image: image_data,
      });
      // Link previews use at most 1200 px; this one stays as it came.
      const served = Buffer.from(await (await suite.client().get(image_data)).arrayBuffer());
      expect(await sharp(served).metadata()).toMatchObject({ format: 'jpeg', width: 1000, height: 570 });
      expect(await expectJson(await admin.send('DELETE', OG), 200, deleted)).toEqual({
        success: true,
        message: 'OG image deleted successfully!',
      });
      const [row] = await suite.db.query('SELECT og_image_data, og_image_type FROM seo_settings');
      expect(row).toEqual({ og_image_data: null, og_image_type: null });
    });

    it('the website logo is what GET /api/global/settings answers (the public header), and DELETE removes it', async () => {
      const admin = await adminClient();
      const { image_data } = await expectJson(
        await admin.send('POST', WEBSITE_LOGO, { image: dataUrl(await png(300, 90)) }),
        200,
        uploaded,
      );
      const global = await expectJson(await suite.client().get('/api/global/settings'), 200, siteLogosAnswerSchema);
      expect(global.settings).toMatchObject({
        website_logo: image_data,
        website_logo_type: 'png',
        website_logo_scale: 1,
      });
      await expectJson(await admin.send('DELETE', WEBSITE_LOGO), 200, deleted);
      const after = await expectJson(await suite.client().get('/api/global/settings'), 200, siteLogosAnswerSchema);
      expect(after.settings.website_logo).toBeNull();
    });

    it('the town logo is scaled down to fit 300 x 100, keeping its aspect ratio, and never enlarged', async () => {
      const admin = await adminClient();
      for (const [width, height, expected] of [
        [1200, 200, { width: 300, height: 50 }],
        [400, 800, { width: 50, height: 100 }],
        [900, 300, { width: 300, height: 100 }],
        [120, 40, { width: 120, height: 40 }],
      ] as const) {
        const { image_data } = await expectJson(
          await admin.send('POST', TOWN_LOGO, { image: dataUrl(await png(width, height)) }),
          200,
          uploaded,
        );
        const served = Buffer.from(await (await suite.client().get(image_data)).arrayBuffer());
        expect(await sharp(served).metadata()).toMatchObject({ format: 'png', ...expected });
      }
    });

    it('an SVG logo is stored as a PNG with no markup left; one with scripts is refused (finding 3)', async () => {
      const admin = await adminClient();
      const svg = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" onload="alert(1)">
           <title>alert</title><rect width="200" height="60" fill="#0a58ca"/></svg>`,
      );
      const { image_data, mime_type } = await expectJson(
        await admin.send('POST', WEBSITE_LOGO, { image: dataUrl(svg, 'image/svg+xml') }),
        200,
        uploaded,
      );
      expect(mime_type).toBe('image/png');
      const bytes = Buffer.from(await (await suite.client().get(image_data)).arrayBuffer());
      for (const payload of ['<svg', 'onload', 'alert']) expect(bytes.includes(payload)).toBe(false);
      const withScript = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60">
           <script>alert('svg-script')</script><rect width="200" height="60" fill="#0a58ca"/></svg>`,
      );
      await expectRefused(
        () => admin.send('POST', WEBSITE_LOGO, { image: dataUrl(withScript, 'image/svg+xml') }),
        400,
        IMAGE_MESSAGES.svgFeatures,
      );
    });

    it('/town-logo-api.php and /api/upload/town-logo give the same answers, from one handler', async () => {
      const admin = await adminClient();
      const image = dataUrl(await png(500, 100));
      const twin = await expectJson(await admin.send('POST', TOWN_LOGO, { image }), 200, uploaded);
      const legacy = await expectJson(await admin.send('POST', LEGACY_TOWN_LOGO, { image }), 200, uploaded);
      expect(legacy).toEqual(twin);
      for (const path of [TOWN_LOGO, LEGACY_TOWN_LOGO]) {
        const refused = await expectError(await admin.send('POST', path, { image: 'bm90IGFuIGltYWdl' }), 400);
        expect(refused).toEqual({ success: false, error: 'Please select an image file', fields: {} });
        const wrongMethod = await admin.send('PUT', path, { image });
        await expectError(wrongMethod, 405, 'PUT is not allowed here; use POST or DELETE');
      }
      expect(await expectJson(await admin.send('DELETE', LEGACY_TOWN_LOGO), 200, deleted)).toEqual(
        await expectJson(await admin.send('DELETE', TOWN_LOGO), 200, deleted),
      );
    });
  });
});
