// npm run check:site — checks the built site (run `npx astro build` first; another directory can
// be given as the first argument):
//   1. html-validate on every HTML file, with the repository's .htmlvalidate.json: zero errors;
//   2. every internal reference in every page (a, area, link, script, img and source src/srcset,
//      Astro islands' component and renderer URLs, og:/twitter: image and url metas, same-page and
//      cross-page #fragments), in CSS url()s, in the sitemaps and in robots.txt must resolve to a
//      file of the build or a 200 rewrite of its _redirects, routed as the server routes them
//      (a 404 rewrite such as the town-not-found rule is a broken link; so is a link to a redirect);
//      the sitemaps list no page that says noindex.
//      /api/… is not checked; external URLs are not fetched.
// Prints each problem once with the places it occurs (file:line:column; `--all` lists every place,
// not just the first few), then `site: N pages, N links checked, N problems`; exits non-zero on any.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HtmlValidate, Parser, type ConfigData, type HtmlElement } from 'html-validate';
import {
  createRouter,
  listFiles,
  sitemapFiles,
  sitemapLocations,
  shellFiles,
  type Route,
} from '../tests/support/site-pages.ts';

const args = process.argv.slice(2);
const SHOW_ALL = args.includes('--all');
const DIST = args.find((arg) => !arg.startsWith('--')) ?? 'dist';
/** Places listed per problem unless --all. */
const PLACES_SHOWN = 8;
const CONFIG_FILE = join(import.meta.dirname, '..', '.htmlvalidate.json');
/** A stand-in origin for the site's own pages, against which relative references are resolved. */
const LOCAL = 'http://site.invalid';

interface Problem {
  /** File of the build (relative to dist/) and where in it. */
  where: string;
  message: string;
}

/** Reads a JSON file that may hold `//` and `/* *\/` comments and trailing commas. */
function readJsonWithComments(path: string): unknown {
  const text = readFileSync(path, 'utf8')
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, string?: string) => string ?? '')
    .replace(
      /("(?:\\.|[^"\\])*")|,(\s*[\]}])/g,
      (_match, string?: string, closing?: string) => string ?? closing ?? '',
    );
  return JSON.parse(text);
}

/** html-validate checks the configuration against its own schema when it loads it. */
function isConfigData(value: unknown): value is ConfigData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The references an element makes, by selector and attribute (`srcset` holds several). */
const REFERENCES: { selector: string; attribute: string; srcset?: boolean }[] = [
  { selector: 'a[href]', attribute: 'href' },
  { selector: 'area[href]', attribute: 'href' },
  { selector: 'link[href]', attribute: 'href' },
  { selector: 'script[src]', attribute: 'src' },
  { selector: 'img[src]', attribute: 'src' },
  { selector: 'img[srcset]', attribute: 'srcset', srcset: true },
  { selector: 'source[src]', attribute: 'src' },
  { selector: 'source[srcset]', attribute: 'srcset', srcset: true },
  { selector: 'video[poster]', attribute: 'poster' },
  { selector: 'astro-island[component-url]', attribute: 'component-url' },
  { selector: 'astro-island[renderer-url]', attribute: 'renderer-url' },
  { selector: 'astro-island[before-hydration-url]', attribute: 'before-hydration-url' },
  { selector: 'meta[property="og:image"]', attribute: 'content' },
  { selector: 'meta[property="og:url"]', attribute: 'content' },
  { selector: 'meta[name="twitter:image"]', attribute: 'content' },
];
/** <link> relations whose href is an origin to connect to, not a resource. */
const CONNECTION_HINTS = new Set(['preconnect', 'dns-prefetch']);

