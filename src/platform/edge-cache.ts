/**
 * Public reads at the edge (docs/decisions/0020-public-reads-at-the-edge.md): the GET answers that
 * are the same for every visitor are kept by Netlify's CDN, tagged, and purged by tag right after
 * a write changes them. Every other API answer stays `Cache-Control: no-store` (createApi).
 */
import type { Context } from 'hono';

/** The tags cached answers carry; a write purges exactly the tags of the answers it changed. */
export const CACHE_TAGS = {
  /** GET /api/global/settings: the website and town-page logos. */
  settings: 'settings',
  /** GET /api/showcase/settings: the home page's showcase card. */
  showcase: 'showcase',
  /** GET /api/towns/:slug: the town table changes only with a deploy, which empties the CDN anyway. */
  towns: 'towns',
  /** GET /api/zillow/market: every town's market figures (one refresh rewrites them together). */
  market: 'market',
  /** GET /api/towns/:slug/sold and /api/sold (also /sold-api.php): every town's sold homes. */
  sold: 'sold',
  /**
   * GET /api/agents/public/:slug, by the agent's id rather than the slug: every write that changes
   * it knows the id already (the session's agent, the admin's :id), none has to read the slug.
   */
  agent: (agentId: number) => `agent:${agentId}`,
} as const;

/** How long the CDN keeps an answer, and how long past that it may serve it while it refetches. */
export interface EdgeTtl {
  seconds: number;
  staleSeconds: number;
}

/** What admins and agents edit: purged on save, so the TTL only bounds a purge that failed. */
export const EDITED_TTL: EdgeTtl = { seconds: 300, staleSeconds: 60 };
/** Market data and towns: written by the daily refresh (purged too) or a deploy. */
export const MARKET_TTL: EdgeTtl = { seconds: 3600, staleSeconds: 300 };

/**
 * Marks a successful answer as cacheable at the edge. Call it just before returning the answer: an
 * error thrown earlier keeps the API's `no-store`, so a 404 (an agent not yet signed up, a town
 * misspelt) is never kept. `query` names the query parameters the answer depends on, so that
 * tracking parameters (utm_*, fbclid) do not each make a cache entry of their own.
 */
export function cacheAtEdge(c: Context, tags: readonly string[], ttl: EdgeTtl, query: readonly string[] = []): void {
  for (const [name, value] of edgeCacheHeaders(tags, ttl, query)) c.header(name, value);
}

/** The headers of an answer cacheable at the edge (see cacheAtEdge), for an answer built by hand. */
export function edgeCacheHeaders(
  tags: readonly string[],
  ttl: EdgeTtl,
  query: readonly string[] = [],
): [string, string][] {
  return [
    // `durable`: one shared cache for every edge node, so a purge or a miss costs one function call.
    [
      'Netlify-CDN-Cache-Control',
      `public, durable, s-maxage=${ttl.seconds}, stale-while-revalidate=${ttl.staleSeconds}`,
    ],
    ['Netlify-Cache-Tag', tags.join(',')],
    ...(query.length > 0 ? [['Netlify-Vary', `query=${query.join('|')}`] satisfies [string, string]] : []),
    // The browser asks again every time (the CDN answers it); it never keeps a copy of its own.
    ['Cache-Control', 'public, max-age=0, must-revalidate'],
  ];
}

/** Purges the CDN's answers carrying any of `tags`. */
export type EdgePurger = (tags: readonly string[]) => Promise<void>;

/**
 * Netlify's purge when running on Netlify, else nothing to purge. Netlify gives its functions
 * NETLIFY_PURGE_API_TOKEN (and SITE_ID), which purgeCache authenticates with; a local server or a
 * test has no CDN in front of it.
 */
export function defaultEdgePurger(env: NodeJS.ProcessEnv = process.env): EdgePurger {
  const token = env.NETLIFY_PURGE_API_TOKEN;
  if (!token) return () => Promise.resolve();
  // No tags is nothing changed, never a call: purgeCache without tags purges the whole site.
  return async (tags) => {
    if (tags.length === 0) return;
    // Loaded on the first purge (an admin's or agent's write), not at every cold start (decision 0026).
    const { purgeCache } = await import('@netlify/functions');
    await purgeCache({ tags: [...tags], token, ...(env.SITE_ID ? { siteID: env.SITE_ID } : {}) });
  };
}

/**
 * The purge a write calls after it committed: it never fails the request (the data is saved; the
 * CDN's copy ends with its TTL at worst), its error is logged instead.
 */
export type PurgeAfterWrite = (request: Request, tags: readonly string[]) => Promise<void>;

export const purgeAfterWrite =
  (purger: EdgePurger, logError: (error: unknown, request: Request) => void): PurgeAfterWrite =>
  async (request, tags) => {
    if (tags.length === 0) return;
    try {
      await purger(tags);
    } catch (error) {
      logError(error, request);
    }
  };

/**
 * The tags of the answers a market-data refresh changed: market figures, sold homes, or both. A run
 * is read by its source ('sold', or a market figure's: 'zhvi', 'inventory') and whether it changed
 * anything, so the ground floor need not know the market feature's run record.
 */
export function marketTagsOf(runs: readonly { source: string; changed: boolean }[]): string[] {
  const changed = runs.filter((run) => run.changed);
  return [
    ...(changed.some((run) => run.source !== 'sold') ? [CACHE_TAGS.market] : []),
    ...(changed.some((run) => run.source === 'sold') ? [CACHE_TAGS.sold] : []),
  ];
}
