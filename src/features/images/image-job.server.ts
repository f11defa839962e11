/**
 * The image job: an uploaded image decoded and re-encoded by sharp in a worker thread of the pool
 * (src/platform/worker-pool.server.ts, decision 0036), never on the event loop.
 * It answers either the stored image (and its print copy, for the PDF) or why it was refused; the
 * caller (processImage in images.server.ts) turns a refusal into the route's 400.
 *
 * Runs in a worker: imports only what a worker can run from source (see the pool's module).
 */
import { createHash } from 'node:crypto';
// Types only: sharp (libvips) takes ~250 ms to load, so the first job loads it (decision 0026).
import type { Metadata, OutputInfo, Sharp, SharpOptions } from 'sharp';
import * as z from 'zod';
import { workerJob, type JobAnswer } from '../../platform/worker-pool.server.ts';
import { svgLogoProblem } from './svg-logo.ts';

/**
 * Decompression bombs: a few bytes of PNG can claim 20000 x 20000 pixels (1.6 GB decoded). sharp
 * checks this limit when it reads the header (metadata()), before any pixel is allocated.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * An SVG is rendered no larger than this on its longest side (and no larger than it is stored):
 * librsvg's cost grows with the pixels it draws, and a logo needs no more.
 */
export const SVG_RENDER_MAX_SIDE = 600;

/**
 * The time an image job may take in its worker. A 40-megapixel photo decodes in well under a
 * second here; an image still at work after this is stopped and refused.
 */
export const IMAGE_BUDGET_MS = 5000;

const formats = ['jpeg', 'png', 'webp', 'svg'] as const;

