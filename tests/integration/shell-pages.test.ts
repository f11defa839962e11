/**
 * /r/{slug}, /estimate/{uuid} and /offers/{uuid} over real HTTP through the local site server (routed as on Netlify,
 * where the api function claims these paths), on both backends. The build is a small stand-in: the
 * shells with the head tags PageHead.astro writes, and the real public/_headers. The built
 * pages themselves are checked in Chromium by tests/e2e/private-pages.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { ISLAND_END, islandDataId, LIGHT_ISLANDS, type LightIsland } from '../../src/ui/light-island.ts';
import { startApi, type RunningApi } from '../support/http.ts';
import { estimateSchema } from '../../src/features/net-sheet/public/estimate-request.ts';
import { formatMoney } from '../../src/ui/money.ts';

/** An island's container as the pages write it, with the loading state the build renders in it. */
const islandOf = (island: LightIsland) =>
  `<div class="island-frame" id="${island}">\n  <div aria-busy="true"><div class="skeleton"></div></div>\n</div>\n${ISLAND_END}`;

const shell = (title: string, description: string, { privateLink = false, island = '' } = {}) =>
  [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<title>${title}</title><meta name="description" content="${description}">`,
    privateLink ? '<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">' : '',
    `<meta property="og:type" content="website"><meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    `<meta name="twitter:title" content="${title}"><meta name="twitter:description" content="${description}">`,
    `</head><body><main><h1>${title}</h1>${island}<p>After the island.</p></main></body></html>`,
  ].join('');

/** The data an island was rendered with (the JSON beside it), or undefined without one. */
const islandData = (html: string, island: LightIsland): unknown => {
  const json = new RegExp(`<script type="application/json" id="${islandDataId(island)}">([^<]*)</script>`).exec(html);
  return json?.[1] === undefined ? undefined : JSON.parse(json[1]);
};
/** The HTML of the page's <head>, the part link previewers and search engines read. */
const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));

