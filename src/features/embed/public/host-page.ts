/**
 * A lead's host page and source from the embedded frame (decision 0058), on their own: the lead
 * schemas and forms import them, and every page and screen that imports those (the leads table
 * among them) should not carry the embed screen's schemas too.
 */
import * as z from 'zod/mini';
import { EMBED_SOURCE } from '../../lead-origin/public/lead-origin.ts';
import { EMBED_PATH, hostOriginOf } from './embed-links.ts';

/** The longest host page address kept with a lead (origin and path). */
export const HOST_PAGE_MAX = 500;

/** A lead's host page as sent by the frame: an http(s) address, its query and fragment dropped. */
export const hostPageSchema = z.pipe(
  z.nullish(
    z
      .string({ error: 'host_page must be an address' })
      .check(z.maxLength(HOST_PAGE_MAX, `host_page must be at most ${HOST_PAGE_MAX} characters`)),
  ),
  // An address that is no web page is dropped, not refused: a lead is never lost for it.
  z.transform((value) => {
    if (!value || hostOriginOf(value) === null) return null;
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  }),
);

/**
 * What a lead form inside the frame adds to its lead: the source `embed` and the host page that
 * embed.js named (the server keeps the page only for a listed site). Nothing on any other page.
 */
export function embedLeadFields({ pathname, search }: { pathname: string; search: string }): {
  source?: typeof EMBED_SOURCE;
  host_page?: string | null;
} {
  if (!pathname.startsWith(EMBED_PATH)) return {};
  const host = new URLSearchParams(search).get('host');
  return { source: EMBED_SOURCE, host_page: host ? host.slice(0, HOST_PAGE_MAX) : null };
}
