/**
 * The admin's showcase over HTTP, on both backends: the home card's figures (PATCH
 * /api/agents/me/showcase, read back from the public GET /api/showcase/settings) and its images
 * (list, upload, delete, reorder): who may call each route, bad input with the spec's messages,
 * hostile uploads, and that a refused request changes nothing (settings row and images table).
 */
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_TOO_LARGE } from '../../src/ui/uploads.ts';
import {
  imageListSchema,
  imagesChangedSchema,
  imageUploadedSchema,
  SHOWCASE_DEFAULT_IMAGES,
  showcasePublicSchema,
  showcaseSavedSchema,
} from '../../src/features/showcase/public/showcase-settings.ts';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { clientAs, IP_HEADER, SESSION_COOKIE, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { rawRequest } from '../support/http.ts';
import { blobOf, formOf, imageCount, png } from '../support/images.ts';

const FIELDS = '/api/agents/me/showcase';
const LIST = '/api/images/list';
const UPLOAD = '/api/images/upload';
const DELETE = '/api/images/delete';
const ORDER = '/api/images/order';

const fields = {
  showcase_property_price: 912_500.5,
  showcase_property_address: '7 Bayview Court, Northport, NY 11768',
  showcase_property_beds: 4,
  showcase_property_baths: 2.5,
  showcase_property_sqft: 3120,
};

/** A photo-like JPEG (varied pixels, so its compressed data is long). */
async function jpeg(width = 200, height = 125): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 7919) % 251;
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
}

