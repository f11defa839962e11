/**
 * The browser's side of decision 0027, used by every image upload (UploadField, and the profile
 * photo's crop tool): a picked image is scaled down to what the server keeps of it (`StoredSize`)
 * and re-encoded until it weighs at most UPLOAD_IMAGE_BYTES, so that its request fits Netlify's
 * request limit. Only the platform: createImageBitmap, OffscreenCanvas (a <canvas> where there is
 * none) and their encoders. The server re-encodes whatever arrives with sharp all the same.
 */
import { fittedSize, UPLOAD_IMAGE_BYTES, type StoredSize } from '../../../ui/uploads.ts';

/** The picked file is not an image this browser can read. */
export class UnreadableImage extends Error {}

/** Even scaled down to a thumbnail the image does not fit one request (never seen in practice). */
export class ImageTooHeavy extends Error {}

/** The part of a source to draw, in the source's own pixels. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Encoding {
  type: 'image/jpeg' | 'image/png' | 'image/webp';
  quality?: number;
}

/** The qualities a photo is tried at, after the caller's first one, before its size is reduced. */
const JPEG_QUALITIES = [0.85, 0.75];
/** Each further attempt draws the image this much smaller. */
const SHRINK = 0.75;
/** Below this many pixels a side the image is not worth sending. */
const SMALLEST_SIDE = 32;

/**
 * At each size, in order: a logo as PNG (transparency kept), else as WebP (transparency kept too,
 * far smaller for a photo-like logo; a browser that cannot encode WebP gives PNG again); a photo
 * as JPEG at falling qualities.
 */
function encodingsFor(output: StoredSize['output'], firstQuality: number): Encoding[] {
  return output === 'png'
    ? [{ type: 'image/png' }, { type: 'image/webp', quality: 0.9 }]
    : [firstQuality, ...JPEG_QUALITIES.filter((quality) => quality < firstQuality)].map((quality) => ({
        type: 'image/jpeg',
        quality,
      }));
}

type Canvas2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

/** A canvas of `width` x `height` and its 2D context: an OffscreenCanvas where the browser has one with 2D. */
function canvasOf(width: number, height: number): { encode: (encoding: Encoding) => Promise<Blob>; context: Canvas2D } {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (context) return { context, encode: (encoding) => canvas.convertToBlob(encoding) };
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new UnreadableImage('This browser cannot draw images');
  return {
    context,
    encode: (encoding) =>
      new Promise((resolve, reject) =>
        canvas.toBlob(
          (blob) => (blob ? resolve(blob) : reject(new UnreadableImage('This browser could not encode the image'))),
          encoding.type,
          encoding.quality,
        ),
      ),
  };
}

/**
 * `region` of `source` scaled down (never up) to fit `size`, encoded as `size.output` asks, and
 * made smaller (a lower quality, then fewer pixels) until it weighs at most UPLOAD_IMAGE_BYTES.
 * A photo is drawn on white (a JPEG has no transparency; the server flattens on white too).
 * `firstQuality` is a photo's first JPEG quality (the crop tool's spec: 0.95).
 */
export async function encodeImage(
  source: CanvasImageSource,
  region: Region,
  size: StoredSize,
  firstQuality = 0.92,
): Promise<Blob> {
  let { width, height } = fittedSize(region.width, region.height, size);
  while (Math.max(width, height) >= SMALLEST_SIDE) {
    const { context, encode } = canvasOf(width, height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    if (size.output === 'jpeg') {
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
    }
    context.drawImage(source, region.x, region.y, region.width, region.height, 0, 0, width, height);
    for (const encoding of encodingsFor(size.output, firstQuality)) {
      const blob = await encode(encoding);
      if (blob.size <= UPLOAD_IMAGE_BYTES) return blob;
    }
    width = Math.max(1, Math.round(width * SHRINK));
    height = Math.max(1, Math.round(height * SHRINK));
  }
  throw new ImageTooHeavy('This image cannot be made small enough to upload; please choose another file.');
}

/** The picked file decoded (its EXIF orientation applied), with its size; closes nothing. */
async function decode(
  file: Blob,
): Promise<{ source: CanvasImageSource; width: number; height: number; done: () => void }> {
  try {
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, width: bitmap.width, height: bitmap.height, done: () => bitmap.close() };
  } catch {
    // createImageBitmap reads no SVG in some browsers: an <img> does.
  }
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    if (image.naturalWidth === 0 || image.naturalHeight === 0) throw new UnreadableImage('No pixels');
    return {
      source: image,
      width: image.naturalWidth,
      height: image.naturalHeight,
      done: () => URL.revokeObjectURL(url),
    };
  } catch {
    URL.revokeObjectURL(url);
    throw new UnreadableImage('This file is not an image the browser can read');
  }
}

/**
 * Throws UnreadableImage unless the browser can decode `file`: a text file named .jpg carries the
 * type image/jpeg (browsers type a file by its name) and is caught only here (newcomer audit minor 8).
 */
export async function checkReadable(file: Blob): Promise<void> {
  (await decode(file)).done();
}

/** Types the server reads that a browser can send as they are. */
const SENDABLE = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * The picked `file` as it should be uploaded for an image the server stores as `size`: the file
 * itself when it is already no larger than what is kept and light enough (nothing lost), an SVG as
 * it is when light enough (the server rasterises it), else encodeImage of the whole image. Throws
 * UnreadableImage or ImageTooHeavy.
 */
export async function fitImage(file: File, size: StoredSize): Promise<Blob> {
  if (file.type === 'image/svg+xml' && file.size <= UPLOAD_IMAGE_BYTES) return file;
  const image = await decode(file);
  try {
    const fitted = fittedSize(image.width, image.height, size);
    const keptWhole = fitted.width === image.width && fitted.height === image.height;
    if (keptWhole && SENDABLE.has(file.type) && file.size <= UPLOAD_IMAGE_BYTES) return file;
    return await encodeImage(image.source, { x: 0, y: 0, width: image.width, height: image.height }, size);
  } finally {
    image.done();
  }
}

/** `blob` as a data URL (what the JSON upload routes take). */
export function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener('load', () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new UnreadableImage('Not read')),
    );
    reader.addEventListener('error', () => reject(new UnreadableImage('Not read')));
    reader.readAsDataURL(blob);
  });
}
