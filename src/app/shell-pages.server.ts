/**
 * /r/{slug}, /estimate/{uuid} and /offers/{uuid}, answered by the API app with the built static shells (the Netlify
 * Function claims these paths, see netlify/functions/api.mts). A rewrite to a static file could only
 * ever answer 200 with one head for every agent: here an unknown id gets a real 404, and an agent's
 * page carries the agent's name in its head, for the link previewers that run no JavaScript.
 * /r/{slug} and /estimate/{uuid} also come with their island rendered from the data looked up, and
 * that data beside it for the browser, which loads React only on the visitor's intent (decision 0025).
 *
 * The shell is asked of the site itself (`/r/`, `/estimate/`, `/offers/`: files, served as files thanks to
 * preferStatic), so it comes with the headers the CDN gives that path from `_headers` (Netlify
 * applies `_headers` only to the files it serves, not to a function's answers), and the function
 * needs no copy of the build beside its code.
 */
import { Hono, type Context } from 'hono';
import { createElement, type ReactElement } from 'react';
import type { Db } from '../platform/db.ts';
import { CACHE_TAGS, EDITED_TTL, edgeCacheHeaders } from '../platform/edge-cache.ts';
import AgentCalculatorPage from '../features/agent-page/AgentCalculatorPage.tsx';
import { agentParams, findPublicAgent, publicAgentAnswer } from '../features/agents/agents.server.ts';
import { escapeHtml } from '../features/email/public/html.ts';
import { embedOriginsOf, frameAncestors, withFrameAncestors } from '../features/embed/public/embed-frame.server.ts';
import EstimatePage, { preparedByLineOf, type EstimatePageData } from '../features/estimate/EstimatePage.tsx';
import { estimateParams } from '../features/net-sheet/public/estimate-row.server.ts';
import { findEstimateSheet } from '../features/net-sheet/net-sheet.server.ts';
import { comparisonParams, findComparison } from '../features/net-sheet/offer-comparisons.server.ts';
import { ISLAND_END, islandDataId, LIGHT_ISLANDS, type LightIsland } from '../ui/light-island.ts';

/**
 * The paths these pages answer. netlify/functions/api.mts repeats them as literals (Netlify reads
 * its config without running it), with preferStatic, so the shells' own files stay static.
 */
export const SHELL_PAGE_PATHS = ['/r/*', '/embed/*', '/estimate/*', '/offers/*'];

/** The shells' headers that the page answers carry on (security and robots; not length, caching or dates). */
const CARRIED_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'x-frame-options',
  'x-robots-tag',
];

/** A shell as the site serves it: its HTML and the headers to carry on. */
interface Shell {
  html: string;
  headers: [string, string][];
}

export interface ShellPageDeps {
  db: Db;
  /**
   * Fetches a file of the built site as visitors get it. Default: over HTTP from the request's own
   * origin (on Netlify the CDN; locally the site server, which serves it from dist/).
   */
  fetchSite?: (url: URL) => Promise<Response>;
  /** Origin of the page's own URL in its head (https://example.com, no trailing slash). */
  siteUrl: (request: Request) => string;
  logError: (error: unknown, request: Request) => void;
}

/** Changes to a shell's head: a new title, new `content` of existing metas, and tags to add. */
interface HeadChanges {
  title?: string;
  meta?: Record<string, string>;
  add?: string[];
}

/**
 * A page's island rendered on the server with its data (decision 0025): `page` is the island's
 * component with `data` as its props, the same element the browser hydrates (light-island.ts).
 */
interface RenderedIsland {
  island: LightIsland;
  page: ReactElement;
  data: unknown;
}

/**
 * What a page's lookup found: the head to give it, the island to render and, for a page the same for
 * every visitor, the cache tags it is kept at the edge under; or nothing (404, never kept).
 */
type Lookup =
  | {
      found: true;
      head: HeadChanges;
      island?: RenderedIsland;
      edgeTags?: string[];
      /** The embedded calculator's frame-ancestors directive, for the pages that may frame it (decision 0058). */
      frameAncestors?: string;
    }
  | { found: false };

/** The id after the route's prefix: `/r/alexmorgan/` → `alexmorgan`. */
const idAfter = (prefix: string, path: string) => path.slice(prefix.length).replace(/\/$/, '');

