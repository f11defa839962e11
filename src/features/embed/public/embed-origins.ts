/**
 * The calculator embedded on an agent's own site (issue 26, decision 0058): the sites allowed to
 * frame it, as the dashboard edits them and the API stores them, and the addresses the snippet and
 * the frame use. No server code here: /dashboard/embed and the frame's script import it.
 */
import * as z from 'zod/mini';
import { EMBED_PATH } from './embed-links.ts';

export { EMBED_PATH, HEIGHT_MESSAGE, hostOriginOf } from './embed-links.ts';

/** The most sites an agent may list: enough for a site, its www twin and a few builders' previews. */
export const EMBED_ORIGINS_MAX = 10;
/** The API path of the signed-in agent's list. */
export const EMBED_SETTINGS_PATH = '/api/agents/me/embed';

export type OriginCheck = { ok: true; origin: string } | { ok: false; message: string };

/**
 * A site's address as the agent types it (`example.com`, `https://www.example.com/`), reduced to
 * the origin the browser compares with frame-ancestors: scheme, host in lower case, port only when
 * not the default. A path, query, fragment or user name is refused rather than dropped, so the agent
 * learns that a site is allowed as a whole. `allowHttp`: outside production only (local tests).
 */
export function normalizeOrigin(input: string, { allowHttp }: { allowHttp: boolean }): OriginCheck {
  const typed = input.trim();
  if (typed === '') return { ok: false, message: 'Enter the address of your site, e.g. https://www.example.com' };
  // A bare host name means https, the only scheme production sites are served over.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, message: `${typed} is not a web address, e.g. https://www.example.com` };
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    return { ok: false, message: 'The address must start with https://' };
  }
  if (url.username || url.password) return { ok: false, message: 'The address must not hold a user name or password' };
  if (url.pathname !== '/' || url.search || url.hash) {
    return { ok: false, message: `Enter the site only, without a page: ${url.origin}` };
  }
  // A host without a dot (`localhost` aside) is a typo, not a site (`https://examplecom`).
  if (!url.hostname.includes('.') && url.hostname !== 'localhost') {
    return { ok: false, message: `${url.hostname} is not a site's name, e.g. www.example.com` };
  }
  return { ok: true, origin: url.origin };
}

/**
 * PUT /api/agents/me/embed: the whole list, each address normalized (duplicates kept once). Whether
 * http is allowed is the server's to say (production or not): this schema takes both.
 */
export const embedOriginsSchema = z.object({
  origins: z.pipe(
    z
      .array(z.string({ error: 'Each site must be an address' }), { error: 'origins must be a list of addresses' })
      .check(z.maxLength(EMBED_ORIGINS_MAX, `List at most ${EMBED_ORIGINS_MAX} sites`)),
    z.transform((origins, context) => {
      const normalized: string[] = [];
      origins.forEach((typed, index) => {
        const check = normalizeOrigin(typed, { allowHttp: true });
        if (!check.ok) context.issues.push({ code: 'custom', message: check.message, input: typed, path: [index] });
        else if (!normalized.includes(check.origin)) normalized.push(check.origin);
      });
      return normalized;
    }),
  ),
});
export type EmbedOriginsInput = z.input<typeof embedOriginsSchema>;

/** The list as the API answers it. */
export const embedSettingsSchema = z.object({
  success: z.literal(true),
  origins: z.array(z.string()),
  /** The agent's slug, for the snippet. */
  slug: z.string(),
  message: z.optional(z.string()),
});
export type EmbedSettings = z.output<typeof embedSettingsSchema>;

/** The one-line snippet an agent pastes into their site. */
export const scriptSnippet = (site: string, slug: string) =>
  `<script src="${site}/embed.js" data-agent="${slug}" async></script>`;

/**
 * The alternative for site builders that refuse scripts: the frame alone, at a fixed height (it
 * cannot grow without the script), named by its page so leads still say where they came from.
 */
export const iframeSnippet = (site: string, slug: string) =>
  `<iframe src="${site}${EMBED_PATH}${slug}" title="Net to seller calculator" loading="lazy" ` +
  `style="width:100%;height:900px;border:0"></iframe>`;
