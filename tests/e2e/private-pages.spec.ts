// The built /r/{slug} and /estimate/{uuid} as the server of `npm start` answers them (routed as on
// Netlify: the api function claims these paths): a shared estimate is never indexed and never leaks
// its link as a referrer, unknown ids answer 404 with their not-found screens, and an agent's page
// previews with the agent's name in its raw HTML (link previewers run no JavaScript).
import type { APIResponse } from '@playwright/test';
import * as z from 'zod';
import { expect, test } from './fixtures.ts';

/** The raw HTML's head: its meta tags and links, as a previewer or a crawler reads them (no JavaScript). */
async function rawHead(response: APIResponse) {
  const page = await response.text();
  const html = page.slice(0, page.indexOf('</head>'));
  const attribute = (pattern: RegExp) => [...html.matchAll(pattern)].map(([, value]) => value);
  return {
    html,
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    meta: (key: string) => attribute(new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`, 'g')),
    canonicals: attribute(/<link rel="canonical" href="([^"]*)"/g),
  };
}

test.describe('a shared estimate', () => {
  test('is never indexed, names no URL in its head and sends no referrer', async ({ request, page }) => {
    const created = await request.post('/api/estimates', {
      data: { agent_slug: 'alexmorgan', sale_price: 650000, mortgage_payoff: 300000, recipient_name: 'Jordan' },
    });
    expect(created.status()).toBe(201);
    const { uuid } = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate;

    const response = await request.get(`/estimate/${uuid}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.headers()['referrer-policy']).toBe('no-referrer');
    expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    const head = await rawHead(response);
    expect(head.meta('robots')).toEqual(['noindex, nofollow']);
    expect(head.meta('referrer')).toEqual(['no-referrer']);
    expect(head.meta('og:url')).toEqual([]);
    expect(head.canonicals).toEqual([]);
    expect(head.html).not.toContain(uuid);
    expect(head.html).not.toContain('Jordan');

    // In a browser: the page's own requests carry no Referer (so no other site's would), and once
    // the estimate has loaded its head still names no URL.
    const asked = page.waitForRequest((call) => new URL(call.url()).pathname.startsWith('/_astro/'));
    await page.goto(`/estimate/${uuid}`);
    expect(await (await asked).headerValue('referer')).toBeNull();
    await expect(page.getByRole('heading', { name: 'Net Sheet for Jordan' })).toBeVisible();
    await expect(page.locator('link[rel="canonical"], meta[property="og:url"]')).toHaveCount(0);
  });
});

test.describe('unknown ids', () => {
  test.use({ consoleErrorsAllowed: [/status of 404/] });

  const notFound: [path: string, heading: string][] = [
    ['/estimate/00000000-0000-4000-8000-000000000000', 'Estimate Not Found'],
    ['/estimate/not-a-uuid', 'Estimate Not Found'],
    ['/r/nosuchagent', 'Agent Not Found'],
  ];
  for (const [path, heading] of notFound) {
    test(`${path} answers 404 with ${heading}, not to be indexed`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      expect(response?.headers()['x-robots-tag']).toMatch(/\bnoindex\b/);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /\bnoindex\b/);
      await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
    });
  }
});

test("an agent's page previews with the agent's name", async ({ request }) => {
  const response = await request.get('/r/alexmorgan');
  expect(response.status()).toBe(200);
  expect(response.headers()['x-robots-tag']).toBeUndefined();
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const head = await rawHead(response);
  const title = 'Alex Morgan&#39;s Net to Seller Calculator · Long Island';
  expect(head.title).toBe(title);
  expect(head.meta('og:title')).toEqual([title]);
  expect(head.meta('twitter:title')).toEqual([title]);
  for (const key of ['description', 'og:description', 'twitter:description']) {
    expect(head.meta(key)).toEqual([expect.stringContaining('with Alex Morgan of Harbor Point Realty (demo)')]);
  }
  // Absolute, at the site's origin (SITE_URL, by default http://HOST:PORT).
  expect(head.canonicals).toEqual([expect.stringMatching(/^http:\/\/[^/]+\/r\/alexmorgan$/)]);
  expect(head.meta('og:url')).toEqual(head.canonicals);
  expect(head.meta('robots')).toEqual([]);
});
