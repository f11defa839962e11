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
 * Authentication (RESO RCP-026): OAuth2 client credentials (`POST tokenUrl`,
 * `application/x-www-form-urlencoded` `grant_type=client_credentials` with the client id and secret
 * in the body or as HTTP Basic, answered `{ access_token, token_type, expires_in }`; the token is
 * kept until shortly before it expires) or a static bearer token some vendors issue instead.
 *
 * Failure policy, so the caller keeps the old data whenever a run cannot be complete:
 * - a record that fails the schema is skipped and reported through `onSkip` (the run goes on);
 * - a page that is not JSON or not the OData shape, a 4xx, a 5xx, a network failure or a timeout
 *   rejects the iteration with a ResoError;
 * - 429 waits for Retry-After when it is at most `maxRetryAfterSeconds` (a few times per page),
 *   otherwise it fails;
 * - 401 with client credentials fetches a new token once and asks again; a second 401 fails.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as z from 'zod';
import { parseRetryAfter } from '../email/email.server.ts';
import { resoPropertyUrl } from './reso-address.ts';

/** Records per page: the usual `$top` ceiling of RESO servers outside replication endpoints. */
export const RESO_PAGE_SIZE = 200;
export const DEFAULT_RESO_TIMEOUT_MS = 30_000;
/** The longest Retry-After the client waits for before it gives up on the run. */
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;
/** A 429 without a readable Retry-After waits this long (bounded by maxRetryAfterSeconds). */
const DEFAULT_RETRY_AFTER_SECONDS = 5;
/** 429s in a row for one page before the run fails even when each wait is within the bound. */
const MAX_RATE_LIMIT_WAITS = 5;
/** A runaway server (a nextLink that never ends) fails the run instead of looping for ever. */
const DEFAULT_MAX_PAGES = 2_000;
/** A cached token is renewed this long before its expires_in runs out (at most a tenth of it). */
const TOKEN_EXPIRY_MARGIN_SECONDS = 60;
const USER_AGENT = 'li-net-to-seller/0.1 (+sold homes)';
const MAX_DETAIL_LENGTH = 300;

/** The fields of a closed sale the site stores or matches on; `$select` asks for exactly these. */
export const SOLD_FIELDS = [
  'ListingKey',
  'UnparsedAddress',
  'StreetNumber',
  'StreetName',
  'City',
  'PostalCode',
  'ClosePrice',
  'CloseDate',
  'BedroomsTotal',
  'BathroomsTotalInteger',
  'LivingArea',
  'PropertyType',
  'ListAgentFullName',
  'ListOfficeName',
  'ModificationTimestamp',
  'CountyOrParish',
] as const;

