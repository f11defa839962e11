import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { Hono } from 'hono';
import { SHELL_PAGE_PATHS } from './shell-pages.server.ts';
import { LEGACY_SOLD_PATH, LEGACY_TOWN_LOGO_PATH, type AppDeps } from './api-app.ts';
import { createApi } from './app.ts';
import { applyCaptures, headersFor, matchPath, parseHeaders, parseRedirects } from '../platform/netlify-rules.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** A URL path decoded, or undefined when its percent-encoding is malformed (decodeURIComponent throws). */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** One build folder of the site and its routing rules, read once. */
interface ServedSite {
  root: string;
  redirects: ReturnType<typeof parseRedirects>;
  headerRules: ReturnType<typeof parseHeaders>;
}

function readSite(dir: string): ServedSite {
  const root = resolve(dir);
  const readRules = (name: string) => {
    const path = join(root, name);
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  return { root, redirects: parseRedirects(readRules('_redirects')), headerRules: parseHeaders(readRules('_headers')) };
}

/**
 * The build folder the site server serves, switched to a new build in one step: a request reads
 * `site` once when it begins, so it is served wholly from the old folder or wholly from the new.
 */
export interface SiteFolder {
  readonly site: ServedSite;
  /** Serves `dir` from the next request on (its _redirects and _headers read first). */
  swap(dir: string): void;
}

export function siteFolder(dir: string): SiteFolder {
  let site = readSite(dir);
  return {
    get site() {
      return site;
    },
    swap(next) {
      site = readSite(next);
    },
  };
}

/**
 * The production site on one local port: the API app (built here from `deps`) under /api and the
 * static build, routed by the build's own `_redirects` and `_headers` the way Netlify routes them.
 * The app asks this site for the shells of its pages (AppDeps.fetchSite) as it asks the CDN there.
 */
/** Netlify's documented Cache-Control of a static file without one of its own. */
export const NETLIFY_STATIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

export function createSiteServer(deps: AppDeps, dist: string | SiteFolder): Hono {
  const folder = typeof dist === 'string' ? siteFolder(dist) : dist;

  /** The file a URL path names, as Netlify resolves it (exact, then index.html, then .html). */
  const fileFor = ({ root }: ServedSite, path: string): string | undefined => {
    const decoded = decodedPath(path);
    // Malformed percent-encoding (`/%E0%A4%A`) names no file: a 404, as on Netlify, not a 500.
    if (decoded === undefined) return undefined;
    const relative = normalize(decoded).replace(/^(\.\.[/\\])+/, '');
    const base = join(root, relative);
    if (!base.startsWith(root)) return undefined;
    for (const candidate of [base, join(base, 'index.html'), `${base}.html`]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return undefined;
  };

  const send = async ({ headerRules }: ServedSite, file: string, status: number, path: string) => {
    const headers = new Headers({ 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    for (const [name, value] of headersFor(headerRules, path)) headers.append(name, value);
    // What Netlify's CDN gives a static file that _headers gives none: browsers always revalidate
    // (https://docs.netlify.com/build/caching/caching-overview/, default caching behavior).
    if (!headers.has('cache-control')) headers.set('Cache-Control', NETLIFY_STATIC_CACHE_CONTROL);
    return new Response(await readFile(file), { status, headers });
  };

  /** The build's files, routed by `_redirects`, as the CDN serves them (no function). */
  const files = new Hono();
  files.on(['GET', 'HEAD'], '*', async (c) => {
    const path = c.req.path;
    const site = folder.site;
    const file = fileFor(site, path);
    for (const rule of site.redirects) {
      if (file && !rule.force) break;
      const captures = matchPath(rule.from, path);
      if (!captures) continue;
      const target = applyCaptures(rule.to, captures);
      if (rule.status >= 300 && rule.status < 400) {
        return new Response(null, { status: rule.status, headers: { Location: target } });
      }
      const rewritten = fileFor(site, target);
      if (rewritten) return send(site, rewritten, rule.status, path);
    }
    if (file) return send(site, file, 200, path);
    const notFound = fileFor(site, '/404.html');
    return notFound ? send(site, notFound, 404, path) : c.text('Not found', 404);
  });

  const api = createApi({ ...deps, fetchSite: async (url) => files.fetch(new Request(url)) });
  const site = new Hono();
  // As on Netlify, where the function's path claims /api/*: the API answers every one of them.
  site.all('/api/*', (c) => api.fetch(c.req.raw, c.env));
  site.all(LEGACY_SOLD_PATH, (c) => api.fetch(c.req.raw, c.env));
  site.all(LEGACY_TOWN_LOGO_PATH, (c) => api.fetch(c.req.raw, c.env));
  // The function claims the dynamic pages too, before any rule of _redirects, but with preferStatic:
  // a file at the path (the shells themselves, /r/ and /estimate/) is still served as a file.
  for (const path of SHELL_PAGE_PATHS) {
    site.all(path, (c, next) => (fileFor(folder.site, c.req.path) ? next() : api.fetch(c.req.raw, c.env)));
  }
  site.route('/', files);
  return site;
}
