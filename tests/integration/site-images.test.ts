/**
 * The admin's site-wide images over HTTP, on both backends: the OG image, the website logo and the
 * town-page logo (POST and DELETE, the town logo also at the old product's /town-logo-api.php with
 * the same answers), the logo scale and the town-logo toggle (PATCH /api/agents/me/settings shapes 2
 * and 3), who may call them, bad input refused with nothing written, and what the pages read
 * (GET /api/global/settings at run time, loadSiteChrome at build time).
 */
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { IMAGE_MESSAGES } from '../../src/features/images/images.server.ts';
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_TOO_LARGE } from '../../src/ui/uploads.ts';
import { ogImageAnswerSchema } from '../../src/features/seo/seo-settings.ts';
import {
  siteImageAnswerSchema,
  siteImageDeletedSchema,
  siteLogosAnswerSchema,
  siteLogosSavedSchema,
} from '../../src/features/site-images/site-images.ts';
import { readSiteChrome } from '../../src/app/build-data.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, IP_HEADER, SESSION_COOKIE, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { rawRequest } from '../support/http.ts';
import { dataUrl, imageCount, png } from '../support/images.ts';

const OG = '/api/upload/og-image';
const WEBSITE_LOGO = '/api/upload/website-logo';
const TOWN_LOGO = '/api/upload/town-logo';
const LEGACY_TOWN_LOGO = '/town-logo-api.php';
const SETTINGS = '/api/agents/me/settings';
/** Image bytes whose base64 alone passes the one upload limit (decision 0027). */
const OVER_LIMIT = Math.ceil((MAX_UPLOAD_BODY_BYTES * 3) / 4) + 1;

const uploaded = z.strictObject(siteImageAnswerSchema.shape);
const deleted = z.strictObject(siteImageDeletedSchema.shape);
const saved = z.strictObject(siteLogosSavedSchema.shape);

const UPLOADS = [
  { path: OG, type: 'image/jpeg' },
  { path: WEBSITE_LOGO, type: 'image/png' },
  { path: TOWN_LOGO, type: 'image/png' },
] as const;

/** Every route that takes a site-wide image, the old product's town-logo path too. */
const UPLOAD_PATHS = [...UPLOADS.map(({ path }) => ({ path })), { path: LEGACY_TOWN_LOGO }];

