/**
 * A RESO Web API client for closed sales (the MLS feed; OneKey MLS serves Long Island through one).
 *
 * The RESO Web API is a profile of OData 4: `GET {service root}/Property` with `$filter`, `$select`,
 * `$orderby` and `$top` (servers cap `$top`; 200 is the common limit outside replication
 * endpoints), answered `{ "@odata.context", "value": [...], "@odata.nextLink"? }`; the client
 * follows `@odata.nextLink` until a page has none. Edm.Date literals are bare `YYYY-MM-DD`,
 * Edm.DateTimeOffset literals bare ISO 8601 (`2025-03-01T12:00:00.000Z`), strings single-quoted with
 * `''` for a quote. Field names are case sensitive.
 *
 * Failure policy, so the caller keeps the old data whenever a run cannot be complete:
 * - a record that fails the schema is skipped and reported through `onSkip` (the run goes on);
 * - a page that is not JSON or not the OData shape, a 4xx, a 5xx, a network failure or a timeout
 *   rejects the iteration with a ResoError;
 * - 429 waits for Retry-After when it is at most `maxRetryAfterSeconds` (a few times per page),
 *   otherwise it fails;
 * - 401 with client credentials fetches a new token once and asks again; a second 401 fails.
 *
 * Its parts: the access token (reso-auth), the pages (reso-paging), the records and their mapping
 * (reso-records), one request (reso-http) and the errors (reso-error); a file in the same shape is
 * read by reso-file-source.
 */
import { resoTokenSource, type ResoCredentials } from './reso-auth.server.ts';
import { ResoError } from './reso-error.server.ts';
import { resoSender } from './reso-http.server.ts';
import { DEFAULT_MAX_PAGES, DEFAULT_MAX_RETRY_AFTER_SECONDS, resoPages } from './reso-paging.server.ts';
import {
  isoDate,
  inTurns,
  parseResoRecord,
  SOLD_FIELDS,
  type ClosedSalesQuery,
  type ClosedSalesSource,
} from './reso-records.server.ts';
import { resoPropertyUrl } from './reso-address.ts';

/** Records per page: the usual `$top` ceiling of RESO servers outside replication endpoints. */
export const RESO_PAGE_SIZE = 200;
export const DEFAULT_RESO_TIMEOUT_MS = 30_000;

export interface ResoClientConfig extends ResoCredentials {
  /** The service root, e.g. `https://api.example-mls.com/odata` (`/Property` is appended). */
  baseUrl: string;
  /** Time limit of one request, body included. Default DEFAULT_RESO_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default DEFAULT_MAX_RETRY_AFTER_SECONDS. */
  maxRetryAfterSeconds?: number;
  /** `$top`. Default RESO_PAGE_SIZE. */
  pageSize?: number;
  /** Default DEFAULT_MAX_PAGES. */
  maxPages?: number;
  /** Default the global fetch. */
  fetch?: typeof fetch;
  /** How a Retry-After is waited out; tests pass one that records and returns at once. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock of the token cache. Default Date.now. */
  now?: () => number;
}

export interface ResoClient extends ClosedSalesSource {
  /** The first page's URL for `query`. */
  closedSalesUrl(query: Omit<ClosedSalesQuery, 'onSkip'>): string;
}

/** An OData string literal. */
const odataString = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** The `$filter` of a closed-sales query (exported for tests and the file source's docs). */
export function closedSalesFilter({ counties, closedOnOrAfter, since }: Omit<ClosedSalesQuery, 'onSkip'>): string {
  if (counties.length === 0) throw new ResoError('No county to ask the RESO feed for', { kind: 'config' });
  if (!isoDate.safeParse(closedOnOrAfter).success) {
    throw new ResoError(`Not a date: ${closedOnOrAfter}`, { kind: 'config' });
  }
  const countyClause = counties.map((county) => `CountyOrParish eq ${odataString(county)}`).join(' or ');
  const parts = [`StandardStatus eq 'Closed'`, `CloseDate ge ${closedOnOrAfter}`, `(${countyClause})`];
  if (since) parts.push(`ModificationTimestamp gt ${since.toISOString()}`);
  return parts.join(' and ');
}

export function createResoClient(config: ResoClientConfig): ResoClient {
  const {
    timeoutMs = DEFAULT_RESO_TIMEOUT_MS,
    maxRetryAfterSeconds = DEFAULT_MAX_RETRY_AFTER_SECONDS,
    pageSize = RESO_PAGE_SIZE,
    maxPages = DEFAULT_MAX_PAGES,
    fetch: fetchImpl = fetch,
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    now = Date.now,
  } = config;
  let base: URL;
  try {
    base = new URL(config.baseUrl.replace(/\/+$/, ''));
  } catch (error) {
    throw new ResoError('The RESO base URL is not a URL', { kind: 'config', cause: error });
  }
  const propertyUrl = resoPropertyUrl(base);
  /** Never in an error message: the secret, the static token, and each access token issued. */
  const secrets = [config.clientSecret, config.bearerToken].filter((value): value is string => Boolean(value));
  const safe = (text: string): string =>
    secrets.reduce((clean, secret) => clean.split(secret).join('[redacted]'), text);

  const send = resoSender({ fetchImpl, timeoutMs, safe });
  const auth = resoTokenSource(config, { send, safe, hideInErrors: (token) => secrets.push(token), now });
  const paging = { send, auth, safe, base, maxRetryAfterSeconds, maxPages, sleep };

  function closedSalesUrl(query: Omit<ClosedSalesQuery, 'onSkip'>): string {
    const params: [string, string][] = [
      ['$filter', closedSalesFilter(query)],
      ['$select', SOLD_FIELDS.join(',')],
      ['$orderby', 'ModificationTimestamp asc'],
      ['$top', String(pageSize)],
    ];
    // %20 rather than URLSearchParams' "+": OData servers differ on "+" in a query.
    return `${propertyUrl}?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
  }

  return {
    origin: propertyUrl,
    closedSalesUrl,
    async *closedSales(query) {
      for await (const records of resoPages(closedSalesUrl(query), paging)) {
        for await (const raw of inTurns(records)) {
          const record = parseResoRecord(raw, query.onSkip);
          if (record) yield record;
        }
      }
    },
  };
}
