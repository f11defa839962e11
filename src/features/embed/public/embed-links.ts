/**
 * What the frame's own script needs of the embed (decision 0058), without zod: the frame's script
 * loads before any interaction, within the light pages' 15 KB gzip budget, so it imports no schema.
 */

/** The message the frame posts to its host page: its height in CSS pixels. */
export const HEIGHT_MESSAGE = 'netsheet:height';
/** The frame's path: /embed/{slug}. */
export const EMBED_PATH = '/embed/';

/**
 * The origin of a host page's address (`https://example.com/listing`), or null when it is not an
 * http(s) address: what the frame posts its height to and what the server checks against the list.
 */
export function hostOriginOf(hostPage: string | null | undefined): string | null {
  if (!hostPage) return null;
  try {
    const url = new URL(hostPage);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}
