import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultEdgePurger, marketTagsOf } from './edge-cache.ts';

describe('defaultEdgePurger', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** Netlify's purge API as purgeCache calls it: each request recorded, answered 202. */
  function purgeApi() {
    const requests: { url: string; authorization: string | null; body: unknown }[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      const body = typeof init.body === 'string' ? init.body : '';
      requests.push({ url, authorization: headers.get('authorization'), body: JSON.parse(body) });
      return Promise.resolve(new Response(null, { status: 202 }));
    });
    return requests;
  }

  it('on Netlify (its purge token in the environment) purges the tags of the site', async () => {
    const requests = purgeApi();
    await defaultEdgePurger({ NETLIFY_PURGE_API_TOKEN: 'purge-token', SITE_ID: 'site-123' })(['agent:7', 'showcase']);
    expect(requests).toEqual([
      {
        url: 'https://api.netlify.com/api/v1/purge',
        authorization: 'Bearer purge-token',
        body: { cache_tags: ['agent:7', 'showcase'], site_id: 'site-123' },
      },
    ]);
  });

  it('sends no purge without tags (that would purge the whole site)', async () => {
    const requests = purgeApi();
    await defaultEdgePurger({ NETLIFY_PURGE_API_TOKEN: 'purge-token', SITE_ID: 'site-123' })([]);
    expect(requests).toEqual([]);
  });

  it('elsewhere (no purge token) purges nothing', async () => {
    const requests = purgeApi();
    await defaultEdgePurger({})(['settings']);
    expect(requests).toEqual([]);
  });

  it('rejects when the purge API refuses, for the caller to log', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(null, { status: 401 })));
    await expect(defaultEdgePurger({ NETLIFY_PURGE_API_TOKEN: 't', SITE_ID: 's' })(['settings'])).rejects.toThrow(
      '401',
    );
  });
});

describe('marketTagsOf', () => {
  it('names the answers of the sources whose data changed', () => {
    expect(
      marketTagsOf([
        { source: 'zhvi', changed: true },
        { source: 'sold', changed: false },
      ]),
    ).toEqual(['market']);
    expect(
      marketTagsOf([
        { source: 'inventory', changed: true },
        { source: 'sold', changed: true },
      ]),
    ).toEqual(['market', 'sold']);
    expect(marketTagsOf([{ source: 'zhvi', changed: false }])).toEqual([]);
  });
});