export function shellPageRoutes({ db, fetchSite = (url) => fetch(url), siteUrl, logError }: ShellPageDeps): Hono {
  const app = new Hono();
  /** Each shell is fetched once per instance: it changes only with a deploy, which starts new instances. */
  const shells = new Map<string, Promise<Shell>>();

  const loadShell = async (url: URL): Promise<Shell> => {
    const response = await fetchSite(url);
    if (!response.ok) throw new Error(`shell page: ${url.pathname} answered ${response.status}`);
    const headers: [string, string][] = [];
    for (const name of CARRIED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers.push([name, value]);
    }
    return { html: await response.text(), headers };
  };

  const shellFor = (request: Request, path: string): Promise<Shell> => {
    const url = new URL(path, request.url);
    let shell = shells.get(url.href);
    if (!shell) {
      shell = loadShell(url);
      // A failure is not kept: the next request tries again.
      shell.catch(() => shells.delete(url.href));
      shells.set(url.href, shell);
    }
    return shell;
  };

  /**
   * The shell with the head and the island of what `lookup` found (200), or with `notFoundHead`
   * (404), and the headers the site serves the shell with. A `private` page holds a seller's figures:
   * no cache keeps it.
   */
  const answer = async (
    c: Context,
    shell: string,
    lookup: Promise<Lookup>,
    { notFoundHead = {}, private: isPrivate = false }: { notFoundHead?: HeadChanges; private?: boolean } = {},
  ) => {
    try {
      const [{ html, headers: shellHeaders }, found] = await Promise.all([shellFor(c.req.raw, shell), lookup]);
      const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8' });
      for (const [name, value] of shellHeaders) headers.append(name, value);
      if (isPrivate) headers.set('Cache-Control', 'no-store');
      if (!found.found) {
        headers.set('X-Robots-Tag', mergeNoindex(headers.get('X-Robots-Tag')));
        return new Response(withHead(html, notFoundHead), { status: 404, headers });
      }
      if (found.frameAncestors !== undefined) {
        // Only the frame: every other page keeps the site's frame-ancestors 'none' and DENY.
        headers.set(
          'Content-Security-Policy',
          withFrameAncestors(headers.get('content-security-policy'), found.frameAncestors),
        );
        headers.delete('X-Frame-Options');
      }
      if (found.edgeTags)
        for (const [name, value] of edgeCacheHeaders(found.edgeTags, EDITED_TTL)) headers.set(name, value);
      const page = withHead(html, found.head);
      return new Response(found.island ? await withIsland(page, found.island, c.req.raw) : page, {
        status: 200,
        headers,
      });
    } catch (error) {
      // A shell the site cannot serve (a build without it).
      logError(error, c.req.raw);
      return c.text('This page could not be loaded just now. Please try again in a moment.', 500);
    }
  };

  /**
   * The page with its island rendered in the shell's container and its data beside it. Should the
   * rendering fail, the shell as built: its island then renders itself in the browser at once.
   */
  const withIsland = async (
    html: string,
    { island, page, data }: RenderedIsland,
    request: Request,
  ): Promise<string> => {
    try {
      // Loaded on the first page it renders, not at the function's start (render-island.server.ts).
      const { renderToString } = await import('./render-island.server.ts');
      const start = new RegExp(`<div [^>]*id="${island}"[^>]*>`).exec(html);
      const end = start ? html.indexOf(ISLAND_END, start.index) : -1;
      const close = start ? html.lastIndexOf('</div>', end) : -1;
      if (!start || end < 0 || close < start.index) throw new Error(`shell page: the shell has no island ${island}`);
      // `<` escaped: nothing in the data can end the script element; JSON.parse reads it back as is.
      const json = JSON.stringify(data).replace(/</g, '\\u003c');
      return [
        html.slice(0, start.index + start[0].length),
        renderToString(page),
        html.slice(close, end + ISLAND_END.length),
        `<script type="application/json" id="${islandDataId(island)}">${json}</script>`,
        html.slice(end + ISLAND_END.length),
      ].join('');
    } catch (error) {
      logError(error, request);
      return html;
    }
  };

  // The shells themselves (/r/, /estimate/, /offers/) are files, never answered here: this is where the
  // answers below fetch them from.
  /** The agent's calculator page of /r/{slug}, or of its frame /embed/{slug} (`embed`). */
  const agentPage = (c: Context, prefix: '/r/' | '/embed/', next: () => Promise<void>) => {
    const slug = idAfter(prefix, c.req.path);
    if (!slug) return next();
    const params = agentParams.safeParse({ slug });
    const lookup: Promise<Lookup> = params.success
      ? findPublicAgent(db, params.data.slug).then(async (agent): Promise<Lookup> => {
          if (!agent) return { found: false };
          const frame =
            prefix === '/embed/' ? { frameAncestors: frameAncestors(await embedOriginsOf(db, agent.id)) } : {};
          const name = `${agent.first_name} ${agent.last_name}`;
          const title = `${name}'s Net to Seller Calculator · Long Island`;
          const description =
            `Estimate what you would walk away with from a Long Island home sale with ${name}` +
            `${agent.brokerage ? ` of ${agent.brokerage}` : ''}: commission, New York State transfer tax and fees.`;
          const url = escapeHtml(`${siteUrl(c.req.raw)}/r/${agent.slug}`);
          const data = publicAgentAnswer(agent);
          return {
            found: true,
            ...frame,
            head: {
              title,
              meta: {
                description,
                'og:title': title,
                'og:description': description,
                'twitter:title': title,
                'twitter:description': description,
              },
              add: [`<link rel="canonical" href="${url}">`, `<meta property="og:url" content="${url}">`],
            },
            // Purged with GET /api/agents/public/{slug}, whose data it shows; a deploy (new shells) empties the CDN.
            edgeTags: [CACHE_TAGS.agent(agent.id)],
            island: {
              island: LIGHT_ISLANDS.agentPage,
              page: createElement(AgentCalculatorPage, { agent: data }),
              data,
            },
          };
        })
      : Promise.resolve({ found: false });
    return answer(c, prefix, lookup, { notFoundHead: { add: [`<meta name="robots" content="noindex">`] } });
  };
  app.get('/r/*', (c, next) => agentPage(c, '/r/', next));
  // The calculator framed on the agent's own site: the same page in a shell without the site's
  // chrome, framed only by the sites the agent lists.
  app.get('/embed/*', (c, next) => agentPage(c, '/embed/', next));

  // The shell is private as built (PageHead's privateLink, and `_headers` for /estimate/*): the
  // head names no seller and no URL and is noindex already, whatever the estimate. The body shows the
  // estimate, so no cache keeps the answer.
  app.get('/estimate/*', (c, next) => {
    const uuid = idAfter('/estimate/', c.req.path);
    if (!uuid) return next();
    const params = estimateParams.safeParse({ uuid });
    const lookup: Promise<Lookup> = params.success
      ? findEstimateSheet(db, params.data.uuid).then(async (found): Promise<Lookup> => {
          if (!found) return { found: false };
          const agent = await findPublicAgent(db, found.estimate.agent_slug);
          const data: EstimatePageData = {
            estimate: found.estimate,
            sheet: found.sheet,
            range: found.range,
            prepared_by: agent ? preparedByLineOf(agent) : null,
            agent_name: agent ? `${agent.first_name} ${agent.last_name}` : null,
          };
          return {
            found: true,
            head: {},
            island: { island: LIGHT_ISLANDS.estimatePage, page: createElement(EstimatePage, { data }), data },
          };
        })
      : Promise.resolve({ found: false });
    return answer(c, '/estimate/', lookup, { private: true });
  });

  // Offers compared on an estimate: private like it (privateLink, `_headers` for /offers/*).
  app.get('/offers/*', (c, next) => {
    const uuid = idAfter('/offers/', c.req.path);
    if (!uuid) return next();
    const params = comparisonParams.safeParse({ uuid });
    const lookup: Promise<Lookup> = params.success
      ? findComparison(db, params.data.uuid).then((row): Lookup => (row ? { found: true, head: {} } : { found: false }))
      : Promise.resolve({ found: false });
    return answer(c, '/offers/', lookup, { private: true });
  });

  return app;
}