function srcsetUrls(value: string): string[] {
  return value
    .split(/,\s+/)
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

const cssUrls = (css: string) =>
  [...css.matchAll(/url\(\s*(['"]?)([^'")]*?)\1\s*\)/g)].map(([, , url = '']) => url).filter(Boolean);

/** The URL a file of the build is served at (`a/index.html` → `/a/index.html`, which resolves like `/a/`). */
const urlOfFile = (file: string) => `/${file}`;

async function main(): Promise<void> {
  if (!existsSync(join(DIST, 'index.html'))) {
    console.error(`No built site in ${DIST}/: run \`npx astro build\` first.`);
    process.exit(2);
  }
  const configData = readJsonWithComments(CONFIG_FILE);
  if (!isConfigData(configData)) throw new Error(`${CONFIG_FILE} must hold a JSON object`);
  const htmlvalidate = new HtmlValidate(configData);

  const files = listFiles(DIST);
  const htmlFiles = files.filter((file) => file.endsWith('.html'));
  const router = createRouter(DIST);
  const shells = shellFiles(router.rules, new Set(files));
  const problems: Problem[] = [];
  let linksChecked = 0;

  // 1. HTML validation.
  for (const file of htmlFiles) {
    const report = await htmlvalidate.validateFile(join(DIST, file));
    for (const result of report.results) {
      for (const message of result.messages) {
        const text = `${message.message} (${message.ruleId})`;
        if (message.severity >= 2) problems.push({ where: `${file}:${message.line}:${message.column}`, message: text });
        else console.warn(`warning  ${file}:${message.line}:${message.column}  ${text}`);
      }
    }
  }

  // 2. References.
  const documents = new Map<string, HtmlElement>();
  const parse = async (file: string) => {
    let root = documents.get(file);
    if (!root) {
      const config = await htmlvalidate.getConfigFor(join(DIST, file));
      const data = readFileSync(join(DIST, file), 'utf8');
      root = new Parser(config).parseHtml({ data, filename: file, line: 1, column: 1, offset: 0 });
      documents.set(file, root);
    }
    return root;
  };
  const hasFragment = async (file: string, fragment: string) => {
    if (fragment === '' || fragment.toLowerCase() === 'top') return true;
    const root = await parse(file);
    return root.querySelectorAll('[id], a[name]').some((element) => {
      return element.id === fragment || element.getAttributeValue('name') === fragment;
    });
  };

  // The site's own origin, from the sitemaps: absolute URLs there are internal links too.
  const sitemaps = sitemapFiles(DIST);
  const siteOrigins = new Set(
    sitemaps.flatMap((file) => sitemapLocations(readFileSync(file, 'utf8'))).map((url) => new URL(url).origin),
  );
  const routes = new Map<string, Route>();
  const routeOf = (path: string) => {
    let route = routes.get(path);
    if (!route) {
      route = router.route(path);
      routes.set(path, route);
    }
    return route;
  };

  /** Checks one reference made from `file` (the page or stylesheet it is in, relative to dist/). */
  const check = async (file: string, where: string, what: string, raw: string) => {
    const value = raw.trim();
    const report = (message: string) => problems.push({ where, message: `${what} "${value}": ${message}` });
    if (value === '') return report('empty URL');
    if (/^(mailto|tel|sms|data|blob|javascript):/i.test(value)) return;
    let url: URL;
    try {
      url = new URL(value, `${LOCAL}${urlOfFile(file)}`);
    } catch {
      return report('not a valid URL');
    }
    const internal = url.origin === LOCAL || siteOrigins.has(url.origin);
    if (!internal) return; // External: not fetched.
    if (url.pathname.startsWith('/api/')) return; // The API: not checked.
    linksChecked += 1;
    const sameDocument = url.origin === LOCAL && value.startsWith('#');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return report('badly encoded path');
    }
    const fragment = url.hash.slice(1);
    if (sameDocument) {
      if (!(await hasFragment(file, decodeURIComponent(fragment)))) report(`no element with id "${fragment}" here`);
      return;
    }
    const route = routeOf(path);
    if (route.kind === 'missing') return report(`no such file in ${DIST}/ and no 200 rewrite in _redirects matches`);
    if (route.kind === 'redirect') return report(`redirects (${route.status}) to ${route.to}: link to that instead`);
    if (route.kind === 'rewrite' && route.status !== 200) {
      return report(`answered ${route.status} with ${route.file} (rule ${route.rule.from} in _redirects)`);
    }
    // The sitemap lists pages to index: not the shell of a dynamic route, nor a not-found page.
    if (what === 'sitemap URL' && (route.kind === 'rewrite' || shells.has(route.file))) {
      return report(
        `${route.file} is the target of a rewrite in _redirects (a dynamic route's shell or a not-found page), not a page to index`,
      );
    }
    // Nor a page that asks not to be indexed (astro.config.mjs's sitemap filter must leave it out).
    if (what === 'sitemap URL' && route.kind === 'file' && route.file.endsWith('.html')) {
      const robots = (await parse(route.file)).querySelector('meta[name="robots"]')?.getAttributeValue('content');
      if (robots?.includes('noindex')) return report(`${route.file} says noindex: leave it out of the sitemap`);
    }
    if (fragment && route.kind === 'file' && route.file.endsWith('.html')) {
      if (!(await hasFragment(route.file, decodeURIComponent(fragment)))) {
        report(`${route.file} has no element with id "${fragment}"`);
      }
    }
  };

  for (const file of htmlFiles) {
    const root = await parse(file);
    for (const { selector, attribute, srcset } of REFERENCES) {
      for (const element of root.querySelectorAll(selector)) {
        if (element.tagName === 'link' && CONNECTION_HINTS.has(element.getAttributeValue('rel') ?? '')) continue;
        const value = element.getAttributeValue(attribute) ?? '';
        const where = `${file}:${element.location.line}:${element.location.column}`;
        const what = `<${element.tagName} ${attribute}>`;
        for (const url of srcset ? srcsetUrls(value) : [value]) await check(file, where, what, url);
      }
    }
    for (const style of root.querySelectorAll('style')) {
      const where = `${file}:${style.location.line}:${style.location.column}`;
      for (const url of cssUrls(style.textContent)) await check(file, where, 'CSS url()', url);
    }
  }
  for (const file of files.filter((name) => name.endsWith('.css'))) {
    for (const url of cssUrls(readFileSync(join(DIST, file), 'utf8'))) await check(file, file, 'CSS url()', url);
  }
  for (const file of sitemaps) {
    const name = file.slice(DIST.length).replace(/^[/\\]+/, '');
    for (const url of sitemapLocations(readFileSync(file, 'utf8'))) {
      const what = name === 'sitemap-index.xml' ? 'sitemap index entry' : 'sitemap URL';
      await check(name, name, what, url);
    }
  }
  if (siteOrigins.size > 1) {
    problems.push({ where: 'sitemaps', message: `URLs of several origins: ${[...siteOrigins].join(', ')}` });
  }
  if (files.includes('robots.txt')) {
    const robots = readFileSync(join(DIST, 'robots.txt'), 'utf8');
    for (const [, url = ''] of robots.matchAll(/^\s*sitemap:\s*(\S+)/gim)) {
      await check('robots.txt', 'robots.txt', 'Sitemap', url);
    }
  }

  // One entry per problem, with every place it occurs (a broken footer link is one problem on every page).
  const byMessage = new Map<string, string[]>();
  for (const { where, message } of problems) {
    const places = byMessage.get(message) ?? [];
    if (!places.includes(where)) places.push(where);
    byMessage.set(message, places);
  }
  const occurrences = [...byMessage.values()].reduce((sum, places) => sum + places.length, 0);
  if (byMessage.size > 0) {
    console.log(
      `Problems in ${DIST}/ (file:line:column of each place${SHOW_ALL ? '' : `, first ${PLACES_SHOWN}; --all lists every one`}):`,
    );
    for (const [message, places] of byMessage) {
      const shown = SHOW_ALL ? places : places.slice(0, PLACES_SHOWN);
      const more = places.length - shown.length;
      console.log(`\n  ${message}`);
      console.log(
        `    ${places.length === 1 ? 'at' : `${places.length} places:`} ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`,
      );
    }
    console.log('');
  }
  console.log(
    `site: ${htmlFiles.length} pages, ${linksChecked} links checked, ${byMessage.size} problems` +
      (occurrences > byMessage.size ? ` (${occurrences} places)` : ''),
  );
  process.exitCode = byMessage.size === 0 ? 0 : 1;
}

await main();