export interface ResoClientConfig {
  /** The service root, e.g. `https://api.example-mls.com/odata` (`/Property` is appended). */
  baseUrl: string;
  /** OAuth2 token endpoint; with clientId and clientSecret selects the client credentials grant. */
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** Send the client id and secret as HTTP Basic instead of in the form body (RFC 6749 §2.3.1). */
  clientAuth?: 'body' | 'basic';
  /** OAuth2 scope, when the server wants one (often "api" or "OData"). */
  scope?: string;
  /** A static access token, for servers that issue one instead of client credentials. */
  bearerToken?: string;
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

export type ResoErrorKind =
  /** The configuration cannot work (no credentials, a bad URL). */
  | 'config'
  /** The token endpoint refused, or the API refused the token (401 twice, 403). */
  | 'auth'
  /** Could not connect, or the connection broke. */
  | 'network'
  | 'timeout'
  /** Any other non-2xx answer (4xx, 5xx). */
  | 'http'
  /** 429 with a Retry-After beyond the bound, or too many in a row. */
  | 'rate-limit'
  /** A page that is not JSON or not the OData shape, or a nextLink that cannot be followed. */
  | 'malformed';

/** Why the feed could not be read to the end. The message never carries a credential. */
export class ResoError extends Error {
  override readonly name = 'ResoError';
  readonly kind: ResoErrorKind;
  /** The server's HTTP status, when it answered. */
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    options: { kind: ResoErrorKind; status?: number; retryAfterSeconds?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Text without NUL characters (PostgreSQL text refuses them) and outer whitespace. */
const cleanText = (value: string): string => value.replaceAll('\u0000', '').trim();
/** An optional text field: absent, null and blank all become null. */
const optionalText = z
  .string()
  .max(1000)
  .nullish()
  .transform((value) => (value == null ? null : cleanText(value) || null));
const optionalCount = (max: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(max)
    .nullish()
    .transform((value) => value ?? null);

/** Edm.Date: `YYYY-MM-DD`, a real calendar day. */
const isoDate = z.iso.date().refine((value) => {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}, 'Not a calendar date');

/**
 * One Property record as the site uses it, with RESO field names. Bounds keep every value inside
 * its column (beds integer, baths numeric(4,1), sqft integer), so a bad record is skipped here and
 * can never fail the write of the others.
 */
export const resoPropertySchema = z
  .object({
    ListingKey: z.string().transform(cleanText).pipe(z.string().min(1).max(255)),
    /** Not in `$select` (the filter asks for Closed); read when present, as in files. */
    StandardStatus: optionalText,
    UnparsedAddress: optionalText,
    StreetNumber: z
      .union([z.string().max(50), z.number().int().nonnegative()])
      .nullish()
      .transform((value) => (value == null ? null : cleanText(String(value)) || null)),
    StreetName: optionalText,
    City: optionalText,
    PostalCode: optionalText,
    CountyOrParish: optionalText,
    ClosePrice: z
      .number()
      .nonnegative()
      .max(1e11)
      .nullish()
      .transform((value) => value ?? null),
    CloseDate: isoDate,
    BedroomsTotal: optionalCount(1000),
    BathroomsTotalInteger: optionalCount(999),
    LivingArea: z
      .number()
      .nonnegative()
      .max(10_000_000)
      .nullish()
      .transform((value) => (value == null ? null : Math.round(value))),
    PropertyType: optionalText,
    ListAgentFullName: optionalText,
    ListOfficeName: optionalText,
    ModificationTimestamp: z.iso.datetime({ offset: true }),
  })
  .refine((record) => record.UnparsedAddress !== null || record.StreetName !== null, {
    message: 'No address (UnparsedAddress or StreetName)',
    path: ['UnparsedAddress'],
  });
export type ResoProperty = z.infer<typeof resoPropertySchema>;

/** An OData collection page: the records are checked one by one (see resoPropertySchema). */
export const resoPageSchema = z.object({
  value: z.array(z.unknown()),
  '@odata.nextLink': z.string().min(1).nullish(),
});

export interface SkippedRecord {
  /** The record's ListingKey, when it has a readable one. */
  listingKey: string | null;
  /** What was wrong: the failing fields and zod's words. */
  reason: string;
}

export interface ClosedSalesQuery {
  /** CountyOrParish values, e.g. ['Nassau', 'Suffolk']. */
  counties: readonly string[];
  /** `CloseDate ge` this day (YYYY-MM-DD). */
  closedOnOrAfter: string;
  /** Incremental: only records with `ModificationTimestamp gt` this instant. */
  since?: Date;
  /** Called for every record that fails the schema (it is not yielded). */
  onSkip?: (skipped: SkippedRecord) => void;
}

/** Something closed sales can be read from: the RESO Web API, or a file in its response shape. */
export interface ClosedSalesSource {
  /** Where the records come from (a URL or a path), for the run record. */
  readonly origin: string;
  closedSales(query: ClosedSalesQuery): AsyncIterable<ResoProperty>;
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

/** Text from a server fit for an error message: whitespace collapsed, length bounded. */
function detail(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DETAIL_LENGTH ? `${clean.slice(0, MAX_DETAIL_LENGTH)}…` : clean;
}

const odataErrorSchema = z.object({
  error: z.union([z.object({ code: z.unknown(), message: z.string() }), z.string()]),
  error_description: z.string().optional(),
});

/** An OData (`{ error: { message } }`) or OAuth2 (`{ error, error_description }`) error's words. */
function errorDetail(body: string, fallback: string): string {
  const parsed = odataErrorSchema.safeParse(jsonOrUndefined(body));
  if (!parsed.success) return detail(body.startsWith('<') ? fallback : body || fallback);
  const { error, error_description: description } = parsed.data;
  return detail(typeof error === 'string' ? [error, description].filter(Boolean).join(': ') : error.message);
}

function jsonOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

const isTimeout = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'name' in error && error.name === 'TimeoutError';

/** Zod's issues in one line: `ClosePrice: expected number, received string; …`. */
function issuesText(error: z.ZodError): string {
  return detail(
    error.issues.map((issue) => `${issue.path.map(String).join('.') || 'record'}: ${issue.message}`).join('; '),
  );
}

/**
 * How long a file's records (or a page's) are checked before the event loop gets a turn (timers,
 * other requests): checking a million records at once held the embedded-database server for
 * minutes (security audit, finding 10). The clock is read every RECORDS_PER_CLOCK_READ records.
 */
export const TURN_MS = 20;
const RECORDS_PER_CLOCK_READ = 64;

/** `items` one by one, letting the event loop run after every TURN_MS of work. */
async function* inTurns(items: readonly unknown[]): AsyncGenerator<unknown> {
  let turnStarted = performance.now();
  for (let index = 0; index < items.length; index += 1) {
    if (index % RECORDS_PER_CLOCK_READ === 0 && performance.now() - turnStarted >= TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
    yield items[index];
  }
}

/** Fields resoPropertySchema requires: a record without one is skipped before zod builds its error. */
const REQUIRED_FIELDS = ['ListingKey', 'CloseDate', 'ModificationTimestamp'] as const;

/**
 * Why `raw` is no record, found without zod (a number, null, an array, an object missing a required
 * field), or undefined when the schema must decide.
 */
function plainlyNotARecord(raw: unknown): SkippedRecord | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const received = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    return { listingKey: null, reason: `record: expected an object, received ${received}` };
  }
  const fields = new Map<string, unknown>(Object.entries(raw));
  const missing = REQUIRED_FIELDS.filter((field) => fields.get(field) == null);
  if (missing.length === 0) return undefined;
  const key = fields.get('ListingKey');
  return {
    listingKey: typeof key === 'string' && key !== '' ? key : null,
    reason: missing.map((field) => `${field}: missing`).join('; '),
  };
}

/** Checks one raw record; a failure goes to `onSkip` and answers undefined. */
export function parseResoRecord(raw: unknown, onSkip?: (skipped: SkippedRecord) => void): ResoProperty | undefined {
  // Plainly no record (`0`, `{}`): skipped cheaply, as a file of a million of them must be.
  const plainly = plainlyNotARecord(raw);
  if (plainly) {
    onSkip?.(plainly);
    return undefined;
  }
  const parsed = resoPropertySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const key = z.object({ ListingKey: z.string().min(1) }).safeParse(raw);
  onSkip?.({ listingKey: key.success ? key.data.ListingKey : null, reason: issuesText(parsed.error) });
  return undefined;
}

const tokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  // A missing or unreadable expires_in keeps the token until the API refuses it (401, renewed once).
  expires_in: z.coerce.number().positive().optional().catch(undefined),
});

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** Where the access token comes from: a static one, or the client credentials grant. */
interface TokenSource {
  /** Can a 401 be cured by asking for a new token? */
  readonly renewable: boolean;
  token(): Promise<string>;
  /** Forgets `token` (the API refused it), so the next token() asks for a new one. */
  invalidate(token: string): void;
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

