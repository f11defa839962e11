/**
 * The one images module (ARCHITECTURE, "Signed-in areas"): every uploaded image (profile photos,
 * logos, OG and showcase images) comes in a request body of at most MAX_UPLOAD_BODY_BYTES, checked
 * before anything is decoded (decision 0027), and is decoded and re-encoded by
 * sharp (which drops EXIF and any other metadata, rasterises SVG, and keeps nothing of a polyglot
 * but its pixels), stored in PostgreSQL under the SHA-256 of the stored bytes, and served from
 * /api/images/{hash}.{ext} with a year of caching (docs/decisions/0013-images-in-postgres.md).
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
// Types only: sharp (libvips) takes ~250 ms to load, so the first upload loads it rather than every
// cold start of the API function (decision 0026).
import type { Metadata, OutputInfo, SharpOptions } from 'sharp';
import { z } from 'zod';
import type { Db } from '../../server/db.ts';
import { HttpError, route, type BodyLimit } from '../../server/http.ts';
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_TOO_LARGE, type StoredSize } from './uploads.ts';

/**
 * The body limit of every upload route (JSON or multipart, every field together): 413 with
 * UPLOAD_TOO_LARGE beyond it, before anything is decoded. What fits Netlify's request limit.
 */
export const UPLOAD_BODY_LIMIT: BodyLimit = { bytes: MAX_UPLOAD_BODY_BYTES, message: UPLOAD_TOO_LARGE };

/**
 * Decompression bombs: a few bytes of PNG can claim 20000 x 20000 pixels (1.6 GB decoded). sharp
 * checks this limit when it reads the header (metadata()), before any pixel is allocated.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

export const IMAGE_MESSAGES = {
  notAnImage: 'Please select an image file',
  damaged: 'This image could not be read; it may be damaged or incomplete. Please choose another file.',
  tooManyPixels: `This image is too large: at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels, please use a smaller one.`,
} as const;

/** Formats sharp may decode for an upload: no TIFF, PDF, HEIF or other loaders reach libvips. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'svg';

/** What an upload route accepts, and how it stores it (the size the browser also scales to). */
export interface ImageRules extends StoredSize {
  accepts: readonly ImageFormat[];
  /** The message for an image of a format not in `accepts` (a GIF, say); "not an image" without one. */
  wrongFormat?: string;
}

export interface ProcessedImage {
  hash: string;
  contentType: 'image/jpeg' | 'image/png';
  bytes: Buffer;
  width: number;
  height: number;
  /** Where it is served: /api/images/{hash}.{jpg|png}. */
  url: string;
}

const EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

const isFormat = (format: string | undefined, accepts: readonly ImageFormat[]): format is ImageFormat =>
  accepts.some((accepted) => accepted === format);

/** sharp refused the image from its header because of limitInputPixels. */
const isPixelLimit = (error: unknown): boolean => error instanceof Error && /pixel limit/i.test(error.message);

/**
 * Decodes `input` with sharp and re-encodes it by `rules`. Throws HttpError 400 for a file that is
 * not an accepted image, is damaged, or has too many pixels (checked from its header first).
 * The caller checks the byte size (with its own message) before calling.
 */
export async function processImage(input: Uint8Array, rules: ImageRules): Promise<ProcessedImage> {
  const { default: sharp } = await import('sharp');
  const options: SharpOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' };
  let metadata: Metadata;
  try {
    metadata = await sharp(input, options).metadata();
  } catch (error) {
    throw isPixelLimit(error)
      ? new HttpError(400, IMAGE_MESSAGES.tooManyPixels)
      : new HttpError(400, IMAGE_MESSAGES.notAnImage);
  }
  if (!isFormat(metadata.format, rules.accepts)) {
    throw new HttpError(400, rules.wrongFormat ?? IMAGE_MESSAGES.notAnImage);
  }
  let encoded: { data: Buffer; info: OutputInfo };
  try {
    // rotate() applies the EXIF orientation before the metadata (EXIF, GPS, XMP) is dropped.
    const pipeline = sharp(input, options)
      .rotate()
      .resize({
        width: rules.maxSide,
        height: rules.maxHeight ?? rules.maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      });
    encoded =
      rules.output === 'jpeg'
        ? await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }).toBuffer({
            resolveWithObject: true,
          })
        : await pipeline.png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw isPixelLimit(error)
      ? new HttpError(400, IMAGE_MESSAGES.tooManyPixels)
      : new HttpError(400, IMAGE_MESSAGES.damaged);
  }
  const contentType = rules.output === 'jpeg' ? 'image/jpeg' : 'image/png';
  const hash = createHash('sha256').update(encoded.data).digest('hex');
  return {
    hash,
    contentType,
    bytes: encoded.data,
    width: encoded.info.width,
    height: encoded.info.height,
    url: `/api/images/${hash}.${EXTENSIONS[contentType]}`,
  };
}

