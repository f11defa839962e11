/**
 * Bad site-wide image uploads refused with the reason and nothing written, over HTTP on both
 * backends: malformed JSON, wrong types, no image, not base64, not an image, the wrong media type,
 * an SVG as the OG image, and bodies over the upload limit (declared or streamed).
 */
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_TOO_LARGE } from '../../src/ui/uploads.ts';
import { expectError } from '../support/api-suite.ts';
import { IP_HEADER, SESSION_COOKIE } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { rawRequest } from '../support/http.ts';
import { dataUrl, png } from '../support/images.ts';
import { OG, OVER_LIMIT, UPLOAD_PATHS, UPLOADS, useSiteImagesSuite } from '../support/site-images-suite.ts';

describe.each(BACKENDS)('site-wide images on %s', (backend) => {
  const { suite, adminClient, snapshot, expectRefused } = useSiteImagesSuite(backend);
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
});
