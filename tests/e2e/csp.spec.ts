// The Content Security Policy on the production build (`npm start` builds and serves dist/ with
// public/_headers): every HTML page of the build (the sitemap's and the account pages), the
// dashboard's screens signed in as an agent, the admin's signed in as the admin, and the dynamic
// pages (/r/{slug}, /estimate/{uuid}, /offers/{uuid}). On each, neither the header's policy nor the
// page's meta policy allows 'unsafe-inline' or 'unsafe-eval', and a real browser loading and
// hydrating it reports no violation (a `securitypolicyviolation` listener installed before any of
// the page's scripts; the fixtures also fail a test on any console error, which Chromium logs for
// each violation). Desktop project only: the policy does not depend on the viewport.
import type { Page } from '@playwright/test';
import * as z from 'zod';
import { listFiles, pathOfHtmlFile, sitePages } from '../support/site-pages.ts';
import { expect, makeEstimate, signInAsAdmin, signInAsNewAgent, test, waitForIslands } from './fixtures.ts';

const DIST = 'dist';
const UNSAFE = /'unsafe-(inline|eval|hashes)'/;
const VIOLATIONS_KEY = 'csp-violations-under-test';
const violationsSchema = z.array(z.string());

test.use({ trace: 'off' });

test.beforeEach(async ({ page }) => {
  test.skip(test.info().project.name !== 'desktop', 'the policy is checked once, in the desktop project');
  // Before any script of any page: every violation is kept in the tab's sessionStorage, across navigations.
  await page.addInitScript((key) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const kept: unknown = JSON.parse(sessionStorage.getItem(key) ?? '[]');
      const list = Array.isArray(kept) ? kept : [];
      list.push(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
      sessionStorage.setItem(key, JSON.stringify(list));
    });
  }, VIOLATIONS_KEY);
});

/** The HTML files of the build as paths, but for the signed-in areas and the dynamic shells (visited apart). */
function staticPages(): string[] {
  return (
    listFiles(DIST)
      // The shells of the dynamic routes (the embedded calculator's frame among them) are checked as
      // the pages they answer, below.
      .filter((file) => file.endsWith('.html') && !/^(dashboard|admin|r|embed|estimate|offers)\//.test(file))
      .map(pathOfHtmlFile)
  );
}

/** The paths of the build's screens under `area` (dashboard or admin). */
const screensOf = (area: 'dashboard' | 'admin') =>
  listFiles(DIST)
    .filter((file) => file.startsWith(`${area}/`) && file.endsWith('.html'))
    .map(pathOfHtmlFile);

/**
 * Opens `path`, hydrates it, and checks both policies and the violations it caused (softly: one run
 * lists them all). A signed-in screen must stay itself (not send the visitor to the login page).
 */
async function checkPolicy(page: Page, path: string, { signedIn = false }: { signedIn?: boolean } = {}): Promise<void> {
  const response = await page.goto(path);
  expect.soft(response, `an answer for ${path}`).not.toBeNull();
  const header = response?.headers()['content-security-policy'] ?? '';
  expect.soft(header, `the CSP header of ${path}`).toContain("frame-ancestors 'none'");
  expect.soft(header, `the CSP header of ${path}`).not.toMatch(UNSAFE);
  if (signedIn)
    await expect
      .soft(page, `${path} is shown signed in`)
      .toHaveURL((url) => pathOfHtmlFile(url.pathname.slice(1)) === path);
  await waitForIslands(page);
  const metas = await page
    .locator('meta[http-equiv="content-security-policy" i]')
    .evaluateAll((tags) => tags.map((tag) => tag.getAttribute('content') ?? ''));
  expect.soft(metas.length, `one CSP meta tag on ${path}`).toBe(1);
  for (const meta of metas) {
    expect.soft(meta, `the CSP meta of ${path}`).toMatch(/script-src 'self'/);
    // A fallback for every fetch directive (audit finding 13): nothing from or to another origin.
    expect.soft(meta, `the CSP meta of ${path}`).toMatch(/(^|;\s*)default-src 'self'(;|$)/);
    // blob: only besides the site itself: a picked file's object URL, read while it is scaled for upload.
    expect.soft(meta, `the CSP meta of ${path}`).toMatch(/connect-src 'self' blob:(;|$)/);
    expect.soft(meta, `the CSP meta of ${path}`).not.toMatch(UNSAFE);
  }
  expect.soft(await violationsOn(page), `CSP violations on ${path}`).toEqual([]);
}

/** The violations the listener kept in this tab so far. */
async function violationsOn(page: Page): Promise<string[]> {
  const kept = await page.evaluate((key) => sessionStorage.getItem(key), VIOLATIONS_KEY);
  return violationsSchema.parse(JSON.parse(kept ?? '[]'));
}

test.describe('the listener', () => {
  test.use({ consoleErrorsAllowed: [/Content Security Policy/] });

  test('sees an inline script the policy blocks (so the checks below can fail)', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.title = "injected";';
      document.head.append(script);
    });
    await expect.poll(() => violationsOn(page)).toEqual([expect.stringMatching(/^script-src(-elem)? blocked inline/)]);
    await expect(page).not.toHaveTitle('injected');
  });
});