const DATA_URL_HEADER = /^data:(image\/[\w.+-]+)(;[\w=.+-]+)*;base64,/i;

/**
 * The bytes of an image sent as base64 text: a data URL of an image type, or (where `form` allows)
 * bare base64. Its size is judged from the text's length before anything is decoded (413 with the
 * limit's message); text that is not base64 is not an image (400).
 */
export function base64ImageBytes(text: string, limit: BodyLimit, form: 'data-url' | 'base64-or-data-url'): Buffer {
  const header = DATA_URL_HEADER.exec(text.slice(0, 200));
  if (!header && (form === 'data-url' || text.startsWith('data:'))) {
    throw new HttpError(400, IMAGE_MESSAGES.notAnImage);
  }
  const payload = header ? text.slice(header[0].length) : text;
  if (Math.floor((payload.length * 3) / 4) > limit.bytes + 2) throw new HttpError(413, limit.message);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw new HttpError(400, IMAGE_MESSAGES.notAnImage);
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.byteLength > limit.bytes) throw new HttpError(413, limit.message);
  return bytes;
}

/**
 * A CTE `name` that stores an image whose five parameters (imageParams) start at `$first`, when
 * `condition` holds; an image already stored (same hash, same bytes) is kept as it is. Put it in
 * the statement that points a row at the image, so both happen or neither does.
 */
export const storeImageCte = (name: string, first: number, condition: string): string =>
  `${name} AS (INSERT INTO images (hash, content_type, bytes, width, height)
     SELECT $${first}::text, $${first + 1}::text, $${first + 2}::bytea, $${first + 3}::int, $${first + 4}::int
      WHERE ${condition}
     ON CONFLICT (hash) DO NOTHING)`;

export const imageParams = (image: ProcessedImage): [string, string, Buffer, number, number] => [
  image.hash,
  image.contentType,
  image.bytes,
  image.width,
  image.height,
];

export const imageFile = z.object({ file: z.string().regex(/^[0-9a-f]{64}\.(jpg|png)$/) });

/** A stored image is an image and nothing else, wherever it is opened. */
const IMAGE_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  // Public pictures: other sites may show them (link previews, e-mail clients).
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

/** GET /api/images/{hash}.{jpg|png}: one round trip; 304 for a cached copy (the hash is the ETag). */
export function imageRoutes(db: Db): Hono {
  const app = new Hono();
  route(app, '/images/:file', {
    GET: async (c) => {
      const parsed = imageFile.safeParse(c.req.param());
      if (!parsed.success) throw new HttpError(404, 'Image not found');
      const [hash = '', extension] = parsed.data.file.split('.');
      const etag = `"${hash}"`;
      // The same name is always the same bytes: a cached copy is current without asking the database.
      if (c.req.header('if-none-match') === etag) return c.body(null, 304, { ...IMAGE_HEADERS, ETag: etag });
      const [row] = await db.query<{ content_type: keyof typeof EXTENSIONS; bytes: Uint8Array }>(
        'SELECT content_type, bytes FROM images WHERE hash = $1',
        [hash],
      );
      if (!row || EXTENSIONS[row.content_type] !== extension) throw new HttpError(404, 'Image not found');
      return c.body(new Uint8Array(row.bytes), 200, { ...IMAGE_HEADERS, ETag: etag, 'Content-Type': row.content_type });
    },
  });
  return app;
}
