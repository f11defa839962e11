/**
 * The pages of a RESO query: each page asked for with the access token (renewed once on a 401,
 * 429 waited out within a bound), then `@odata.nextLink` followed until a page has none.
 */
import { parseRetryAfter } from '../../platform/retry-after.ts';
import type { TokenSource } from './reso-auth.server.ts';
import { detail, errorDetail, jsonOrUndefined, ResoError } from './reso-error.server.ts';
import type { Send } from './reso-http.server.ts';
import { resoPageSchema } from './reso-records.server.ts';

/** The longest Retry-After the client waits for before it gives up on the run. */
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;
/** A 429 without a readable Retry-After waits this long (bounded by maxRetryAfterSeconds). */
const DEFAULT_RETRY_AFTER_SECONDS = 5;
/** 429s in a row for one page before the run fails even when each wait is within the bound. */
const MAX_RATE_LIMIT_WAITS = 5;
/** A runaway server (a nextLink that never ends) fails the run instead of looping for ever. */
export const DEFAULT_MAX_PAGES = 2_000;

export interface PagingOptions {
  send: Send;
  auth: TokenSource;
  safe: (text: string) => string;
  /** The service root: a nextLink never leaves its origin. */
  base: URL;
  maxRetryAfterSeconds: number;
  maxPages: number;
  sleep: (ms: number) => Promise<void>;
}

/** One page as JSON, after the 401 and 429 handling of the failure policy (reso-client.server.ts). */
async function getPage(url: string, options: PagingOptions): Promise<unknown> {
  const { send, auth, safe, maxRetryAfterSeconds, sleep } = options;
  let renewed = false;
  let rateLimited = 0;
  for (;;) {
    const token = await auth.token();
    const answer = await send(url, { method: 'GET', headers: { Authorization: `Bearer ${token}` } }, 'The RESO feed');
    if (answer.status === 401 && auth.renewable && !renewed) {
      auth.invalidate(token);
      renewed = true;
      continue;
    }
    if (answer.status === 429) {
      const header = answer.headers.get('retry-after');
      const wait = parseRetryAfter(header) ?? Math.min(DEFAULT_RETRY_AFTER_SECONDS, maxRetryAfterSeconds);
      if (wait > maxRetryAfterSeconds || rateLimited >= MAX_RATE_LIMIT_WAITS) {
        throw new ResoError(
          wait > maxRetryAfterSeconds
            ? `The RESO feed is rate limited for ${wait} s, longer than the ${maxRetryAfterSeconds} s the run waits`
            : `The RESO feed is still rate limited after ${rateLimited} waits`,
          { kind: 'rate-limit', status: 429, retryAfterSeconds: wait },
        );
      }
      rateLimited += 1;
      await sleep(wait * 1000);
      continue;
    }
    if (answer.status < 200 || answer.status >= 300) {
      const kind = answer.status === 401 || answer.status === 403 ? 'auth' : 'http';
      throw new ResoError(`The RESO feed answered ${answer.status}: ${safe(errorDetail(answer.body, 'no detail'))}`, {
        kind,
        status: answer.status,
      });
    }
    const json = jsonOrUndefined(answer.body);
    if (json === undefined) {
      throw new ResoError(
        `The RESO feed answered a page that is not JSON (${safe(detail(answer.body.slice(0, 80)))})`,
        {
          kind: 'malformed',
          status: answer.status,
        },
      );
    }
    return json;
  }
}

/** The next page's URL: resolved against this one, on the service's own origin, not seen before. */
function nextUrl(link: string, current: string, seen: Set<string>, base: URL): string {
  let next: URL;
  try {
    next = new URL(link, current);
  } catch (error) {
    throw new ResoError('The RESO feed answered a nextLink that is not a URL', { kind: 'malformed', cause: error });
  }
  // The bearer token goes with every page: never to another host.
  if (next.origin !== base.origin) {
    throw new ResoError(`The RESO feed's nextLink leaves ${base.origin}`, { kind: 'malformed' });
  }
  if (seen.has(next.href)) throw new ResoError('The RESO feed repeats a nextLink', { kind: 'malformed' });
  return next.href;
}

/** The records of each page from `firstUrl` on, a page's nextLink checked before its records are handed out. */
export async function* resoPages(firstUrl: string, options: PagingOptions): AsyncGenerator<readonly unknown[]> {
  const { maxPages } = options;
  let url: string | undefined = firstUrl;
  const seen = new Set<string>();
  let pages = 0;
  while (url !== undefined) {
    pages += 1;
    if (pages > maxPages) {
      throw new ResoError(`The RESO feed has more than ${maxPages} pages`, { kind: 'malformed' });
    }
    seen.add(url);
    const page = resoPageSchema.safeParse(await getPage(url, options));
    if (!page.success) {
      throw new ResoError(`The RESO feed answered page ${pages} without an OData value array`, {
        kind: 'malformed',
      });
    }
    const link = page.data['@odata.nextLink'];
    // Checked before this page's records are handed out, so a bad link fails before any work.
    const next: string | undefined = link ? nextUrl(link, url, seen, options.base) : undefined;
    yield page.data.value;
    url = next;
  }
}
