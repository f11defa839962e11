/**
 * Every image upload route against the one upload limit (decision 0027), over HTTP on both
 * backends: a body of exactly MAX_UPLOAD_BODY_BYTES is read (and judged as an image), one byte more
 * is 413 in the API's error shape with UPLOAD_TOO_LARGE and nothing stored, whatever the limit is
 * made of (one image, or a profile's photo and logo together); and a real image sent as it is, up
 * to the limit, is stored: what an API client that does not scale its images gets.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { profileAnswerSchema } from '../../src/features/agents/profile.ts';
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_TOO_LARGE } from '../../src/ui/uploads.ts';
import { imageUploadedSchema } from '../../src/features/showcase/public/showcase-settings.ts';
import { siteImageAnswerSchema } from '../../src/features/site-images/public/site-images.ts';
import { openApiDocument } from '../../src/app/openapi.server.ts';
import { apiOperations } from '../../src/app/api-groups.server.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, IP_HEADER, SESSION_COOKIE, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { imageCount, profileFields } from '../support/images.ts';

const DOCUMENT = openApiDocument(await apiOperations());

/** Netlify's effective limit on a binary request body (decision 0027). */
const NETLIFY_BINARY_LIMIT = 4.5 * 1000 * 1000;

interface Part {
  name: string;
  /** A file part when given. */
  file?: { filename: string; type: string };
  content: Buffer | string;
}

const BOUNDARY = 'upload-limit-boundary';

/** A multipart body of `parts`, the last one padded with 'A's so that the whole is exactly `size` bytes. */
function multipart(parts: Part[], size?: number): Buffer {
  const encode = (list: Part[]) =>
    Buffer.concat([
      ...list.flatMap((part) => [
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"` +
            (part.file ? `; filename="${part.file.filename}"\r\nContent-Type: ${part.file.type}\r\n\r\n` : '\r\n\r\n'),
        ),
        Buffer.from(part.content),
        Buffer.from('\r\n'),
      ]),
      Buffer.from(`--${BOUNDARY}--\r\n`),
    ]);
  const body = encode(parts);
  if (size === undefined) return body;
  const last = parts.at(-1);
  if (!last || body.length > size) throw new Error('the parts are already larger than the size asked for');
  const padded = Buffer.concat([Buffer.from(last.content), Buffer.alloc(size - body.length, 0x41)]);
  return encode([...parts.slice(0, -1), { ...last, content: padded }]);
}

/** A JSON body of exactly `size` bytes: `field` holds a data URL whose base64 is all 'A's (no image). */
function jsonOfSize(field: string, size: number): string {
  const head = `{"${field}":"data:image/png;base64,`;
  const tail = '"}';
  return head + 'A'.repeat(size - head.length - tail.length) + tail;
}