describe.each(BACKENDS)('the admin showcase on %s', (backend) => {
  const suite = useAuthSuite(backend, 'adminshowcase');

  beforeEach(async () => {
    await suite.db.query(
      `UPDATE site_settings SET showcase_images = '/showcase/demo-1.svg,/showcase/demo-2.svg',
              showcase_property_price_cents = 78020000, showcase_property_address = '24 Harbor View Lane',
              showcase_property_beds = 3, showcase_property_baths = 2, showcase_property_sqft = 2543`,
    );
  });

  async function adminClient(): Promise<Client> {
    const agent = await createAgent(suite.db, { is_admin: true });
    return clientAs(suite, agent.id);
  }
  const agentClient = async () => clientAs(suite, (await createAgent(suite.db)).id);

  /** POST /api/images/upload as the screen sends it: multipart, with the client's cookie and the site's Origin. */
  const upload = (client: Client, form: FormData) => {
    const headers: Record<string, string> = { origin: suite.api.origin, [IP_HEADER]: client.ip };
    if (client.session !== undefined) headers.cookie = `${SESSION_COOKIE}=${client.session}`;
    return suite.api.fetch(UPLOAD, { method: 'POST', headers, body: form });
  };
  const imageForm = (bytes: Buffer, type = 'image/jpeg') => formOf({ image: blobOf(bytes, type) });

  /** Everything a request could change: the settings row and the stored images. */
  const state = async () => ({
    settings: await suite.db.query('SELECT * FROM site_settings'),
    images: await imageCount(suite.db),
  });

  /** Expects `call` to be refused with `status` and `message`, with nothing changed. */
  async function expectRefused(call: () => Promise<Response>, status: number, message: string): Promise<void> {
    const before = await state();
    await expectError(await call(), status, message);
    expect(await state()).toEqual(before);
  }

  const publicSettings = async () =>
    (await expectJson(await suite.client().get('/api/showcase/settings'), 200, showcasePublicSchema)).settings;

  describe('who may call each route', () => {
    const calls: [string, string, () => unknown][] = [
      ['GET', LIST, () => undefined],
      ['PATCH', FIELDS, () => fields],
      ['POST', UPLOAD, async () => imageForm(await jpeg())],
      ['DELETE', DELETE, () => ({ imagePath: '/showcase/demo-1.svg' })],
      ['PUT', ORDER, () => ({ images: ['/showcase/demo-2.svg', '/showcase/demo-1.svg'] })],
    ];

    it.each(calls)(
      '%s %s: 401 signed out, 403 to an agent (writing nothing), 200 to an admin',
      async (method, path, body) => {
        const call = async (client: Client) => {
          const payload = await body();
          if (method === 'GET') return client.get(path);
          if (payload instanceof FormData) return upload(client, payload);
          return client.send(method, path, payload);
        };
        await expectRefused(() => call(suite.client()), 401, 'Please log in');
        const agent = await agentClient();
        await expectRefused(() => call(agent), 403, 'Only admins can change site-wide settings');
        const answer = await call(await adminClient());
        expect(answer.status, await answer.clone().text()).toBe(200);
      },
    );

    it('an agent with a body that would be refused is told 403, not what the body lacks', async () => {
      const agent = await agentClient();
      await expectRefused(
        () => agent.send('PATCH', FIELDS, '{"showcase'),
        403,
        'Only admins can change site-wide settings',
      );
      await expectRefused(() => upload(agent, formOf({})), 403, 'Only admins can change site-wide settings');
      // Not even read: a body over the limit is still 403, not 413.
      await expectRefused(
        () => upload(agent, imageForm(Buffer.alloc(6 * 1024 * 1024, 0x41))),
        403,
        'Only admins can change site-wide settings',
      );
      await expectRefused(
        () => agent.send('PUT', ORDER, { images: 5 }),
        403,
        'Only admins can change site-wide settings',
      );
    });
  });

  describe('the card figures', () => {
    it('saves them, and the public settings the home card refreshes from show them', async () => {
      const admin = await adminClient();
      const saved = await expectJson(await admin.send('PATCH', FIELDS, fields), 200, showcaseSavedSchema);
      expect(saved).toEqual({ success: true, message: 'Showcase settings saved successfully!', settings: fields });
      expect(await publicSettings()).toMatchObject(fields);
      const [row] = await suite.db.query<{ cents: number }>(
        'SELECT showcase_property_price_cents AS cents FROM site_settings',
      );
      expect(row?.cents).toBe(91_250_050);
    });

    it('refuses malformed JSON, wrong types, missing and oversized fields, with nothing changed', async () => {
      const admin = await adminClient();
      await expectRefused(
        () => admin.send('PATCH', FIELDS, '{"showcase_property_price": 1'),
        400,
        'The request body is not valid JSON',
      );
      await expectRefused(() => admin.send('PATCH', FIELDS, [fields]), 400, 'The request body must be a JSON object');
      const refused: [Record<string, unknown>, string, string][] = [
        [{ showcase_property_price: '912500' }, 'showcase_property_price', 'Price must be a number'],
        [
          { showcase_property_price: 912_500.555 },
          'showcase_property_price',
          'Price can have at most two decimals (cents)',
        ],
        [{ showcase_property_price: 0 }, 'showcase_property_price', 'Price must be more than $0'],
        [{ showcase_property_price: 1e12 }, 'showcase_property_price', 'Price must be at most $100,000,000'],
        [{ showcase_property_address: '   ' }, 'showcase_property_address', 'Address is required'],
        [
          { showcase_property_address: 'x'.repeat(201) },
          'showcase_property_address',
          'Address must be at most 200 characters',
        ],
        [{ showcase_property_address: 42 }, 'showcase_property_address', 'Address is required'],
        [{ showcase_property_beds: 0 }, 'showcase_property_beds', 'Beds must be at least 1'],
        [{ showcase_property_beds: 2.5 }, 'showcase_property_beds', 'Beds must be a whole number'],
        [{ showcase_property_baths: 0 }, 'showcase_property_baths', 'Baths must be at least 1'],
        [
          { showcase_property_baths: 2.25 },
          'showcase_property_baths',
          'Baths go in steps of 0.5 (for example 2 or 2.5)',
        ],
        [{ showcase_property_sqft: 0 }, 'showcase_property_sqft', 'Square feet must be at least 1'],
        [{ showcase_property_sqft: 2_000_000 }, 'showcase_property_sqft', 'Square feet must be at most 1,000,000'],
        [{ showcase_property_sqft: null }, 'showcase_property_sqft', 'Square feet must be a number'],
      ];
      for (const [change, field, message] of refused) {
        const before = await state();
        await expectFieldError(await admin.send('PATCH', FIELDS, { ...fields, ...change }), field, message);
        expect(await state()).toEqual(before);
      }
      const withoutBeds = { ...fields, showcase_property_beds: undefined };
      const before = await state();
      await expectFieldError(
        await admin.send('PATCH', FIELDS, withoutBeds),
        'showcase_property_beds',
        'Beds is required',
      );
      await expectError(await admin.send('PATCH', FIELDS, { ...fields, showcase_images: '' }), 400);
      await expectError(await admin.send('PATCH', FIELDS, { ...fields, padding: 'x'.repeat(70_000) }), 413);
      expect(await state()).toEqual(before);
    });
  });

  describe('the images', () => {
    it('lists them in order, and the four default pictures when none is uploaded', async () => {
      const admin = await adminClient();
      expect(await expectJson(await admin.get(LIST), 200, imageListSchema)).toEqual({
        success: true,
        images: ['/showcase/demo-1.svg', '/showcase/demo-2.svg'],
        is_default: false,
      });
      await suite.db.query(`UPDATE site_settings SET showcase_images = ''`);
      expect(await expectJson(await admin.get(LIST), 200, imageListSchema)).toEqual({
        success: true,
        images: [...SHOWCASE_DEFAULT_IMAGES],
        is_default: true,
      });
      // The site serves them from public/.
      for (const path of SHOWCASE_DEFAULT_IMAGES) expect(existsSync(`public${path}`), path).toBe(true);
    });

    it('uploads a photo re-encoded as a JPEG at most 1280 wide, appended to the list the home card reads', async () => {
      const admin = await adminClient();
      const answer = await expectJson(await upload(admin, imageForm(await jpeg(2400, 1500))), 200, imageUploadedSchema);
      expect(answer.filename).toMatch(/^\/api\/images\/[0-9a-f]{64}\.jpg$/);
      expect(answer.images).toEqual(['/showcase/demo-1.svg', '/showcase/demo-2.svg', answer.filename]);
      expect((await publicSettings()).showcase_images).toBe(answer.images.join(','));
      const served = await suite.client().get(answer.filename);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({
        format: 'jpeg',
        width: 1280,
        height: 800,
      });
      // PNG and WebP are taken too, and stored as JPEG.
      const fromPng = await expectJson(
        await upload(admin, imageForm(await png(300, 200), 'image/png')),
        200,
        imageUploadedSchema,
      );
      expect(fromPng.filename).toMatch(/\.jpg$/);
      const webp = await sharp(await png(310, 200, '#22aa55'))
        .webp()
        .toBuffer();
      await expectJson(await upload(admin, imageForm(webp, 'image/webp')), 200, imageUploadedSchema);
      // The same picture twice is refused, with the list as it was.
      await expectRefused(
        () => upload(admin, imageForm(webp, 'image/webp')),
        409,
        'This image is already in the showcase',
      );
    });

    it("refuses what is not an image, other formats, and damaged files with the spec's messages, storing nothing", async () => {
      const admin = await adminClient();
      await expectRefused(() => upload(admin, formOf({})), 400, 'Please select an image file');
      await expectRefused(() => upload(admin, formOf({ image: 'just text' })), 400, 'Please select an image file');
      await expectRefused(
        () => upload(admin, imageForm(Buffer.from('just some text, not a picture'), 'image/jpeg')),
        400,
        'Please select an image file',
      );
      const gif = await sharp(await png(40, 40))
        .gif()
        .toBuffer();
      await expectRefused(
        () => upload(admin, imageForm(gif, 'image/gif')),
        400,
        'Only JPG, PNG, and WebP images are allowed',
      );
      // A GIF dressed as a JPEG is still a GIF.
      await expectRefused(
        () => upload(admin, imageForm(gif, 'image/jpeg')),
        400,
        'Only JPG, PNG, and WebP images are allowed',
      );
      const whole = await jpeg(400, 300);
      await expectRefused(
        () => upload(admin, imageForm(whole.subarray(0, Math.floor(whole.length / 2)))),
        400,
        'This image could not be read; it may be damaged or incomplete. Please choose another file.',
      );
      await expectRefused(
        () =>
          suite.api.fetch(UPLOAD, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin: suite.api.origin,
              cookie: `${SESSION_COOKIE}=${admin.session ?? ''}`,
            },
            body: '{}',
          }),
        415,
        'Send the image as multipart/form-data (field "image")',
      );
    });

    it('neutralises a JPEG with HTML appended: stored and served as a plain JPEG without the payload', async () => {
      const admin = await adminClient();
      const polyglot = Buffer.concat([
        await jpeg(64, 40),
        Buffer.from('<html><script>alert("polyglot")</script></html>'),
      ]);
      const { filename } = await expectJson(await upload(admin, imageForm(polyglot)), 200, imageUploadedSchema);
      const served = await suite.client().get(filename);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.includes('<html>')).toBe(false);
      expect(bytes.includes('polyglot')).toBe(false);
    });

    it('answers 413 past the upload limit before decoding, with and without Content-Length', async () => {
      const admin = await adminClient();
      const message = UPLOAD_TOO_LARGE;
      // 6MB: refused from Content-Length, before the body is read.
      await expectRefused(() => upload(admin, imageForm(Buffer.alloc(6 * 1024 * 1024, 0x41))), 413, message);
      // A file just past the limit, of bytes that are no image: the size is checked before decoding
      // would say so (under the spec's 5MB: the browser scales such a photo before sending it).
      await expectRefused(() => upload(admin, imageForm(Buffer.alloc(MAX_UPLOAD_BODY_BYTES + 1, 0x41))), 413, message);
      // Streamed without Content-Length: reading stops once the body passes the limit.
      const before = await state();
      const boundary = 'showcase-boundary';
      const response = await rawRequest(suite.api.origin, UPLOAD, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          origin: suite.api.origin,
          cookie: `${SESSION_COOKIE}=${admin.session ?? ''}`,
          [IP_HEADER]: admin.ip,
        },
        chunks: [
          `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
          ...Array.from({ length: 7 }, () => Buffer.alloc(1024 * 1024, 0x41)),
          `\r\n--${boundary}--\r\n`,
        ],
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toMatchObject({ success: false, error: message });
      expect(await state()).toEqual(before);
    });

    it('deletes only a path in the list; anything else is 404 with nothing changed', async () => {
      const admin = await adminClient();
      await expectRefused(
        () => admin.send('DELETE', DELETE, { imagePath: '/showcase/demo-3.svg' }),
        404,
        'That image is not in the showcase',
      );
      await expectRefused(
        () => admin.send('DELETE', DELETE, { imagePath: '/showcase/demo-1.svg,/x' }),
        400,
        'That image is not in the showcase',
      );
      await expectRefused(() => admin.send('DELETE', DELETE, { imagePath: 7 }), 400, 'Choose an image');
      await expectRefused(() => admin.send('DELETE', DELETE, {}), 400, 'Choose an image');
      await expectRefused(
        () => admin.send('DELETE', DELETE, '{"imagePath":'),
        400,
        'The request body is not valid JSON',
      );
      const answer = await expectJson(
        await admin.send('DELETE', DELETE, { imagePath: '/showcase/demo-1.svg' }),
        200,
        imagesChangedSchema,
      );
      expect(answer).toEqual({
        success: true,
        message: 'Image deleted successfully!',
        images: ['/showcase/demo-2.svg'],
      });
      expect((await publicSettings()).showcase_images).toBe('/showcase/demo-2.svg');
    });

    it('reorders with the full list only: anything but a permutation of it is refused, changing nothing', async () => {
      const admin = await adminClient();
      const list = ['/showcase/demo-1.svg', '/showcase/demo-2.svg'];
      for (const images of [[list[0]], [...list, '/showcase/demo-3.svg'], [list[0], list[0]], []]) {
        await expectRefused(
          () => admin.send('PUT', ORDER, { images }),
          409,
          'The showcase images changed meanwhile; reload the page and try again.',
        );
      }
      await expectRefused(() => admin.send('PUT', ORDER, { images: 'a,b' }), 400, 'Send the images as a list');
      await expectRefused(() => admin.send('PUT', ORDER, {}), 400, 'Send the images as a list');
      const answer = await expectJson(
        await admin.send('PUT', ORDER, { images: [...list].reverse() }),
        200,
        imagesChangedSchema,
      );
      expect(answer.images).toEqual([...list].reverse());
      expect((await publicSettings()).showcase_images).toBe('/showcase/demo-2.svg,/showcase/demo-1.svg');
    });
  });
});
