/**
 * /r/{slug} and /estimate/{uuid}, answered by the API app with the built static shells (the Netlify
 * Function claims these paths, see netlify/functions/api.mts). A rewrite to a static file could only
 * ever answer 200 with one head for every agent: here an unknown id gets a real 404, and an agent's
 * page carries the agent's name in its head, for the link previewers that run no JavaScript.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono, type Context } from 'hono';
import type { Db } from '../../server/db.ts';
import { headersFor, parseHeaders } from '../../server/netlify-rules.ts';
import { agentParams, findPublicAgent } from '../agents/agents.server.ts';
import { escapeHtml } from '../email/templates.ts';
import { estimateParams, findEstimate } from '../estimate/estimate.server.ts';

/**
 * The paths these pages answer. netlify/functions/api.mts repeats them as literals (Netlify reads
 * its config without running it), with preferStatic, so the shells' own files stay static.
 */
export const SHELL_PAGE_PATHS = ['/r/*', '/estimate/*'];

export interface ShellPageDeps {
  db: Db;
  /** The built site: its shells (r/index.html, estimate/index.html) and its `_headers`. */
  distDir: string;
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

/** The id after the route's prefix: `/r/alexmorgan/` → `alexmorgan`. */
const idAfter = (prefix: string, path: string) => path.slice(prefix.length).replace(/\/$/, '');

export function shellPageRoutes({ db, distDir, siteUrl, logError }: ShellPageDeps): Hono {
  const app = new Hono();

  /**
   * The shell with the head of what `lookup` found (200), or with `notFoundHead` (404), and the
   * headers `_headers` gives the path (Netlify applies `_headers` only to the files it serves
   * itself, not to a function's answers).
   */
  const answer = async (
    c: Context,
    shell: string,
    lookup: Promise<{ found: boolean; head: HeadChanges }>,
    notFoundHead: HeadChanges,
  ): Promise<Response> => {
    try {
      const [html, headerRules, { found, head }] = await Promise.all([
        readFile(join(distDir, shell), 'utf8'),
        readFile(join(distDir, '_headers'), 'utf8'),
        lookup,
      ]);
      const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8' });
      for (const [name, value] of headersFor(parseHeaders(headerRules), c.req.path)) headers.append(name, value);
      if (!found) headers.set('X-Robots-Tag', mergeNoindex(headers.get('X-Robots-Tag')));
      return new Response(withHead(html, found ? head : notFoundHead), { status: found ? 200 : 404, headers });
    } catch (error) {
      // A missing shell (a build without it, or a function deployed without its included_files).
      logError(error, c.req.raw);
      return c.text('This page could not be loaded just now. Please try again in a moment.', 500);
    }
  };

  app.get('/r/*', (c) => {
    const params = agentParams.safeParse({ slug: idAfter('/r/', c.req.path) });
    const lookup = params.success
      ? findPublicAgent(db, params.data.slug).then((agent) => {
          if (!agent) return { found: false, head: {} };
          const name = `${agent.first_name} ${agent.last_name}`;
          const title = `${name}'s Net to Seller Calculator · Long Island`;
          const description =
            `Estimate what you would walk away with from a Long Island home sale with ${name}` +
            `${agent.brokerage ? ` of ${agent.brokerage}` : ''}: commission, New York State transfer tax and fees.`;
          const url = escapeHtml(`${siteUrl(c.req.raw)}/r/${agent.slug}`);
          return {
            found: true,
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
          };
        })
      : Promise.resolve({ found: false, head: {} });
    return answer(c, 'r/index.html', lookup, { add: [`<meta name="robots" content="noindex">`] });
  });

  // The shell is private as built (PageHead's privateLink, and `_headers` for /estimate/*): the
  // head names no seller and no URL and is noindex already, whatever the estimate.
  app.get('/estimate/*', (c) => {
    const params = estimateParams.safeParse({ uuid: idAfter('/estimate/', c.req.path) });
    const lookup = params.success
      ? findEstimate(db, params.data.uuid.toLowerCase()).then((row) => ({ found: row !== undefined, head: {} }))
      : Promise.resolve({ found: false, head: {} });
    return answer(c, 'estimate/index.html', lookup, {});
  });

  return app;
}

/** `noindex` added to what `_headers` already says (`noindex, nofollow` stays as it is). */
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