/** A noisy PNG (nothing to compress) of about `bytes`, as a photo straight from a camera would weigh. */
async function noisyPng(bytes: number): Promise<Buffer> {
  const side = Math.round(Math.sqrt(bytes / 3));
  return sharp({
    create: {
      width: side,
      height: side,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

type Route = {
  method: 'POST' | 'PUT';
  path: string;
  admin: boolean;
  /** A body of exactly `size` bytes with no image in it (or none the server can decode). */
  body: (size: number) => { contentType: string; body: Buffer | string };
};

const json = (field: string) => (size: number) => ({ contentType: 'application/json', body: jsonOfSize(field, size) });
const form = (parts: (size: number) => Part[]) => (size: number) => ({
  contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  body: multipart(parts(size), size),
});
const fileOf = (name: string): Part => ({ name, file: { filename: `${name}.png`, type: 'image/png' }, content: '' });
const textParts = (): Part[] => Object.entries(profileFields()).map(([name, content]) => ({ name, content }));

const ROUTES: Route[] = [
  { method: 'POST', path: '/api/upload/profile-photo', admin: false, body: json('imageData') },
  { method: 'POST', path: '/api/upload/logo', admin: false, body: json('imageData') },
  // The photo and the logo of one save count together: each alone is well within the limit.
  {
    method: 'PUT',
    path: '/api/agents/profile',
    admin: false,
    body: form((size) => [
      ...textParts(),
      { ...fileOf('profile_photo'), content: Buffer.alloc(size / 2, 0x41) },
      fileOf('logo'),
    ]),
  },
  { method: 'POST', path: '/api/upload/og-image', admin: true, body: json('image') },
  { method: 'POST', path: '/api/upload/website-logo', admin: true, body: json('image') },
  { method: 'POST', path: '/api/upload/town-logo', admin: true, body: json('image') },
  { method: 'POST', path: '/town-logo-api.php', admin: true, body: json('image') },
  { method: 'POST', path: '/api/images/upload', admin: true, body: form(() => [fileOf('image')]) },
];

const documented = z.object({
  // The words are on each media type's schema: OpenAPI 3.1 has no description on a Media Type Object.
  requestBody: z.object({
    content: z.record(z.string(), z.object({ schema: z.object({ description: z.string() }) })),
  }),
  responses: z.object({ 413: z.object({ description: z.string() }) }),
});

describe('the OpenAPI document', () => {
  const paths = z.record(z.string(), z.record(z.string(), z.unknown())).parse(DOCUMENT.paths);
  // The old product's path is the town logo's route under another name; the document lists the route.
  it.each(ROUTES.filter(({ path }) => path.startsWith('/api/')))(
    'states the limit of $method $path',
    ({ method, path }) => {
      const operation = documented.parse(paths[path]?.[method.toLowerCase()]);
      const bytes = MAX_UPLOAD_BODY_BYTES.toLocaleString('en-US');
      for (const content of Object.values(operation.requestBody.content)) {
        expect(content.schema.description).toContain(`At most 4 MB (${bytes} bytes) in all`);
      }
      expect(operation.responses[413].description).toBe(
        `The request body is larger than 4 MB (${bytes} bytes), the most an upload may carry`,
      );
    },
  );
});

describe.each(BACKENDS)('the one upload limit on %s', (backend) => {
  const suite = useAuthSuite(backend, 'uploadlimits');

  const clientFor = async (admin: boolean): Promise<Client> =>
    clientAs(suite, (await createAgent(suite.db, { is_admin: admin })).id);

  /** `body` sent as a page would, with its Content-Length. */
  function send(
    client: Client,
    route: Pick<Route, 'method' | 'path'>,
    body: { contentType: string; body: Buffer | string },
  ) {
    return suite.api.fetch(route.path, {
      method: route.method,
      headers: {
        'content-type': body.contentType,
        origin: suite.api.origin,
        cookie: `${SESSION_COOKIE}=${client.session ?? ''}`,
        [IP_HEADER]: client.ip,
      },
      body: typeof body.body === 'string' ? body.body : new Uint8Array(body.body),
    });
  }

  it('the limit is under what Netlify lets through for a binary body', () => {
    expect(MAX_UPLOAD_BODY_BYTES).toBeLessThan(NETLIFY_BINARY_LIMIT);
  });

  it.each(ROUTES)('$method $path: a body of the limit is read; one byte more is 413, nothing stored', async (route) => {
    const client = await clientFor(route.admin);
    const atLimit = route.body(MAX_UPLOAD_BODY_BYTES);
    expect(Buffer.byteLength(atLimit.body)).toBe(MAX_UPLOAD_BODY_BYTES);
    const before = await imageCount(suite.db);
    // Read and judged: its bytes are no image.
    await expectError(await send(client, route, atLimit), 400, 'Please select an image file');

    const over = route.body(MAX_UPLOAD_BODY_BYTES + 1);
    expect(Buffer.byteLength(over.body)).toBe(MAX_UPLOAD_BODY_BYTES + 1);
    const refused = await expectError(await send(client, route, over), 413, UPLOAD_TOO_LARGE);
    expect(refused).toEqual({ success: false, error: UPLOAD_TOO_LARGE, fields: {} });
    expect(await imageCount(suite.db)).toBe(before);
  });

  it('a real photo sent as it is, its JSON body just under the limit, is stored', async () => {
    const client = await clientFor(false);
    const photo = await noisyPng(2_900_000);
    const body = JSON.stringify({ imageData: `data:image/png;base64,${photo.toString('base64')}` });
    expect(body.length).toBeGreaterThan(MAX_UPLOAD_BODY_BYTES * 0.9);
    expect(body.length).toBeLessThanOrEqual(MAX_UPLOAD_BODY_BYTES);
    const saved = await expectJson(
      await send(
        client,
        { method: 'POST', path: '/api/upload/profile-photo' },
        { contentType: 'application/json', body },
      ),
      200,
      profileAnswerSchema,
    );
    expect(saved.profile.profile_photo).toMatch(/^\/api\/images\/[0-9a-f]{64}\.jpg$/);
  });

  it('a real photo and logo in one profile save, together under the limit, are stored', async () => {
    const client = await clientFor(false);
    const parts = [
      ...textParts(),
      { ...fileOf('profile_photo'), content: await noisyPng(1_800_000) },
      { ...fileOf('logo'), content: await noisyPng(1_800_000) },
    ];
    const body = multipart(parts);
    expect(body.length).toBeLessThanOrEqual(MAX_UPLOAD_BODY_BYTES);
    const saved = await expectJson(
      await send(
        client,
        { method: 'PUT', path: '/api/agents/profile' },
        { contentType: `multipart/form-data; boundary=${BOUNDARY}`, body },
      ),
      200,
      profileAnswerSchema,
    );
    expect(saved.profile.profile_photo).toMatch(/\.jpg$/);
    expect(saved.profile.logo).toMatch(/\.png$/);
  });

  it('a real showcase photo and a real website logo, just under the limit, are stored', async () => {
    const admin = await clientFor(true);
    const photo = await noisyPng(3_900_000);
    const body = multipart([{ ...fileOf('image'), content: photo }]);
    expect(body.length).toBeLessThanOrEqual(MAX_UPLOAD_BODY_BYTES);
    await expectJson(
      await send(
        admin,
        { method: 'POST', path: '/api/images/upload' },
        { contentType: `multipart/form-data; boundary=${BOUNDARY}`, body },
      ),
      200,
      imageUploadedSchema,
    );
    const logo = JSON.stringify({ image: (await noisyPng(2_900_000)).toString('base64'), filename: 'logo.png' });
    expect(logo.length).toBeLessThanOrEqual(MAX_UPLOAD_BODY_BYTES);
    await expectJson(
      await send(
        admin,
        { method: 'POST', path: '/api/upload/website-logo' },
        { contentType: 'application/json', body: logo },
      ),
      200,
      siteImageAnswerSchema,
    );
  });
});
