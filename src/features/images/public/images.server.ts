/**
 * The one images module (ARCHITECTURE, "Signed-in areas"): every uploaded image (profile photos,
 * logos, OG and showcase images) comes in a request body of at most MAX_UPLOAD_BODY_BYTES, checked
 * before anything is decoded (decision 0027), and is decoded and re-encoded by
 * sharp in a worker thread (image-job.server.ts, decision 0036) (which drops EXIF and any other metadata, rasterises SVG, and keeps nothing of a polyglot
 * but its pixels), stored in PostgreSQL under the SHA-256 of the stored bytes, and served from
 * /api/images/{hash}.{ext} with a year of caching (docs/decisions/0013-images-in-postgres.md).
 */
import * as z from 'zod';
import type { Db } from '../../../platform/db.ts';
import { HttpError, type BodyLimit } from '../../../platform/http.ts';
import { apiGroup } from '../../../platform/operation.ts';
import { WorkerPoolError } from '../../../platform/worker-pool.server.ts';
import { WorkersBusy } from '../../../platform/workers-busy.server.ts';
import { imageJob, MAX_IMAGE_PIXELS, type EncodedImage, type ImageRefusal } from '../image-job.server.ts';
import { SVG_LOGO_MESSAGE } from '../svg-logo.ts';
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_TOO_LARGE, type StoredSize } from '../../../ui/uploads.ts';

export { MAX_IMAGE_PIXELS };

/**
 * The body limit of every upload route (JSON or multipart, every field together): 413 with
 * UPLOAD_TOO_LARGE beyond it, before anything is decoded. What fits Netlify's request limit.
 */
export const UPLOAD_BODY_LIMIT: BodyLimit = { bytes: MAX_UPLOAD_BODY_BYTES, message: UPLOAD_TOO_LARGE };

export const IMAGE_MESSAGES = {
  notAnImage: 'Please select an image file',
  damaged: 'This image could not be read; it may be damaged or incomplete. Please choose another file.',
  tooManyPixels: `This image is too large: at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels, please use a smaller one.`,
  svgFeatures: SVG_LOGO_MESSAGE,
  tooSlow:
    'This image takes too long to process. Please upload a simpler one (a PNG or JPEG of at most a few megapixels).',
  busy: 'The server is busy processing other images. Please try again in a minute.',
} as const;

/** Formats sharp may decode for an upload: no TIFF, PDF, HEIF or other loaders reach libvips. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'svg';

/** What an upload route accepts, and how it stores it (the size the browser also scales to). */
export interface ImageRules extends StoredSize {
  accepts: readonly ImageFormat[];
  /** The message for an image of a format not in `accepts` (a GIF, say); "not an image" without one. */
  wrongFormat?: string;
  /** Also make a print copy of at most this many pixels a side (an agent's photo and logo, for the PDF). */
  printSide?: number;
}

export interface ProcessedImage extends EncodedImage {
  /** Where it is served: /api/images/{hash}.{jpg|png}. */
  url: string;
  /** The print copy, when the rules asked for one. */
  print?: EncodedImage;
}

const EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

/**
 * Decodes `input` and re-encodes it by `rules`, in a worker of the pool (never on the event loop),
 * within the image job's time budget (or `budgetMs`). Throws HttpError 400 for a file that is not an
 * accepted image, is damaged, has too many pixels (checked from its header first), is an SVG with
 * more than a logo needs, or takes longer than the budget; 503 when every worker is busy.
 * The caller checks the byte size (with its own message) before calling.
 */
export async function processImage(
  input: Uint8Array,
  rules: ImageRules,
  { budgetMs }: { budgetMs?: number } = {},
): Promise<ProcessedImage> {
  const budget = budgetMs ?? imageJob.budgetMs;
  let answer: Awaited<ReturnType<typeof imageJob.run>>;
  try {
    answer = await imageJob.run(
      {
        bytes: input,
        accepts: [...rules.accepts],
        maxSide: rules.maxSide,
        maxHeight: rules.maxHeight,
        output: rules.output,
        printSide: rules.printSide,
        timeoutSeconds: Math.max(1, Math.ceil(budget / 1000)),
      },
      { budgetMs: budget },
    );
  } catch (error) {
    if (error instanceof WorkerPoolError) {
      if (error.reason === 'busy') throw new WorkersBusy(IMAGE_MESSAGES.busy);
      throw new HttpError(400, IMAGE_MESSAGES.tooSlow);
    }
    throw error;
  }
  if ('refused' in answer) throw new HttpError(400, refusalMessage(answer.refused, rules));
  return { ...answer.image, url: imageUrl(answer.image), ...(answer.print ? { print: answer.print } : {}) };
}

const refusalMessage = (refusal: ImageRefusal, rules: ImageRules): string =>
  refusal === 'wrongFormat' ? (rules.wrongFormat ?? IMAGE_MESSAGES.notAnImage) : IMAGE_MESSAGES[refusal];

/** Where an image is served. */
export const imageUrl = (image: Pick<EncodedImage, 'hash' | 'contentType'>): string =>
  `/api/images/${image.hash}.${EXTENSIONS[image.contentType]}`;

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

/** Bytes as the database drivers take them (a Buffer over the same memory). */
export const bytesParam = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export const imageParams = (image: ProcessedImage): [string, string, Buffer, number, number] => [
  image.hash,
  image.contentType,
  bytesParam(image.bytes),
  image.width,
  image.height,
];

/**
 * A CTE `name` that stores the print copy of an image (printCopyParams, three parameters from
 * `$first`: the image's hash, the copy's type and bytes) when `condition` holds and there is one.
 * Put it beside storeImageCte in the statement that stores the image.
 */
export const storePrintCopyCte = (name: string, first: number, condition: string): string =>
  `${name} AS (INSERT INTO image_print_copies (hash, content_type, bytes)
     SELECT $${first}::text, $${first + 1}::text, $${first + 2}::bytea
      WHERE $${first + 1}::text IS NOT NULL AND ${condition}
     ON CONFLICT (hash) DO NOTHING)`;

export const printCopyParams = (image: ProcessedImage): [string, string | null, Buffer | null] => [
  image.hash,
  image.print?.contentType ?? null,
  image.print ? bytesParam(image.print.bytes) : null,
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
export const imagesApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/images/:file',
      access: 'public',
      summary: 'An uploaded image by its content hash (cached for a year)',
      tag: 'Images',
      params: imageFile,
      success: { status: 200, description: 'The image', media: 'image/*' },
      errors: [404],
      handler: async (c, { db }, input) => {
        const parsed = input.validParams();
        if (!parsed) throw new HttpError(404, 'Image not found');
        const [hash = '', extension] = parsed.file.split('.');
        const etag = `"${hash}"`;
        // The same name is always the same bytes: a cached copy is current without asking the database.
        if (c.req.header('if-none-match') === etag) return c.body(null, 304, { ...IMAGE_HEADERS, ETag: etag });
        const [row] = await db.query<{ content_type: keyof typeof EXTENSIONS; bytes: Uint8Array }>(
          'SELECT content_type, bytes FROM images WHERE hash = $1',
          [hash],
        );
        if (!row || EXTENSIONS[row.content_type] !== extension) throw new HttpError(404, 'Image not found');
        return c.body(new Uint8Array(row.bytes), 200, {
          ...IMAGE_HEADERS,
          ETag: etag,
          'Content-Type': row.content_type,
        });
      },
    }),
  ],
);
