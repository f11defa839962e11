/**
 * The pages of the built site (dist/), and how the site routes a path to a file there, for the
 * tooling that checks every page (scripts/check-site.ts, tests/e2e/every-page.spec.ts,
 * scripts/bench-web.ts). Nothing here knows which pages exist: it reads the build.
 *
 * Routing follows src/app/site-server.ts (and so Netlify): a file at the path wins unless a
 * forced rule (`200!`) matches; then the rules of `_redirects` in order; 200 rules are rewrites.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { applyCaptures, matchPath, parseRedirects, type RedirectRule } from '../../src/platform/netlify-rules.ts';

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
export function listFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(relative(dir, path).split(sep).join('/'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return files.sort();
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The `<loc>` URLs of a sitemap or a sitemap index, in document order. */
export function sitemapLocations(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]*?)\s*<\/loc>/g)].map(([, loc = '']) =>
    loc.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name] ?? ''),
  );
}

/**
 * The path a page is tested and linked at: no origin, query or fragment, and no trailing slash
 * except for the home page (`https://x.com/a/b/` → `/a/b`). The site serves both forms.
 */
export function pagePath(url: string): string {
  const { pathname } = new URL(url, 'http://site.invalid');
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The page path of an HTML file of the build: `index.html` → `/`, `a/b/index.html` → `/a/b`, `x.html` → `/x`. */
export function pathOfHtmlFile(file: string): string {
  const path = `/${file}`.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '');
  return pagePath(path === '' ? '/' : path);
}

/** The file (relative to dist/) a URL path names, by the candidates the server tries. */
function fileCandidates(path: string): string[] {
  const relativePath = posix.normalize(path).replace(/^\/+/, '');
  if (relativePath === '' || relativePath === '.') return ['index.html'];
  const base = relativePath.replace(/\/+$/, '');
  return [base, `${base}/index.html`, `${base}.html`];
}

/**
 * The files the server answers for other paths: the targets of rewrites (any status but a
 * redirect's) in `_redirects`, among `files`. Those of 200 rules are the static shells of dynamic
 * routes (`/estimate/* /estimate/index.html 200` → `estimate/index.html`); those of 404 rules are
 * not-found pages (`/long-island-real-estate/* /town-not-found/index.html 404`). Neither is a page.
 */
export function shellFiles(rules: RedirectRule[], files: ReadonlySet<string>): Set<string> {
  const shells = new Set<string>();
  for (const rule of rules) {
    if ((rule.status >= 300 && rule.status < 400) || /^[a-z]+:/i.test(rule.to)) continue;
    const target = rule.to.split(/[?#]/)[0] ?? '';
    const file = fileCandidates(target).find((candidate) => files.has(candidate));
    if (file) shells.add(file);
  }
  return shells;
}

/**
 * The pages among the files of a build, when it has no sitemap: every `.html` file but `404.html`,
 * the static shells of dynamic routes and the not-found pages of `_redirects`. Sorted, home first.
 */
export function pagesFromFiles(files: readonly string[], redirectsText: string): string[] {
  const all = new Set(files);
  const shells = shellFiles(parseRedirects(redirectsText), all);
  const pages = files
    .filter((file) => file.endsWith('.html') && file !== '404.html' && !shells.has(file))
    .map(pathOfHtmlFile);
  return sortPages(pages);
}

function sortPages(paths: Iterable<string>): string[] {
  return [...new Set(paths)].sort((a, b) => (a === '/' ? -1 : b === '/' ? 1 : a.localeCompare(b)));
}

/** The sitemap files of a build: those named by `sitemap-index.xml`, else any `sitemap*.xml` at the root. */
export function sitemapFiles(distDir: string): string[] {
  const index = join(distDir, 'sitemap-index.xml');
  if (existsSync(index)) {
    return sitemapLocations(readFileSync(index, 'utf8'))
      .map((url) => join(distDir, pagePath(url)))
      .filter((file) => existsSync(file));
  }
  return listFiles(distDir)
    .filter((file) => /^sitemap[^/]*\.xml$/.test(file))
    .map((file) => join(distDir, file));
}

/** The URLs (with their origin) listed by the build's sitemaps; empty when it has none. */
export function sitemapUrls(distDir: string): string[] {
  return sitemapFiles(distDir).flatMap((file) => sitemapLocations(readFileSync(file, 'utf8')));
}

/**
 * The pages of the build in `distDir`, as paths (`/`, `/long-island-real-estate/suffolk-county`):
 * the sitemap's URLs when the build has one, else every HTML page (see `pagesFromFiles`).
 */
export function sitePages(distDir = 'dist'): string[] {
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error(`No built site in ${distDir}/ (run \`npx astro build\` first).`);
  }
  const urls = sitemapUrls(distDir);
  if (urls.length > 0) return sortPages(urls.map(pagePath));
  return pagesFromFiles(listFiles(distDir), readText(join(distDir, '_redirects')));
}

function readText(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** How the site answers a GET of a path. */
export type Route =
  | { kind: 'file'; file: string }
  /** Answered with `file` and the rule's status (200 for the shell of a dynamic route, 404 for not found). */
  | { kind: 'rewrite'; file: string; status: number; rule: RedirectRule }
  | { kind: 'redirect'; to: string; status: number; rule: RedirectRule }
  | { kind: 'missing' };

/** Routes URL paths to the files of the build in `distDir` as the local server and Netlify do. */
export function createRouter(distDir: string): { route(path: string): Route; rules: RedirectRule[] } {
  const rules = parseRedirects(readText(join(distDir, '_redirects')));
  const isFile = (file: string) => {
    const full = join(distDir, file);
    return existsSync(full) && statSync(full).isFile();
  };
  const fileFor = (path: string) => fileCandidates(path).find(isFile);
  return {
    rules,
    route(path: string): Route {
      const file = fileFor(path);
      for (const rule of rules) {
        if (file && !rule.force) break;
        const captures = matchPath(rule.from, path);
        if (!captures) continue;
        const target = applyCaptures(rule.to, captures);
        if (rule.status >= 300 && rule.status < 400) return { kind: 'redirect', to: target, status: rule.status, rule };
        const rewritten = fileFor(target.split(/[?#]/)[0] ?? '');
        if (rewritten) return { kind: 'rewrite', file: rewritten, status: rule.status, rule };
      }
      return file ? { kind: 'file', file } : { kind: 'missing' };
    },
  };
}

/**
 * The signed-in screens of `area` in the build: each `index.html` under `dist/dashboard` or
 * `dist/admin`, as its path (`/admin`, `/admin/leads`…), sorted. Measured signed in by
 * scripts/bench-web.ts and tests/e2e/light-pages.spec.ts.
 */
export function signedInScreens(area: 'dashboard' | 'admin', distDir = 'dist'): string[] {
  return listFiles(join(distDir, area))
    .filter((file) => file === 'index.html' || file.endsWith('/index.html'))
    .map((file) => `/${area}${file === 'index.html' ? '' : `/${file.slice(0, -'/index.html'.length)}`}`)
    .sort();
}