/** `noindex` added to what the shell's headers already say (`noindex, nofollow` stays as it is). */
function mergeNoindex(current: string | null): string {
  if (!current) return 'noindex';
  return /\bnoindex\b/.test(current) ? current : `${current}, noindex`;
}

/**
 * The shell's HTML with `changes` applied to its head (values HTML-escaped here). Throws when the
 * shell lacks a tag it should have (PageHead.astro writes them), rather than answer a wrong head.
 */
function withHead(html: string, { title, meta = {}, add = [] }: HeadChanges): string {
  let result = html;
  /** Replaces the first match of `pattern`; `replacement` gets its first group. */
  const replace = (pattern: RegExp, what: string, replacement: (group: string) => string) => {
    const match = pattern.exec(result);
    if (!match) throw new Error(`shell page: the shell has no ${what}`);
    const end = match.index + match[0].length;
    result = `${result.slice(0, match.index)}${replacement(match[1] ?? '')}${result.slice(end)}`;
  };
  if (title !== undefined) replace(/<title>[^<]*<\/title>/, '<title>', () => `<title>${escapeHtml(title)}</title>`);
  for (const [key, value] of Object.entries(meta)) {
    const pattern = new RegExp(`(<meta (?:name|property)="${key}" content=")[^"]*"`);
    replace(pattern, `meta ${key}`, (start) => `${start}${escapeHtml(value)}"`);
  }
  replace(/<\/head>/, '</head>', () => `${add.join('')}</head>`);
  return result;
}
