/**
 * What one image upload may weigh, on both sides (decision 0027): the server refuses a larger
 * request body with 413, and the browser scales and re-encodes every picked image until it fits
 * (fit-image.ts). Each kind of image says how large the server stores it (`StoredSize`), so the
 * browser never sends more pixels than are kept.
 */

const MB = 1024 * 1024;

/**
 * The largest request body an upload route accepts, in bytes: the whole JSON or multipart body,
 * every field together. Netlify Functions buffer at most 6 MB of request, and base64-encode a
 * binary body on the way, so an upload must stay under 4.5 MB (the functions configuration page's
 * default values, https://docs.netlify.com/build/functions/configuration/, formerly
 * https://docs.netlify.com/build/functions/overview/#default-deployment-options); 4 MiB keeps a
 * margin under both readings of "MB".
 */
export const MAX_UPLOAD_BODY_BYTES = 4 * MB;

/** The 413 of every upload route, for a body over MAX_UPLOAD_BODY_BYTES (an API client that sends an image as it is). */
export const UPLOAD_TOO_LARGE = `The upload is larger than ${MAX_UPLOAD_BODY_BYTES / MB} MB, the most one request can carry: scale the image down (or compress it more) and send it again`;

/**
 * Room left in a body for everything but the image: the JSON around a data URL (its header, the
 * other fields) or the multipart boundaries and part headers.
 */
const ENVELOPE_BYTES = 4 * 1024;

/**
 * The most bytes of one image the browser sends: as base64 (4 characters per 3 bytes) inside a JSON
 * body with its other fields, or as a file part of a form, the request stays within
 * MAX_UPLOAD_BODY_BYTES.
 */
export const UPLOAD_IMAGE_BYTES = Math.floor((MAX_UPLOAD_BODY_BYTES - ENVELOPE_BYTES) / 4) * 3;

/** How large the server stores one kind of image (after its own sharp re-encode), and as what. */
export interface StoredSize {
  /** The longest side kept; larger images are scaled down, never up. */
  maxSide: number;
  /** The tallest kept, when less than maxSide (a town-page logo: 300 wide, 100 high at most). */
  maxHeight?: number;
  /** JPEG for photos (no transparency), PNG for logos (transparency kept). */
  output: 'jpeg' | 'png';
}

/** Width and height of a `width` x `height` image scaled down (never up) to fit `size`, its proportions kept. */
export function fittedSize(width: number, height: number, size: StoredSize): { width: number; height: number } {
  const scale = Math.min(1, size.maxSide / width, (size.maxHeight ?? size.maxSide) / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** "800 x 800", the largest stored, for the API's documentation. */
export const describeStoredSize = (size: StoredSize): string => `${size.maxSide} x ${size.maxHeight ?? size.maxSide}`;