describe.each(BACKENDS)('site-wide images on %s', (backend) => {
  const suite = useAuthSuite(backend, 'siteimages');

  beforeEach(async () => {
    await suite.db.query(
      `UPDATE site_settings SET website_logo = NULL, website_logo_type = 'png', website_logo_scale = 1,
              town_page_logo = NULL, town_page_logo_type = NULL, show_town_page_logo = false`,
    );
    await suite.db.query('UPDATE seo_settings SET og_image_data = NULL, og_image_type = NULL');
  });

  async function adminClient(): Promise<Client> {
    const agent = await createAgent(suite.db, { is_admin: true });
    return clientAs(suite, agent.id);
  }
  const agentClient = async () => clientAs(suite, (await createAgent(suite.db)).id);

  /** What the settings rows hold: a refusal must leave them, and the images table, as they were. */
  async function snapshot() {
    const [site] = await suite.db.query('SELECT * FROM site_settings');
    const [seo] = await suite.db.query('SELECT * FROM seo_settings');
    return { site, seo, images: await imageCount(suite.db) };
  }

  async function expectRefused(request: () => Promise<Response>, status: number, message: string): Promise<void> {
    const before = await snapshot();
    await expectError(await request(), status, message);
    expect(await snapshot()).toEqual(before);
  }

  describe('who may call each route', () => {
    const calls = async (): Promise<[string, string, unknown][]> => {
      const image = dataUrl(await png());
      return [
        ...UPLOADS.flatMap(({ path }): [string, string, unknown][] => [
          ['POST', path, { image, filename: 'logo.png' }],
          ['DELETE', path, undefined],
        ]),
        ['POST', LEGACY_TOWN_LOGO, { image, filename: 'logo.png' }],
        ['DELETE', LEGACY_TOWN_LOGO, undefined],
        ['PATCH', SETTINGS, { website_logo_scale: 1.5 }],
        ['PATCH', SETTINGS, { show_town_page_logo: true }],
      ];
    };

    it('each answers 401 signed out and 403 to an agent, writing nothing; 200 to an admin', async () => {
      const agent = await agentClient();
      const admin = await adminClient();
      for (const [method, path, body] of await calls()) {
        await expectRefused(() => suite.client().send(method, path, body), 401, 'Please log in');
        await expectRefused(() => agent.send(method, path, body), 403, 'Only admins can change site-wide settings');
        const answer = await admin.send(method, path, body);
        expect(answer.status, `${method} ${path}: ${await answer.clone().text()}`).toBe(200);
      }
    });

    it('an agent is told 403 before anything about a bad or oversized body', async () => {
      const agent = await agentClient();
      for (const { path } of UPLOADS) {
        await expectRefused(
          () => agent.send('POST', path, '{"image":'),
          403,
          'Only admins can change site-wide settings',
        );
        await expectRefused(
          () => agent.send('POST', path, { image: 'not base64!' }),
          403,
          'Only admins can change site-wide settings',
        );
        await expectRefused(
          () => agent.send('POST', path, { image: Buffer.alloc(OVER_LIMIT, 0x41).toString('base64') }),
          403,
          'Only admins can change site-wide settings',
        );
      }
      await expectRefused(
        () => agent.send('PATCH', SETTINGS, { website_logo_scale: 9 }),
        403,
        'Only admins can change site-wide settings',
      );
    });
  });

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

  describe('bad uploads are refused with the reason, writing nothing', () => {
    it.each(UPLOADS)(
      '$path: malformed JSON, wrong types, missing image, not base64, not an image',
      async ({ path }) => {
        const admin = await adminClient();
        await expectRefused(
          () => admin.send('POST', path, '{"image": "data:image/png;base64,'),
          400,
          'The request body is not valid JSON',
        );
        await expectRefused(() => admin.send('POST', path, {}), 400, 'Please select an image file');
        await expectRefused(() => admin.send('POST', path, { image: 5 }), 400, 'Please select an image file');
        await expectRefused(() => admin.send('POST', path, { image: '' }), 400, 'Please select an image file');
        const image = dataUrl(await png());
        await expectRefused(() => admin.send('POST', path, { image, filename: 7 }), 400, 'filename must be text');
        await expectRefused(
          () => admin.send('POST', path, { image: 'this is not base64!' }),
          400,
          'Please select an image file',
        );
        await expectRefused(
          () => admin.send('POST', path, { image: dataUrl(Buffer.from('<html>hello</html>'), 'image/png') }),
          400,
          'Please select an image file',
        );
        await expectRefused(
          () => admin.send('POST', path, { image: dataUrl(Buffer.from('GIF89a'), 'text/html') }),
          400,
          'Please select an image file',
        );
        await expectRefused(
          () =>
            admin.request(path, {
              method: 'POST',
              headers: { 'content-type': 'text/plain', origin: suite.api.origin },
              body: JSON.stringify({ image }),
            }),
          415,
          'Send the request body as JSON (Content-Type: application/json)',
        );
      },
    );

    it('the OG image does not take an SVG (link previews need a picture)', async () => {
      const admin = await adminClient();
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><rect width="50" height="50"/></svg>',
      );
      await expectRefused(
        () => admin.send('POST', OG, { image: dataUrl(svg, 'image/svg+xml') }),
        400,
        'Please select an image file',
      );
    });

    it.each(UPLOAD_PATHS)(
      "$path: a body over the upload limit is 413, before decoding (a 4MB logo is under the spec's 10MB: the browser scales it)",
      async ({ path }) => {
        const admin = await adminClient();
        const over = Buffer.alloc(OVER_LIMIT, 0x41);
        await expectRefused(() => admin.send('POST', path, { image: dataUrl(over) }), 413, UPLOAD_TOO_LARGE);
        await expectRefused(() => admin.send('POST', path, { image: over.toString('base64') }), 413, UPLOAD_TOO_LARGE);
        // A body far past the limit is refused from its Content-Length, before it is read.
        await expectRefused(
          () => admin.send('POST', path, { image: Buffer.alloc(OVER_LIMIT * 2, 0x41).toString('base64') }),
          413,
          UPLOAD_TOO_LARGE,
        );
      },
    );

    it.each(UPLOAD_PATHS)(
      '$path: a body streamed without Content-Length stops at the limit (413)',
      async ({ path }) => {
        const admin = await adminClient();
        const before = await snapshot();
        // Just past the body limit: the server reads it and refuses it.
        const chunk = Buffer.alloc(256 * 1024, 0x41);
        const chunks = Math.ceil(MAX_UPLOAD_BODY_BYTES / chunk.length) + 1;
        const response = await rawRequest(suite.api.origin, path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            // Its own connection: one the server stopped reading is not reused for the next test.
            connection: 'close',
            origin: suite.api.origin,
            cookie: `${SESSION_COOKIE}=${admin.session ?? ''}`,
            [IP_HEADER]: admin.ip,
          },
          chunks: ['{"image":"', ...Array.from({ length: chunks }, () => chunk), '"}'],
        });
        expect(response.status).toBe(413);
        expect(JSON.parse(response.body)).toMatchObject({ success: false, error: UPLOAD_TOO_LARGE });
        expect(await snapshot()).toEqual(before);
      },
    );

    it('an OG image whose body is just within the upload limit is not refused for its size', async () => {
      const admin = await adminClient();
      const image = Buffer.alloc(Math.floor(((MAX_UPLOAD_BODY_BYTES - 100) * 3) / 4), 0x41);
      const answer = await admin.send('POST', OG, { image: dataUrl(image) });
      // Within the limit it is decoded, and these bytes are no image.
      await expectError(answer, 400, 'Please select an image file');
    });
  });

  describe('the logo scale and the town-logo toggle (PATCH /api/agents/me/settings)', () => {
    it('saves the scale and answers the logo settings; GET /api/global/settings then gives it', async () => {
      const admin = await adminClient();
      const answer = await expectJson(await admin.send('PATCH', SETTINGS, { website_logo_scale: 1.3 }), 200, saved);
      expect(answer.message).toBe('Website settings saved successfully!');
      expect(answer.settings).toMatchObject({ website_logo_scale: 1.3, show_town_page_logo: false });
      const global = await expectJson(await suite.client().get('/api/global/settings'), 200, siteLogosAnswerSchema);
      expect(global.settings.website_logo_scale).toBe(1.3);
      for (const scale of [0.5, 2]) {
        await expectJson(await admin.send('PATCH', SETTINGS, { website_logo_scale: scale }), 200, saved);
      }
    });

    it.each([
      [0.4, 'Logo scale must be between 0.5 and 2.0'],
      [2.1, 'Logo scale must be between 0.5 and 2.0'],
      [1.25, 'Logo scale goes in steps of 0.1'],
      ['1.5', 'Logo scale must be a number'],
      [null, 'Logo scale must be a number'],
    ])('refuses the scale %s with "%s", changing nothing', async (scale, message) => {
      const admin = await adminClient();
      const before = await snapshot();
      const refused = await expectError(
        await admin.send('PATCH', SETTINGS, { website_logo_scale: scale }),
        400,
        message,
      );
      expect(refused.fields).toEqual({ website_logo_scale: message });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a wrong toggle, the logo images themselves, and malformed JSON, changing nothing', async () => {
      const admin = await adminClient();
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, { show_town_page_logo: 'yes' }),
        400,
        'show_town_page_logo must be true or false',
      );
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, { website_logo: 'https://evil.example/logo.png' }),
        400,
        'The logo images are uploaded and deleted through their upload routes',
      );
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, { website_logo_scale: 1.2, town_page_logo_type: 'svg' }),
        400,
        'The logo images are uploaded and deleted through their upload routes',
      );
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, '{"website_logo_scale": 1.'),
        400,
        'The request body is not valid JSON',
      );
    });

    it('an agent still saves their own calculator defaults (shape 1)', async () => {
      const agent = await agentClient();
      const answer = await agent.send('PATCH', SETTINGS, {
        default_attorney_fee: 1500,
        default_recording_fee: 250,
        transfer_tax_rate_per_1000: 4,
        default_commission_percent: 5,
      });
      expect(answer.status).toBe(200);
    });

    it('the toggle and the town logo are what the town pages are built with (loadSiteChrome)', async () => {
      const admin = await adminClient();
      const { image_data } = await expectJson(
        await admin.send('POST', TOWN_LOGO, { image: dataUrl(await png(300, 100)) }),
        200,
        uploaded,
      );
      const og = await expectJson(await admin.send('POST', OG, { image: dataUrl(await png(500, 285)) }), 200, uploaded);
      const logo = await expectJson(
        await admin.send('POST', WEBSITE_LOGO, { image: dataUrl(await png(200, 50)) }),
        200,
        uploaded,
      );
      await expectJson(await admin.send('PATCH', SETTINGS, { website_logo_scale: 1.2 }), 200, saved);
      // What a build reads (readSiteChrome: loadSiteChrome is memoised for a whole build). No
      // vi.resetModules: it would give the next suite's route groups, loaded on first use, module
      // instances apart from the app's own (the session the access check keeps with the request).
      const chrome = () => readSiteChrome(suite.db);
      expect(await chrome()).toMatchObject({
        townLogo: null,
        logo: { src: logo.image_data, height: 96 },
        seo: { ogImage: og.image_data },
      });
      const on = await expectJson(await admin.send('PATCH', SETTINGS, { show_town_page_logo: true }), 200, saved);
      expect(on.message).toBe('Town page logo settings saved successfully!');
      expect(on.settings).toMatchObject({ town_page_logo: image_data, show_town_page_logo: true });
      expect((await chrome()).townLogo).toEqual({ src: image_data });
    });
  });

  it('every save marks the pre-rendered pages as out of date (site_changes)', async () => {
    const admin = await adminClient();
    const changedAt = async () =>
      z.object({ changed_at: z.coerce.date() }).parse((await suite.db.query('SELECT changed_at FROM site_changes'))[0])
        .changed_at;
    for (const [method, path, body] of [
      ['POST', WEBSITE_LOGO, { image: dataUrl(await png()) }],
      ['PATCH', SETTINGS, { website_logo_scale: 0.7 }],
      ['DELETE', OG, undefined],
    ] as const) {
      await suite.db.query("UPDATE site_changes SET changed_at = '2000-01-01'");
      expect((await admin.send(method, path, body)).status).toBe(200);
      expect((await changedAt()).getFullYear()).toBeGreaterThan(2000);
    }
  });
});