/** The content of the meta tags named `key` (name= or property=), in order. */
const metas = (html: string, key: string) =>
  [...html.matchAll(new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`, 'g'))].map(([, v]) => v);
const canonicals = (html: string) => [...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map(([, v]) => v);
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe.each(BACKENDS)('the dynamic pages on %s', (backend) => {
  let test: TestDatabase;
  let site: RunningApi;
  let dist: string;
  const logged: unknown[] = [];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'shell-pages-'));
    await mkdir(join(dist, 'r'));
    await mkdir(join(dist, 'estimate'));
    await mkdir(join(dist, 'offers'));
    await writeFile(join(dist, '_headers'), await readFile('public/_headers', 'utf8'));
    await writeFile(
      join(dist, 'r/index.html'),
      shell('Net to Seller Calculator', 'Your agent.', { island: islandOf(LIGHT_ISLANDS.agentPage) }),
    );
    await writeFile(
      join(dist, 'estimate/index.html'),
      shell('Your Net Sheet', 'A shared estimate.', {
        privateLink: true,
        island: islandOf(LIGHT_ISLANDS.estimatePage),
      }),
    );
    await writeFile(
      join(dist, 'offers/index.html'),
      shell('Offers Side by Side', 'Offers compared.', { privateLink: true }),
    );
    test = await openTestDatabase(backend, 'shell-pages');
    site = await startApi(
      { db: test.db, siteUrl: 'https://homes.example.com', logError: (error) => logged.push(error) },
      { siteDir: dist },
    );
  });
  afterEach(() => {
    expect(logged.splice(0), 'the app logged an unexpected error').toEqual([]);
  });
  afterAll(async () => {
    await site.close();
    await test.close();
    await rm(dist, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const response = await site.fetch(path);
    return { status: response.status, headers: response.headers, html: await response.text() };
  };

  it('malformed percent-encoding in a path answers 404 on the pages, 400 or 404 on the API (audit finding 13: it was a 500)', async () => {
    for (const path of [
      '/%E0%A4%A',
      '/r/%E0%A4%A',
      '/estimate/%E0%A4%A',
      '/offers/%E0%A4%A',
      '/long-island-real-estate/%E0%A4%A',
      '/%',
      '/a/%ZZ',
      '/api/estimates/%E0%A4%A',
      '/api/%E0%A4%A',
    ]) {
      const response = await site.fetch(path);
      // A page names no file (404); an API route may refuse the id as malformed (400).
      expect(path.startsWith('/api/') ? [400, 404] : [404], path).toContain(response.status);
      await response.arrayBuffer();
    }
  });

  describe('/r/{slug}', () => {
    it("names the agent in the title, description and previews, with the page's own URL", async () => {
      const agent = await createAgent(test.db, {
        first_name: '<script>alert(1)</script>Jane',
        last_name: 'O"Doe & Sons',
        brokerage: 'Harbor <b>Point</b>',
      });
      const { status, headers, html } = await get(`/r/${agent.slug}`);
      expect(status).toBe(200);
      expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
      const name = '&lt;script&gt;alert(1)&lt;/script&gt;Jane O&quot;Doe &amp; Sons';
      const title = `${name}&#39;s Net to Seller Calculator · Long Island`;
      expect(titleOf(html)).toBe(title);
      expect(metas(html, 'og:title')).toEqual([title]);
      expect(metas(html, 'twitter:title')).toEqual([title]);
      for (const key of ['description', 'og:description', 'twitter:description']) {
        const [description = ''] = metas(html, key);
        expect(metas(html, key)).toHaveLength(1);
        expect(description).toContain(`with ${name} of Harbor &lt;b&gt;Point&lt;/b&gt;`);
      }
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<b>Point');
      const url = `https://homes.example.com/r/${agent.slug}`;
      expect(canonicals(html)).toEqual([url]);
      expect(metas(html, 'og:url')).toEqual([url]);
      expect(metas(html, 'robots')).toEqual([]);
      expect(headers.get('x-robots-tag')).toBeNull();
      // The page's security headers (public/_headers) on the function's answer too.
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('renders the calculator with the agent, and gives the browser the data it rendered it with', async () => {
      const { status, headers, html } = await get('/r/alexmorgan');
      expect(status).toBe(200);
      const body = html.slice(html.indexOf('<body>'));
      expect(body).toContain('Alex Morgan');
      expect(body).toContain('>Expected sale price</label>');
      expect(body).toContain('>Mortgage balance</label>');
      expect(body).toContain('>Calculate</button>');
      // In place of the loading state the build left in the container; what follows it is kept.
      expect(body).not.toContain('aria-busy="true"');
      expect(body).toContain('<p>After the island.</p>');
      const api = await site.fetch('/api/agents/public/alexmorgan');
      const answer: unknown = await api.json();
      expect(islandData(html, LIGHT_ISLANDS.agentPage)).toEqual(answer);
      // Kept at the edge as the API's answer it shows is, under the same tag (purged when the agent changes).
      for (const name of ['netlify-cdn-cache-control', 'netlify-cache-tag', 'cache-control']) {
        expect(headers.get(name), name).toBe(api.headers.get(name));
      }
      expect(headers.get('netlify-cache-tag')).toMatch(/^agent:\d+$/);
    });

    it("keeps the agent's own words text, in the page and in its data", async () => {
      const agent = await createAgent(test.db, { first_name: 'Dana</script><script>alert(1)', last_name: 'Reyes' });
      const { status, html } = await get(`/r/${agent.slug}`);
      expect(status).toBe(200);
      expect(html).not.toContain('<script>alert(1)');
      expect(html.slice(html.indexOf('<body>'))).toContain('Dana&lt;/script&gt;&lt;script&gt;alert(1)');
      expect(islandData(html, LIGHT_ISLANDS.agentPage)).toMatchObject({
        agent: { first_name: 'Dana</script><script>alert(1)' },
      });
    });

    it('leaves out the brokerage when the agent has none', async () => {
      const agent = await createAgent(test.db, { first_name: 'Sam', last_name: 'Lee', brokerage: null });
      const { html } = await get(`/r/${agent.slug}/`);
      expect(metas(html, 'description')).toEqual([
        'Estimate what you would walk away with from a Long Island home sale with Sam Lee: commission, New York State transfer tax and fees.',
      ]);
    });

    it.each([
      ['an unknown agent', () => Promise.resolve('nosuchagent')],
      ['an inactive agent', async () => (await createAgent(test.db, { status: 'inactive' })).slug],
      ['a malformed slug', () => Promise.resolve('Not-A-Slug!')],
      ['a nested path', () => Promise.resolve('alexmorgan/extra')],
    ])('answers %s with the shell, 404 and noindex', async (_label, slug) => {
      const { status, headers, html } = await get(`/r/${await slug()}`);
      expect(status).toBe(404);
      expect(headers.get('x-robots-tag')).toBe('noindex');
      expect(metas(html, 'robots')).toEqual(['noindex']);
      expect(titleOf(html)).toBe('Net to Seller Calculator');
      expect(canonicals(html)).toEqual([]);
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(islandData(html, LIGHT_ISLANDS.agentPage)).toBeUndefined();
      expect(headers.get('netlify-cdn-cache-control')).toBeNull();
    });

    it('serves the shell itself as a file (preferStatic)', async () => {
      const { status, html } = await get('/r/');
      expect(status).toBe(200);
      expect(titleOf(html)).toBe('Net to Seller Calculator');
    });
  });

  const estimateCreated = z.object({ estimate: z.object({ uuid: z.string() }) });

  /** A shell built with privateLink, answered with the headers public/_headers gives its path. */
  const expectPrivate = (headers: Headers, html: string, title: string) => {
    expect(headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(titleOf(html)).toBe(title);
    expect(metas(html, 'robots')).toEqual(['noindex, nofollow']);
    expect(metas(html, 'referrer')).toEqual(['no-referrer']);
    expect(canonicals(html)).toEqual([]);
    expect(metas(html, 'og:url')).toEqual([]);
  };

  /** A stored estimate of a seller whose name no private page may show. */
  const privateEstimate = async () => {
    const created = await site.postJson('/api/estimates', {
      agent_slug: 'alexmorgan',
      sale_price: 650000,
      mortgage_payoff: 300000,
      recipient_name: 'Jordan Private',
    });
    expect(created.status).toBe(201);
    return estimateCreated.parse(await created.json()).estimate.uuid;
  };

  it('renders /estimate/{uuid} with its figures, its net and its agent, and the data it rendered it with', async () => {
    const uuid = await privateEstimate();
    const { status, html } = await get(`/estimate/${uuid}`);
    expect(status).toBe(200);
    const estimate = z
      .object({ estimate: estimateSchema })
      .parse(await (await site.fetch(`/api/estimates/${uuid}`)).json()).estimate;
    const sheet: unknown = await (await site.fetch(`/api/estimates/${uuid}/sheet`)).json();
    const range: unknown = await (await site.fetch(`/api/estimates/${uuid}/range?percent=10`)).json();
    const body = html.slice(html.indexOf('<body>'));
    expect(body).toContain('Net Sheet for Jordan Private');
    expect(body).toContain(formatMoney(650000));
    expect(body).toContain(formatMoney(estimate.commission));
    expect(body).toContain(formatMoney(estimate.net_to_seller));
    expect(body).toContain('>Prepared by <!-- -->Alex Morgan · ');
    expect(body).not.toContain('aria-busy="true"');
    expect(islandData(html, LIGHT_ISLANDS.estimatePage)).toEqual({
      estimate,
      sheet,
      range,
      prepared_by: 'Alex Morgan · Harbor Point Realty (demo) · (631) 555-0142 · alex.morgan@example.com',
      // The send-by-e-mail consent names the agent (newcomer audit minor 27).
      agent_name: 'Alex Morgan',
    });
    const missing = await get(`/estimate/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(islandData(missing.html, LIGHT_ISLANDS.estimatePage)).toBeUndefined();
  });

  describe.each([
    { page: '/estimate', title: 'Your Net Sheet', make: privateEstimate },
    {
      page: '/offers',
      title: 'Offers Side by Side',
      make: async () => {
        const offer = { concessions: 0, closing_date: '2027-03-01', financing: 'cash' };
        const compared = await site.postJson('/api/offers', {
          estimate_uuid: await privateEstimate(),
          offers: [
            { ...offer, price: 640000 },
            { ...offer, price: 655000 },
          ],
        });
        expect(compared.status).toBe(201);
        return z.object({ comparison: z.object({ uuid: z.string() }) }).parse(await compared.json()).comparison.uuid;
      },
    },
  ])('$page/{uuid}', ({ page, title, make }) => {
    it('answers a known one with 200, never to be indexed or sent as a referrer, naming no seller', async () => {
      const uuid = await make();
      for (const path of [`${page}/${uuid}`, `${page}/${uuid.toUpperCase()}/`]) {
        const { status, headers, html } = await get(path);
        expect(status, path).toBe(200);
        expectPrivate(headers, html, title);
        expect(headers.get('cache-control')).toBe('no-store');
        // The head, which link previewers read: the page itself shows the seller their own sheet.
        expect(headOf(html)).not.toContain('Jordan');
        expect(headOf(html)).not.toContain(uuid);
      }
    });

    it.each([
      ['an unknown uuid', randomUUID()],
      ['a malformed id', 'not-a-uuid'],
    ])('answers %s with the shell and 404', async (_label, id) => {
      const { status, headers, html } = await get(`${page}/${id}`);
      expect(status).toBe(404);
      expectPrivate(headers, html, title);
    });
  });
});

// The API alone, as the function is deployed: it asks its own origin for the shell (the CDN on
// Netlify). Here nothing serves one, as with a build that lacks it.
describe('a site without its shells', () => {
  let test: TestDatabase;
  let site: RunningApi;
  const logged: { error: unknown; path: string }[] = [];

  beforeAll(async () => {
    test = await openTestDatabase('pglite', 'shell-pages-empty');
    site = await startApi({
      db: test.db,
      logError: (error, request) => logged.push({ error, path: new URL(request.url).pathname }),
    });
  });
  afterAll(async () => {
    await site.close();
    await test.close();
  });

  it('answers 500 plainly, logs why, and the API keeps working', async () => {
    const response = await site.fetch('/r/alexmorgan');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('This page could not be loaded just now. Please try again in a moment.');
    expect(logged.map(({ path }) => path)).toEqual(['/r/alexmorgan']);
    expect(String(logged[0]?.error)).toMatch(/\/r\/ answered 404/);
    expect((await site.fetch('/api/agents/public/alexmorgan')).status).toBe(200);
  });
});

// A shell whose island the server cannot render into (here: a build without the island's container):
// the page is served as built, and its island renders itself in the browser (light-island.ts).
describe('a shell the server cannot render into', () => {
  let test: TestDatabase;
  let site: RunningApi;
  let dist: string;
  const logged: unknown[] = [];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'shell-pages-bare-'));
    await mkdir(join(dist, 'r'));
    await writeFile(join(dist, 'r/index.html'), shell('Net to Seller Calculator', 'Your agent.'));
    test = await openTestDatabase('pglite', 'shell-pages-bare');
    site = await startApi({ db: test.db, logError: (error) => logged.push(error) }, { siteDir: dist });
  });
  afterAll(async () => {
    await site.close();
    await test.close();
    await rm(dist, { recursive: true, force: true });
  });

  it("answers the agent's page as built, with its head, and logs why", async () => {
    const response = await site.fetch('/r/alexmorgan');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toBe('Alex Morgan&#39;s Net to Seller Calculator · Long Island');
    expect(html).toContain('<h1>Net to Seller Calculator</h1>');
    expect(islandData(html, LIGHT_ISLANDS.agentPage)).toBeUndefined();
    expect(logged.map(String)).toEqual([expect.stringMatching(/the shell has no island agent-page/)]);
  });
});