const encodedSchema = z.object({
  hash: z.string(),
  contentType: z.enum(['image/jpeg', 'image/png']),
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type EncodedImage = z.output<typeof encodedSchema>;

const inputSchema = z.object({
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array),
  accepts: z.array(z.enum(formats)),
  maxSide: z.number().int().positive(),
  maxHeight: z.number().int().positive().optional(),
  output: z.enum(['jpeg', 'png']),
  /** The longest side of a print copy to make as well (an agent's photo and logo, for the PDF). */
  printSide: z.number().int().positive().optional(),
  /** sharp's own timeout: libvips stops between tiles once it passes, even in the threadpool. */
  timeoutSeconds: z.number().int().positive(),
});
export type ImageJobInput = z.input<typeof inputSchema>;

const refusals = ['notAnImage', 'wrongFormat', 'damaged', 'tooManyPixels', 'svgFeatures'] as const;
export type ImageRefusal = (typeof refusals)[number];

const outputSchema = z.union([
  z.object({ refused: z.enum(refusals), detail: z.string().optional() }),
  z.object({ image: encodedSchema, print: encodedSchema.optional() }),
]);
type Answer = JobAnswer<z.input<typeof outputSchema>>;

const refuse = (refused: ImageRefusal, detail?: string): Answer => ({
  output: { refused, ...(detail === undefined ? {} : { detail }) },
});

/** sharp refused the image from its header because of limitInputPixels. */
const isPixelLimit = (error: unknown): boolean => error instanceof Error && /pixel limit/i.test(error.message);

/** The encoded image, its bytes in a buffer of their own added to `moved` (sent, not copied, to the caller). */
function encoded(
  data: Buffer,
  info: OutputInfo,
  contentType: EncodedImage['contentType'],
  moved: ArrayBuffer[],
): EncodedImage {
  // A copy: sharp's own buffer is native memory, which cannot move to another thread.
  const bytes = new Uint8Array(data);
  moved.push(bytes.buffer);
  return {
    hash: createHash('sha256').update(data).digest('hex'),
    contentType,
    bytes,
    width: info.width,
    height: info.height,
  };
}

/**
 * The print copy of a stored image: at most `side` pixels, on white (the page is white), as the
 * smaller of a JPEG and a 256-colour PNG (a flat logo is smaller as PNG, a photo as JPEG).
 */
async function printCopy(
  sharp: (input: Uint8Array) => Sharp,
  stored: Buffer,
  side: number,
  moved: ArrayBuffer[],
): Promise<EncodedImage> {
  const base = () =>
    sharp(stored)
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' });
  const [jpeg, png] = await Promise.all([
    base().jpeg({ quality: 82, mozjpeg: true }).toBuffer({ resolveWithObject: true }),
    base().png({ palette: true, compressionLevel: 9 }).toBuffer({ resolveWithObject: true }),
  ]);
  return jpeg.data.byteLength <= png.data.byteLength
    ? encoded(jpeg.data, jpeg.info, 'image/jpeg', moved)
    : encoded(png.data, png.info, 'image/png', moved);
}

/** An SVG's render scale: at most SVG_RENDER_MAX_SIDE, and no larger than it will be stored. */
function svgScale(metadata: Metadata, input: z.output<typeof inputSchema>): number {
  const width = metadata.width ?? 1;
  const height = metadata.height ?? 1;
  return Math.min(
    1,
    SVG_RENDER_MAX_SIDE / Math.max(width, height),
    input.maxSide / width,
    (input.maxHeight ?? input.maxSide) / height,
  );
}

export const imageJob = workerJob({
  name: 'image',
  moduleUrl: import.meta.url,
  input: inputSchema,
  output: outputSchema,
  budgetMs: IMAGE_BUDGET_MS,
  async handler(input): Promise<Answer> {
    const { default: sharp } = await import('sharp');
    // One libvips thread per job: the pool bounds the jobs, this bounds each one's cores.
    sharp.concurrency(1);
    sharp.cache(false);
    const options: SharpOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' };
    // What librsvg would take for an SVG (other markup is no image, as sharp will say).
    const looksLikeSvg = /<svg/i.test(Buffer.from(input.bytes.subarray(0, 4096)).toString('latin1'));
    const svgProblem = () => (input.accepts.includes('svg') ? svgLogoProblem(input.bytes) : 'not a logo');
    // Checked before sharp reads it at all, and again if sharp finds an SVG where the text did not.
    if (looksLikeSvg && input.accepts.includes('svg')) {
      const problem = svgProblem();
      if (problem) return refuse('svgFeatures', problem);
    }
    let metadata: Metadata;
    try {
      metadata = await sharp(input.bytes, options).metadata();
    } catch (error) {
      return refuse(isPixelLimit(error) ? 'tooManyPixels' : 'notAnImage');
    }
    const format = formats.find((accepted) => accepted === metadata.format);
    if (!format || !input.accepts.includes(format)) return refuse('wrongFormat');
    let density: number | undefined;
    if (format === 'svg') {
      const problem = svgProblem();
      if (problem) return refuse('svgFeatures', problem);
      // librsvg renders at 72 dpi for the SVG's own size: scaled down here, it draws fewer pixels.
      density = Math.max(1, 72 * svgScale(metadata, input));
    }
    let stored: { data: Buffer; info: OutputInfo };
    try {
      // rotate() applies the EXIF orientation before the metadata (EXIF, GPS, XMP) is dropped.
      const pipeline = sharp(input.bytes, { ...options, ...(density === undefined ? {} : { density }) })
        .timeout({ seconds: input.timeoutSeconds })
        .rotate()
        .resize({
          width: input.maxSide,
          height: input.maxHeight ?? input.maxSide,
          fit: 'inside',
          withoutEnlargement: true,
        });
      stored =
        input.output === 'jpeg'
          ? await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }).toBuffer({
              resolveWithObject: true,
            })
          : await pipeline.png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
    } catch (error) {
      return refuse(isPixelLimit(error) ? 'tooManyPixels' : 'damaged');
    }
    const transfer: ArrayBuffer[] = [];
    const image = encoded(stored.data, stored.info, input.output === 'jpeg' ? 'image/jpeg' : 'image/png', transfer);
    const print =
      input.printSide === undefined ? undefined : await printCopy(sharp, stored.data, input.printSide, transfer);
    return { output: { image, ...(print ? { print } : {}) }, transfer };
  },
});
