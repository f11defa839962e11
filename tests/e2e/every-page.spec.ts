// Every page of the built site (tests/support/site-pages.ts: its sitemap, else its HTML files), the
// featured agent's page /r/{slug} and a shared estimate /estimate/{uuid}: each answers 200,
// hydrates, has no WCAG 2.1 A/AA violation that axe finds, exactly one h1, a title, a meta
// description and a canonical link (the private estimate: none, and a robots noindex instead).
// Desktop project only. One page per worker, reused by its tests.
//
// The list is read from dist/ when this file loads; Playwright starts the webServer (which builds
// dist/) before it loads the test files, so the list is that of the build under test.
import { test as base, type ConsoleMessage, type Page } from '@playwright/test';
import * as z from 'zod';
import { parseEnv } from '../../src/platform/env.ts';
import { parseRedirects } from '../../src/platform/netlify-rules.ts';
import {
  createRouter,
  pagePath,
  pagesFromFiles,
  pathOfHtmlFile,
  shellFiles,
  sitemapLocations,
  sitePages,
} from '../support/site-pages.ts';
import { expect, expectNoAxeViolations, waitForIslands } from './fixtures.ts';

const DIST = 'dist';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const test = base.extend<{ sitePage: Page }, { sharedPage: Page }>({
  // One browser context and page per worker: pages are visited one after another in it.
  sharedPage: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch });
      await use(await context.newPage());
      await context.close();
    },
    { scope: 'worker' },
  ],
  // The shared page, failing the test on a console error or an uncaught exception (as fixtures.ts does).
  sitePage: async ({ sharedPage }, use) => {
    const errors: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      // /auth asks whether the visitor is signed in already (to send them on); signed out, that is a 401.
      const signedOutCheck = message.location().url.endsWith('/api/auth/me') && message.text().includes('401');
      if (message.type() === 'error' && !signedOutCheck) errors.push(message.text());
    };
    const onPageError = (error: Error) => errors.push(error.message);
    sharedPage.on('console', onConsole);
    sharedPage.on('pageerror', onPageError);
    await use(sharedPage);
    sharedPage.off('console', onConsole);
    sharedPage.off('pageerror', onPageError);
    expect(errors, 'console errors on the page').toEqual([]);
  },
});

// Traces of ~125 passing page visits cost more than the visits; a failure here names the page, the
// check and the axe rule, and any page can be traced on its own with --trace on.
test.use({ trace: 'off' });

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'every page is checked once, in the desktop project');
});

/** Scrolls each island not yet hydrated into view (for client:visible), then back to the top, and waits for all. */
async function hydrateAll(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const island of document.querySelectorAll('astro-island[ssr]')) {
      (island.firstElementChild ?? island).scrollIntoView({ block: 'center' });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    window.scrollTo(0, 0);
  });
  await waitForIslands(page);
}

/**
 * The checks every page passes. `path` is a page of the build, whose canonical URL is itself; a
 * private page (a shared estimate) names no canonical URL and is not to be indexed.
 */
