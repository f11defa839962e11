/**
 * /embed/{slug}, the agent's calculator framed on their own site (issue 26, decision 0058), over real
 * HTTP through the local site server (routed as on Netlify) on both backends: its frame-ancestors is
 * the agent's list (and 'self', for the dashboard's preview), without X-Frame-Options; an agent
 * without a list is framed by no other site, an unknown one by none; every other page keeps 'none'.
 * The build is a small stand-in with the real public/_headers.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { startApi, type RunningApi } from '../support/http.ts';
import { ISLAND_END, LIGHT_ISLANDS } from '../../src/ui/light-island.ts';

const shell = (title: string) =>
  [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<title>${title}</title><meta name="description" content="d">`,
    `<meta property="og:type" content="website"><meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="d">`,
    `<meta name="twitter:title" content="${title}"><meta name="twitter:description" content="d">`,
    `</head><body><main><h1>${title}</h1>`,
    `<div class="island-frame" id="${LIGHT_ISLANDS.agentPage}">\n  <div aria-busy="true"></div>\n</div>\n${ISLAND_END}`,
    '</main></body></html>',
  ].join('');

/** The directives of a Content-Security-Policy header, by name. */
const directives = (policy: string | null) =>
  Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );

describe.each(BACKENDS)('the embedded calculator’s frame on %s', (backend) => {
  let test: TestDatabase;
  let site: RunningApi;
  let dist: string;
  const logged: unknown[] = [];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'embed-frame-'));
    await mkdir(join(dist, 'r'));
    await mkdir(join(dist, 'embed'));
    await writeFile(join(dist, '_headers'), await readFile('public/_headers', 'utf8'));
    await writeFile(join(dist, 'r/index.html'), shell('Net to Seller Calculator'));
    await writeFile(join(dist, 'embed/index.html'), shell('Net to Seller Calculator'));
    test = await openTestDatabase(backend, 'embed-frame');
    site = await startApi(
      {
        db: test.db,
        siteUrl: 'https://homes.example.com',
        logError: (error) => logged.push(error),
      },
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

  const allow = (agentId: number, origins: string[]) =>
    test.db.query(
      `INSERT INTO agent_settings (agent_id, embed_origins) VALUES ($1, $2::text[])
       ON CONFLICT (agent_id) DO UPDATE SET embed_origins = EXCLUDED.embed_origins`,
      [agentId, origins],
    );

  it("answers the agent's page with frame-ancestors of their list and 'self', and no X-Frame-Options", async () => {
    const agent = await createAgent(test.db);
    await allow(agent.id, ['https://www.agent-site.com', 'http://127.0.0.1:8123']);
    const response = await site.fetch(`/embed/${agent.slug}?host=${encodeURIComponent('https://www.agent-site.com/')}`);
    expect(response.status).toBe(200);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp['frame-ancestors']).toBe("'self' https://www.agent-site.com http://127.0.0.1:8123");
    // The site's other directives are kept as _headers gives them.
    expect(csp).toMatchObject({ 'base-uri': "'self'", 'form-action': "'self'", 'object-src': "'none'" });
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
    expect(await response.text()).toContain(`${agent.first_name} ${agent.last_name}`);
  });

  it("lets no other site frame an agent without a list (only the site's own preview)", async () => {
    const agent = await createAgent(test.db);
    const response = await site.fetch(`/embed/${agent.slug}`);
    expect(response.status).toBe(200);
    expect(directives(response.headers.get('content-security-policy'))['frame-ancestors']).toBe("'self'");
    await response.body?.cancel();
  });

  it("answers an unknown agent 404 with frame-ancestors 'none' and DENY", async () => {
    for (const path of ['/embed/nobody-by-this-name', '/embed/%20bad%20slug']) {
      const response = await site.fetch(path);
      expect(response.status, path).toBe(404);
      expect(directives(response.headers.get('content-security-policy'))['frame-ancestors'], path).toBe("'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      await response.body?.cancel();
    }
  });

  it("keeps /r/{slug} and the shells unframeable, whatever the agent's list", async () => {
    const agent = await createAgent(test.db);
    await allow(agent.id, ['https://www.agent-site.com']);
    for (const path of [`/r/${agent.slug}`, '/embed/', '/r/']) {
      const response = await site.fetch(path);
      expect(response.status, path).toBe(200);
      expect(directives(response.headers.get('content-security-policy'))['frame-ancestors'], path).toBe("'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      await response.body?.cancel();
    }
  });
});