test.describe('every page of the build', () => {
  // /auth asks whether the visitor is signed in already (to send them on); signed out, that is a 401.
  test.use({ consoleErrorsAllowed: [/status of 401 \(Unauthorized\)/] });

  test("the sitemap's pages and the rest have a strict policy and break none of it", async ({ page }) => {
    test.setTimeout(600_000);
    const pages = staticPages();
    expect(pages).toEqual(expect.arrayContaining(sitePages(DIST)));
    expect(pages).toEqual(expect.arrayContaining(['/', '/auth', '/signup', '/unsubscribe']));
    for (const path of pages) await checkPolicy(page, path);
  });
});

test("the dashboard's screens, signed in as an agent", async ({ page }) => {
  await signInAsNewAgent(page);
  const screens = screensOf('dashboard');
  expect(screens).toEqual(expect.arrayContaining(['/dashboard', '/dashboard/leads', '/dashboard/settings']));
  for (const path of screens) await checkPolicy(page, path, { signedIn: true });
});

test("the admin's screens, signed in as the admin", async ({ page }) => {
  await signInAsAdmin(page);
  const screens = screensOf('admin');
  expect(screens).toEqual(expect.arrayContaining(['/admin', '/admin/settings', '/admin/leads']));
  for (const path of screens) await checkPolicy(page, path, { signedIn: true });
});

test('the dynamic pages: an agent, a quick and a detailed shared estimate, compared offers', async ({
  page,
  request,
}) => {
  await checkPolicy(page, '/r/alexmorgan');
  const estimate = await makeEstimate(request, 'alexmorgan');
  await checkPolicy(page, `/estimate/${estimate.uuid}`);
  // A detailed estimate: its page shows the stored net sheet and the refine form's figures.
  const detailed = await request.post('/api/estimates', {
    data: { agent_slug: 'alexmorgan', sale_price: 800000, mortgage_payoff: 300000, details: { county: 'Nassau' } },
  });
  expect(detailed.status(), await detailed.text()).toBe(201);
  const sheet = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await detailed.json()).estimate;
  await checkPolicy(page, `/estimate/${sheet.uuid}`);
  const offers = await request.post('/api/offers', {
    data: {
      estimate_uuid: estimate.uuid,
      offers: [
        { price: 800000, concessions: 0, closing_date: '2027-03-31', financing: 'cash' },
        { price: 790000, concessions: 5000, closing_date: '2027-04-30', financing: 'conventional' },
      ],
    },
  });
  expect(offers.status(), await offers.text()).toBe(201);
  const { uuid } = z.object({ comparison: z.object({ uuid: z.string() }) }).parse(await offers.json()).comparison;
  await checkPolicy(page, `/offers/${uuid}`);
});