  /** One request, whatever its status; rejects only when there is no complete answer. */
  async function send(url: string, init: RequestInit, label: string): Promise<Answer> {
    try {
      const response = await fetchImpl(url, {
        ...init,
        headers: { 'User-Agent': USER_AGENT, Accept: 'application/json', ...init.headers },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await response.text();
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (isTimeout(error)) {
        throw new ResoError(`${label} did not answer within ${timeoutMs / 1000} s`, { kind: 'timeout', cause: error });
      }
      throw new ResoError(`${label} could not be reached (${safe(networkDetail(error))})`, {
        kind: 'network',
        cause: error,
      });
    }
  }

  function tokenSource(): TokenSource {
    const { bearerToken, tokenUrl, clientId, clientSecret, clientAuth = 'body', scope } = config;
    if (tokenUrl && clientId && clientSecret) {
      let cached: { token: string; expiresAt: number } | undefined;
      let pending: Promise<string> | undefined;
      const request = async (): Promise<string> => {
        const form = new URLSearchParams({ grant_type: 'client_credentials' });
        const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
        if (clientAuth === 'basic') {
          const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
          headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
        } else {
          form.set('client_id', clientId);
          form.set('client_secret', clientSecret);
        }
        if (scope) form.set('scope', scope);
        const answer = await send(
          tokenUrl,
          { method: 'POST', headers, body: form.toString() },
          'The RESO token endpoint',
        );
        if (answer.status < 200 || answer.status >= 300) {
          throw new ResoError(
            `The RESO token endpoint answered ${answer.status}: ${safe(errorDetail(answer.body, 'no detail'))}`,
            { kind: answer.status >= 500 || answer.status === 429 ? 'http' : 'auth', status: answer.status },
          );
        }
        const parsed = tokenSchema.safeParse(jsonOrUndefined(answer.body));
        if (!parsed.success) {
          throw new ResoError('The RESO token endpoint answered without an access_token', {
            kind: 'auth',
            status: answer.status,
          });
        }
        const { access_token: token, expires_in: expiresIn } = parsed.data;
        secrets.push(token);
        const margin = expiresIn === undefined ? 0 : Math.min(TOKEN_EXPIRY_MARGIN_SECONDS, expiresIn / 10);
        cached = {
          token,
          expiresAt: expiresIn === undefined ? Number.POSITIVE_INFINITY : now() + (expiresIn - margin) * 1000,
        };
        return token;
      };
      return {
        renewable: true,
        token() {
          if (cached && now() < cached.expiresAt) return Promise.resolve(cached.token);
          // One request for everybody who asks while it is under way.
          pending ??= request().finally(() => {
            pending = undefined;
          });
          return pending;
        },
        invalidate(token) {
          if (cached?.token === token) cached = undefined;
        },
      };
    }
    if (bearerToken) {
      return { renewable: false, token: () => Promise.resolve(bearerToken), invalidate: () => undefined };
    }
    throw new ResoError('The RESO feed needs a bearer token, or a token URL with a client id and secret', {
      kind: 'config',
    });
  }
  const auth = tokenSource();

  /** One page as JSON, after the 401 and 429 handling above. */
  async function getPage(url: string): Promise<unknown> {
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
  function nextUrl(link: string, current: string, seen: Set<string>): string {
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
      let url: string | undefined = closedSalesUrl(query);
      const seen = new Set<string>();
      let pages = 0;
      while (url !== undefined) {
        pages += 1;
        if (pages > maxPages) {
          throw new ResoError(`The RESO feed has more than ${maxPages} pages`, { kind: 'malformed' });
        }
        seen.add(url);
        const page = resoPageSchema.safeParse(await getPage(url));
        if (!page.success) {
          throw new ResoError(`The RESO feed answered page ${pages} without an OData value array`, {
            kind: 'malformed',
          });
        }
        const link = page.data['@odata.nextLink'];
        // Checked before this page's records are handed out, so a bad link fails before any work.
        const next: string | undefined = link ? nextUrl(link, url, seen) : undefined;
        for await (const raw of inTurns(page.data.value)) {
          const record = parseResoRecord(raw, query.onSkip);
          if (record) yield record;
        }
        url = next;
      }
    },
  };
}

const isPageShaped = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'value' in value;

/**
 * A file's records: a page's `value`, an array of pages' values, or a bare array of records. An
 * array is checked against the pages' schema only when every element looks like a page, which
 * stops at the first element that does not: a million records are never each given a zod error.
 */
function fileRecords(json: unknown, origin: string): readonly unknown[] {
  if (Array.isArray(json)) {
    const pages = json.length > 0 && json.every(isPageShaped) ? z.array(resoPageSchema).safeParse(json) : undefined;
    return pages?.success ? pages.data.flatMap((page) => page.value) : json;
  }
  const page = resoPageSchema.safeParse(json);
  if (!page.success)
    throw new ResoError(`${origin} is not a RESO response ({ "value": [...] })`, { kind: 'malformed' });
  return page.data.value;
}

/**
 * Closed sales from a file in the RESO response shape (`{ "value": [...] }`, or an array of such
 * pages, or a bare array of records), for sites without MLS credentials. The query is applied
 * here as the server would: status Closed (when the record says), CloseDate, county (when the
 * record says) and ModificationTimestamp. A file that is not one of these shapes is a ResoError.
 */
export function resoFileSource(json: unknown, origin: string): ClosedSalesSource {
  const records = fileRecords(json, origin);
  return {
    origin,
    async *closedSales({ counties, closedOnOrAfter, since, onSkip }) {
      const wanted = new Set(counties.map((county) => county.toLowerCase()));
      for await (const raw of inTurns(records)) {
        const record = parseResoRecord(raw, onSkip);
        if (!record) continue;
        if (record.StandardStatus !== null && record.StandardStatus !== 'Closed') continue;
        if (record.CloseDate < closedOnOrAfter) continue;
        if (record.CountyOrParish !== null && !wanted.has(record.CountyOrParish.toLowerCase())) continue;
        if (since && Date.parse(record.ModificationTimestamp) <= since.getTime()) continue;
        yield record;
      }
    },
  };
}