async function checkPage(
  page: Page,
  path: string,
  { canonicalIsSelf, privateLink = false }: { canonicalIsSelf: boolean; privateLink?: boolean },
) {
  const response = await page.goto(path);
  expect(response?.status(), `HTTP status of ${path}`).toBe(200);
  await hydrateAll(page);

  // Soft: one run lists every problem of the page. The h1 may come from an island (the estimate's
  // name), so its check waits; the head is static, so those are read at once.
  await expect.soft(page.locator('h1'), 'exactly one h1').toHaveCount(1);
  expect.soft((await page.title()).trim(), 'a non-empty <title>').not.toBe('');
  const descriptions = await page
    .locator('meta[name="description"]')
    .evaluateAll((metas) => metas.map((meta) => meta.getAttribute('content') ?? ''));
  expect.soft(descriptions.length, 'one meta description').toBe(1);
  expect.soft(descriptions[0] ?? '', 'a non-empty meta description').toMatch(/\S/);
  const canonicals = await page
    .locator('link[rel="canonical"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  if (privateLink) {
    expect.soft(canonicals, 'no canonical link on a private page').toEqual([]);
    await expect.soft(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  } else {
    expect.soft(canonicals.length, 'one canonical link').toBe(1);
  }
  const [canonical] = canonicals;
  if (canonical !== undefined) {
    expect.soft(canonical, 'canonical URL is absolute').toMatch(/^https?:\/\/[^/]+(\/|$)/);
    if (canonicalIsSelf) expect.soft(pagePath(canonical), 'canonical URL names this page').toBe(pagePath(path));
  }
  await expectNoAxeViolations(page, WCAG_TAGS);
}

/**
 * The pages, read from dist/ by the runner when it loads this file. Its workers start after that and
 * inherit its environment, so they take the same list even if dist/ is rebuilt meanwhile (a worker
 * that found a different list would fail with "Test not found in the worker process").
 */
function pagesOfTheBuild(): string[] {
  const inherited = process.env.EVERY_PAGE_SPEC_PAGES;
  if (process.env.TEST_WORKER_INDEX !== undefined && inherited) {
    return z.array(z.string()).parse(JSON.parse(inherited));
  }
  const pages = sitePages(DIST);
  process.env.EVERY_PAGE_SPEC_PAGES = JSON.stringify(pages);
  return pages;
}

let pages: string[] = [];
let loadError: unknown;
try {
  pages = pagesOfTheBuild();
} catch (error) {
  loadError = error;
}

test.describe('every page', () => {
  test('the site is built', () => {
    expect(loadError, `reading the pages of ${DIST}/`).toBeUndefined();
    expect(pages).toContain('/');
  });

  for (const path of pages) {
    test(`page ${path}`, async ({ sitePage }) => {
      await checkPage(sitePage, path, { canonicalIsSelf: true });
    });
  }

  const router = loadError === undefined ? createRouter(DIST) : undefined;
  const routed = (path: string) => {
    const route = router?.route(path);
    return route?.kind === 'file' || (route?.kind === 'rewrite' && route.status === 200);
  };

  const featuredSlug = parseEnv().FEATURED_AGENT_SLUG; // alexmorgan unless configured otherwise
  const agentPath = `/r/${featuredSlug}`;
  test(`the featured agent's page ${agentPath}`, async ({ sitePage }) => {
    expect(routed(agentPath), `${DIST}/_redirects routes ${agentPath} to a page`).toBe(true);
    await checkPage(sitePage, agentPath, { canonicalIsSelf: false });
  });

  test('a shared estimate /estimate/{uuid}', async ({ sitePage, request }) => {
    const sample = '/estimate/00000000-0000-4000-8000-000000000000';
    expect(routed(sample), `${DIST}/_redirects routes ${sample} to a page`).toBe(true);
    const created = await request.post('/api/estimates', {
      data: { agent_slug: featuredSlug, sale_price: 650000, mortgage_payoff: 300000, recipient_name: 'Jordan' },
    });
    expect(created.status()).toBe(201);
    const { uuid } = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate;
    await checkPage(sitePage, `/estimate/${uuid}`, { canonicalIsSelf: false, privateLink: true });
  });
});

test.describe('the list of pages (tests/support/site-pages.ts)', () => {
  test('maps sitemap URLs and HTML files to paths', () => {
    expect(
      sitemapLocations(
        '<urlset><url><loc>https://example.com/</loc></url><url><loc>https://example.com/a/b/?x=1&amp;y=2</loc></url></urlset>',
      ),
    ).toEqual(['https://example.com/', 'https://example.com/a/b/?x=1&y=2']);
    expect(['https://example.com/', 'https://example.com/a/b/', '/c'].map(pagePath)).toEqual(['/', '/a/b', '/c']);
    expect(['index.html', 'a/b/index.html', 'privacy.html'].map(pathOfHtmlFile)).toEqual(['/', '/a/b', '/privacy']);
  });

  test('leaves out 404.html, the shells of dynamic routes and not-found rewrites', () => {
    const redirects = [
      '/estimate/*  /estimate/index.html  200',
      '/r/*  /r/index.html  200',
      '/long-island-real-estate/*  /town-not-found/index.html  404',
      '/old  /  301',
    ].join('\n');
    const files = [
      '404.html',
      '_astro/x.js',
      'about-alexmorgan/index.html',
      'estimate/index.html',
      'index.html',
      'long-island-real-estate/bay-shore/index.html',
      'r/index.html',
      'town-not-found/index.html',
    ];
    expect(pagesFromFiles(files, redirects)).toEqual(['/', '/about-alexmorgan', '/long-island-real-estate/bay-shore']);
    expect([...shellFiles(parseRedirects(redirects), new Set(files))].sort()).toEqual([
      'estimate/index.html',
      'r/index.html',
      'town-not-found/index.html',
    ]);
  });
});
