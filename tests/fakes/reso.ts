/**
 * A local stand-in for a RESO Web API server (an MLS feed such as OneKey MLS's), served by
 * node:http on 127.0.0.1 and a random port, over an in-memory list of Property records.
 *
 * - `POST /token`: OAuth2 client credentials (RFC 6749 §4.4): `application/x-www-form-urlencoded`
 *   with `grant_type=client_credentials` and the client id and secret in the body or as HTTP
 *   Basic; answers `{ access_token, token_type: "Bearer", expires_in }`, 400 unsupported_grant_type
 *   or invalid_request, 401 invalid_client.
 * - `GET /odata/Property`: Bearer auth (an issued, unexpired token or the static token; else 401
 *   with `WWW-Authenticate: Bearer error="invalid_token"`), and the OData the client uses, really
 *   evaluated: `$filter` with `and`, `or`, `not`, parentheses and `eq ne gt ge lt le` over string
 *   ('Closed', with '' for a quote), Edm.Date (2025-03-01), Edm.DateTimeOffset
 *   (2025-03-01T12:00:00Z), number and null literals; `$select`; `$orderby` (`Field asc|desc`, …);
 *   `$top` (capped at `maxTop`, the server's page size when absent) and `$skip`. A page answers
 *   `{ "@odata.context", value, "@odata.nextLink"? }`, the link carrying the next `$skip`. Unknown
 *   fields and bad syntax answer 400 with an OData error `{ error: { code, message } }`.
 *
 * A test can make it misbehave from the Nth page on: 429 with Retry-After, 5xx, a malformed page
 * (HTML, broken JSON, JSON that is not OData), a connection cut mid-body, a slow answer, or every
 * token expiring (401 until the client fetches a new one).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { header, readBody, startLoopbackServer } from './loopback-server.ts';

/** A Property record as the server stores it; fields may hold anything (bad records included). */
export type ResoRecord = Record<string, unknown>;

/** The Property fields this server knows (its metadata); any other name in a query is a 400. */
export const PROPERTY_FIELDS = [
  'ListingKey',
  'ListingId',
  'StandardStatus',
  'CloseDate',
  'ClosePrice',
  'ListPrice',
  'ModificationTimestamp',
  'CountyOrParish',
  'City',
  'StateOrProvince',
  'PostalCode',
  'UnparsedAddress',
  'StreetNumber',
  'StreetName',
  'BedroomsTotal',
  'BathroomsTotalInteger',
  'LivingArea',
  'PropertyType',
  'ListAgentFullName',
  'ListOfficeName',
] as const;
const KNOWN_FIELDS = new Set<string>(PROPERTY_FIELDS);

export interface PropertyRequest {
  url: string;
  status: number;
  authorization: string | null;
  filter: string | null;
  select: string | null;
  orderby: string | null;
  top: string | null;
  skip: string | null;
}

export interface TokenRequest {
  status: number;
  /** How the client authenticated: 'basic', 'body' or null (no credentials). */
  clientAuth: 'basic' | 'body' | null;
  grantType: string | null;
  scope: string | null;
}

/** Something to go wrong with a page request that passed authentication. */
export type ResoTrouble =
  /** 429 with Retry-After when given (seconds or an HTTP date). */
  | { kind: 'rate-limit'; retryAfter?: number | string }
  /** 500 by default, or another status. */
  | { kind: 'server-error'; status?: number }
  /** 200 with a page that is an HTML error page, truncated JSON, or JSON without `value`. */
  | { kind: 'malformed'; body: 'html' | 'broken-json' | 'not-odata' }
  /** 200, half of the page, then the connection is destroyed. */
  | { kind: 'cut' }
  /** Answers normally, after `ms`. */
  | { kind: 'slow'; ms: number }
  /** Every issued token expires now: this request and later ones answer 401 until a new token. */
  | { kind: 'expire-tokens' };

export interface TroubleOptions {
  /** How many page requests meet the trouble (Infinity: until reset). Default 1. */
  times?: number;
  /** Page requests answered normally first (2: the third page request meets it). Default 0. */
  afterPages?: number;
}

export interface FakeResoOptions {
  clientId?: string;
  clientSecret?: string;
  /** A long-lived token the server also accepts (the "bearer token" mode of some vendors). */
  staticToken?: string;
  /** expires_in of issued tokens. Default 3600. */
  tokenLifetimeSeconds?: number;
  /** The largest page; also the page when `$top` is absent. Default 200. */
  maxTop?: number;
}

export interface FakeReso {
  /** The service root to configure (…/odata); `/Property` is under it. */
  readonly url: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly staticToken: string;
  /** The records served; tests add, change and remove them freely. */
  properties: ResoRecord[];
  readonly propertyRequests: PropertyRequest[];
  readonly tokenRequests: TokenRequest[];
  /** Page requests that pass authentication meet `trouble` (see TroubleOptions). */
  trouble(trouble: ResoTrouble, options?: TroubleOptions): void;
  /** Forgets requests, planned trouble and issued tokens (the records stay). */
  reset(): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Send this much of the body, then destroy the connection. */
  cutAfter?: number;
}

class ODataError extends Error {}

const odataError = (status: number, code: string, message: string, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify({ error: { code, message } }),
  headers,
});

const oauthError = (status: number, error: string, description: string, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify({ error, error_description: description }),
  headers: { 'cache-control': 'no-store', ...headers },
});

// ---------------------------------------------------------------------------------------------
// $filter: a small OData expression parser and evaluator.

type Literal =
  | { type: 'string'; value: string }
  | { type: 'date'; value: string }
  | { type: 'datetime'; value: number }
  | { type: 'number'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'null' };
type Operator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
type Expression =
  | { kind: 'and' | 'or'; left: Expression; right: Expression }
  | { kind: 'not'; operand: Expression }
  | { kind: 'compare'; field: string; operator: Operator; literal: Literal };

const OPERATORS = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const isOperator = (word: string): word is Operator => OPERATORS.has(word);

type Token =
  { type: 'open' } | { type: 'close' } | { type: 'word'; text: string } | { type: 'literal'; literal: Literal };

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})/;
const DATE = /^\d{4}-\d{2}-\d{2}(?![\dT])/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/;
const WORD = /^[A-Za-z_][A-Za-z0-9_]*/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let rest = text;
  while (rest.length > 0) {
    const space = /^\s+/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    if (rest.startsWith('(')) {
      tokens.push({ type: 'open' });
      rest = rest.slice(1);
      continue;
    }
    if (rest.startsWith(')')) {
      tokens.push({ type: 'close' });
      rest = rest.slice(1);
      continue;
    }
    if (rest.startsWith("'")) {
      let value = '';
      let index = 1;
      for (;;) {
        if (index >= rest.length) throw new ODataError('Unterminated string literal in $filter');
        const char = rest[index];
        if (char === "'") {
          if (rest[index + 1] === "'") {
            value += "'";
            index += 2;
            continue;
          }
          break;
        }
        value += char;
        index += 1;
      }
      tokens.push({ type: 'literal', literal: { type: 'string', value } });
      rest = rest.slice(index + 1);
      continue;
    }
    const dateTime = DATE_TIME.exec(rest);
    if (dateTime) {
      const value = Date.parse(dateTime[0]);
      if (Number.isNaN(value)) throw new ODataError(`Bad DateTimeOffset literal ${dateTime[0]}`);
      tokens.push({ type: 'literal', literal: { type: 'datetime', value } });
      rest = rest.slice(dateTime[0].length);
      continue;
    }
    const date = DATE.exec(rest);
    if (date) {
      tokens.push({ type: 'literal', literal: { type: 'date', value: date[0] } });
      rest = rest.slice(date[0].length);
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number) {
      tokens.push({ type: 'literal', literal: { type: 'number', value: Number(number[0]) } });
      rest = rest.slice(number[0].length);
      continue;
    }
    const word = WORD.exec(rest);
    if (word) {
      const text = word[0];
      if (text === 'null') tokens.push({ type: 'literal', literal: { type: 'null' } });
      else if (text === 'true' || text === 'false') {
        tokens.push({ type: 'literal', literal: { type: 'boolean', value: text === 'true' } });
      } else tokens.push({ type: 'word', text });
      rest = rest.slice(text.length);
      continue;
    }
    throw new ODataError(`Syntax error in $filter at '${rest.slice(0, 20)}'`);
  }
  return tokens;
}

/** Parses a `$filter` expression; throws ODataError on bad syntax or an unknown property. */
export function parseFilter(text: string): Expression {
  const tokens = tokenize(text);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isWord = (token: Token | undefined, text: string): boolean => token?.type === 'word' && token.text === text;

  function orExpression(): Expression {
    let left = andExpression();
    while (isWord(peek(), 'or')) {
      position += 1;
      left = { kind: 'or', left, right: andExpression() };
    }
    return left;
  }
  function andExpression(): Expression {
    let left = unary();
    while (isWord(peek(), 'and')) {
      position += 1;
      left = { kind: 'and', left, right: unary() };
    }
    return left;
  }
  function unary(): Expression {
    if (isWord(peek(), 'not')) {
      position += 1;
      return { kind: 'not', operand: unary() };
    }
    const token = peek();
    if (token?.type === 'open') {
      position += 1;
      const inner = orExpression();
      if (peek()?.type !== 'close') throw new ODataError("Expected ')' in $filter");
      position += 1;
      return inner;
    }
    if (token?.type !== 'word') throw new ODataError('Expected a property name in $filter');
    position += 1;
    if (!KNOWN_FIELDS.has(token.text)) {
      throw new ODataError(`Could not find a property named '${token.text}' on type 'Property'.`);
    }
    const operator = peek();
    if (operator?.type !== 'word' || !isOperator(operator.text)) {
      throw new ODataError(`Expected a comparison operator after ${token.text} in $filter`);
    }
    position += 1;
    const literal = peek();
    if (literal?.type !== 'literal') throw new ODataError(`Expected a literal after ${token.text} ${operator.text}`);
    position += 1;
    return { kind: 'compare', field: token.text, operator: operator.text, literal: literal.literal };
  }

  const expression = orExpression();
  if (position !== tokens.length) throw new ODataError('Unexpected text at the end of $filter');
  return expression;
}

function compare(operator: Operator, order: number): boolean {
  switch (operator) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
  }
}

/** -1, 0 or 1 for a value against a literal, or null when they cannot be compared (false). */
function order(value: unknown, literal: Literal): number | null {
  const sign = (a: number | string, b: number | string): number => (a < b ? -1 : a > b ? 1 : 0);
  switch (literal.type) {
    case 'string':
      return typeof value === 'string' ? sign(value, literal.value) : null;
    case 'date':
      return typeof value === 'string' ? sign(value.slice(0, 10), literal.value) : null;
    case 'datetime': {
      const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      return Number.isNaN(time) ? null : sign(time, literal.value);
    }
    case 'number':
      return typeof value === 'number' ? sign(value, literal.value) : null;
    case 'boolean':
      return typeof value === 'boolean' ? sign(Number(value), Number(literal.value)) : null;
    case 'null':
      return null;
  }
}

export function matches(record: ResoRecord, expression: Expression): boolean {
  switch (expression.kind) {
    case 'and':
      return matches(record, expression.left) && matches(record, expression.right);
    case 'or':
      return matches(record, expression.left) || matches(record, expression.right);
    case 'not':
      return !matches(record, expression.operand);
    case 'compare': {
      const value = record[expression.field] ?? null;
      if (expression.literal.type === 'null') {
        if (expression.operator === 'eq') return value === null;
        if (expression.operator === 'ne') return value !== null;
        return false;
      }
      if (value === null) return expression.operator === 'ne';
      const result = order(value, expression.literal);
      return result === null ? false : compare(expression.operator, result);
    }
  }
}

function fieldList(text: string, option: string): string[] {
  const fields = text.split(',').map((field) => field.trim());
  for (const field of fields) {
    if (!KNOWN_FIELDS.has(field)) {
      throw new ODataError(`Could not find a property named '${field}' on type 'Property' in ${option}.`);
    }
  }
  return fields;
}

function parseOrderBy(text: string): { field: string; descending: boolean }[] {
  return text.split(',').map((part) => {
    const [field = '', direction = 'asc', ...extra] = part.trim().split(/\s+/);
    if (extra.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
      throw new ODataError(`Bad $orderby clause '${part.trim()}'`);
    }
    fieldList(field, '$orderby');
    return { field, descending: direction === 'desc' };
  });
}

function sortKey(value: unknown): number | string {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const time = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
    return Number.isNaN(time) ? value : time;
  }
  return '';
}

function nonNegativeInteger(text: string | null, option: string): number | null {
  if (text === null) return null;
  if (!/^\d+$/.test(text)) throw new ODataError(`${option} must be a non-negative integer`);
  return Number(text);
}

// ---------------------------------------------------------------------------------------------
// A generator of realistic closed sales across our towns.

interface GeneratorTown {
  slug: string;
  name: string;
  county: string;
  zipCodes: readonly string[];
}

export interface GenerateOptions {
  towns: readonly GeneratorTown[];
  /** The moment the feed is read; close dates and modification times are before it. */
  now: Date;
  /** Sales per town. Default 5. */
  perTown?: number;
  /** Close dates spread over this many months before `now`. Default 11 (all inside the window). */
  monthsBack?: number;
  /** PRNG seed. Default 1. */
  seed?: number;
  /** ListingKeys are `{prefix}{n}`. Default 'LK'. */
  keyPrefix?: string;
}

const STREETS = ['Main St', 'Oak Ave', 'Maple Dr', 'Harbor Rd', 'Bayview Ave', 'Elm St', 'Park Pl', 'Ocean Ave'];
const AGENTS = ['Dana Lopez', 'Michael Chen', 'Priya Patel', "Sean O'Brien", 'Rosa Martinez', 'Tom Walsh'];
const OFFICES = ['Harbor Point Realty', 'Coach Realtors', 'Douglas Elliman', 'Signature Premier Properties'];
const TYPES = ['Residential', 'Residential', 'Residential', 'Condominium', 'Multi Family'];

/** mulberry32: small, deterministic. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;

/** One closed sale with every field the site reads, in the feed's own spelling. */
export function closedSale(fields: ResoRecord & { ListingKey: string }): ResoRecord {
  return {
    ListingId: `L${fields.ListingKey}`,
    StandardStatus: 'Closed',
    StateOrProvince: 'NY',
    CloseDate: '2026-01-15',
    ClosePrice: 650_000,
    ListPrice: 659_000,
    ModificationTimestamp: '2026-01-20T15:30:00.000Z',
    CountyOrParish: 'Nassau',
    City: 'Levittown',
    PostalCode: '11756',
    UnparsedAddress: '12 Main St',
    StreetNumber: '12',
    StreetName: 'Main St',
    BedroomsTotal: 3,
    BathroomsTotalInteger: 2,
    LivingArea: 1650,
    PropertyType: 'Residential',
    ListAgentFullName: 'Dana Lopez',
    ListOfficeName: 'Harbor Point Realty',
    ...fields,
  };
}

/**
 * `perTown` closed sales for each town: close dates spread over the last `monthsBack` months,
 * a modification a few days after closing (never after `now`), prices by county, the town's
 * name as City (the feed's "St. James" for Saint James) and its first ZIP.
 */
export function generateClosedSales(options: GenerateOptions): ResoRecord[] {
  const { towns, now, perTown = 5, monthsBack = 11, seed = 1, keyPrefix = 'LK' } = options;
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => {
    const item = list[Math.floor(next() * list.length)];
    if (item === undefined) throw new Error('Nothing to pick from');
    return item;
  };
  const records: ResoRecord[] = [];
  let serial = 0;
  for (const town of towns) {
    for (let index = 0; index < perTown; index += 1) {
      serial += 1;
      const closedAt = now.getTime() - Math.floor(next() * monthsBack * 30.4) * DAY_MS - DAY_MS;
      const closeDate = new Date(closedAt).toISOString().slice(0, 10);
      const modifiedAt = Math.min(now.getTime() - 60_000, closedAt + Math.floor(next() * 10 * DAY_MS));
      const base = town.county === 'Nassau' ? 700_000 : 550_000;
      const number = String(1 + Math.floor(next() * 400));
      const street = pick(STREETS);
      const beds = 2 + Math.floor(next() * 4);
      records.push(
        closedSale({
          ListingKey: `${keyPrefix}${String(serial).padStart(6, '0')}`,
          CloseDate: closeDate,
          ClosePrice: Math.round((base * (0.6 + next() * 1.2)) / 1000) * 1000,
          ListPrice: Math.round((base * (0.6 + next() * 1.2)) / 1000) * 1000,
          ModificationTimestamp: new Date(modifiedAt).toISOString(),
          CountyOrParish: town.county,
          City: town.name === 'Saint James' ? 'St. James' : town.name,
          PostalCode: town.zipCodes[0] ?? '11700',
          UnparsedAddress: `${number} ${street}`,
          StreetNumber: number,
          StreetName: street,
          BedroomsTotal: beds,
          BathroomsTotalInteger: 1 + Math.floor(next() * 3),
          LivingArea: 900 + beds * 300 + Math.floor(next() * 600),
          PropertyType: pick(TYPES),
          ListAgentFullName: pick(AGENTS),
          ListOfficeName: pick(OFFICES),
        }),
      );
    }
  }
  return records;
}

// ---------------------------------------------------------------------------------------------
// The server.

/** OData query options in the request's own order, `$skip` replaced (for the nextLink). */
function withSkip(url: URL, skip: number): string {
  const parts = [...url.searchParams.entries()].filter(([key]) => key !== '$skip');
  parts.push(['$skip', String(skip)]);
  return `${url.origin}${url.pathname}?${parts.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}

export async function startFakeReso(options: FakeResoOptions = {}): Promise<FakeReso> {
  const {
    clientId = 'li-net-to-seller',
    clientSecret = 'reso-client-secret-0123456789',
    staticToken = 'reso-static-bearer-token-abcdef',
    tokenLifetimeSeconds = 3600,
    maxTop = 200,
  } = options;
  const propertyRequests: PropertyRequest[] = [];
  const tokenRequests: TokenRequest[] = [];
  /** Issued token → when it expires (ms). */
  const tokens = new Map<string, number>();
  const planned: { trouble: ResoTrouble; times: number; afterPages: number }[] = [];
  let origin = '';

  function nextTrouble(): ResoTrouble | undefined {
    const next = planned[0];
    if (!next) return undefined;
    if (next.afterPages > 0) {
      next.afterPages -= 1;
      return undefined;
    }
    next.times -= 1;
    if (next.times <= 0) planned.shift();
    return next.trouble;
  }

  function token(body: string, headers: IncomingHttpHeaders): { answer: Answer; request: TokenRequest } {
    const form = new URLSearchParams(body);
    const request: TokenRequest = {
      status: 0,
      clientAuth: null,
      grantType: form.get('grant_type'),
      scope: form.get('scope'),
    };
    const done = (answer: Answer) => {
      request.status = answer.status;
      return { answer, request };
    };
    const contentType = header(headers, 'content-type') ?? '';
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return done(oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded'));
    }
    const basic = /^Basic (.+)$/i.exec(header(headers, 'authorization') ?? '');
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    if (basic) {
      const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
      request.clientAuth = 'basic';
    } else if (id !== null) {
      request.clientAuth = 'body';
    }
    if (request.grantType !== 'client_credentials') {
      return done(oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported'));
    }
    if (id !== clientId || secret !== clientSecret) {
      return done(
        oauthError(
          401,
          'invalid_client',
          'Client authentication failed',
          basic ? { 'www-authenticate': 'Basic realm="reso"' } : undefined,
        ),
      );
    }
    const accessToken = randomBytes(24).toString('hex');
    tokens.set(accessToken, Date.now() + tokenLifetimeSeconds * 1000);
    return done({
      status: 200,
      body: JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: tokenLifetimeSeconds }),
      headers: { 'cache-control': 'no-store' },
    });
  }

  function authorized(authorization: string | null): boolean {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '');
    if (!bearer?.[1]) return false;
    if (bearer[1] === staticToken) return true;
    const expiresAt = tokens.get(bearer[1]);
    return expiresAt !== undefined && Date.now() < expiresAt;
  }

  const unauthorized = (): Answer =>
    odataError(401, 'Unauthorized', 'The access token is missing, invalid or expired.', {
      'www-authenticate': 'Bearer error="invalid_token"',
    });

  function page(url: URL): Answer {
    const query = url.searchParams;
    const filter = query.get('$filter');
    const expression = filter === null ? undefined : parseFilter(filter);
    const select = query.get('$select');
    const fields = select === null ? undefined : fieldList(select, '$select');
    const orderby = query.get('$orderby');
    const ordering = orderby === null ? [] : parseOrderBy(orderby);
    const top = Math.min(nonNegativeInteger(query.get('$top'), '$top') ?? maxTop, maxTop);
    const skip = nonNegativeInteger(query.get('$skip'), '$skip') ?? 0;

    const found = expression ? properties().filter((record) => matches(record, expression)) : [...properties()];
    found.sort((a, b) => {
      for (const { field, descending } of ordering) {
        const left = sortKey(a[field]);
        const right = sortKey(b[field]);
        if (left !== right) return (left < right ? -1 : 1) * (descending ? -1 : 1);
      }
      return String(a.ListingKey).localeCompare(String(b.ListingKey));
    });
    const slice = found.slice(skip, skip + top);
    const value = slice.map((record) =>
      fields ? Object.fromEntries(fields.map((field) => [field, record[field] ?? null])) : record,
    );
    const more = skip + slice.length < found.length && slice.length > 0;
    return {
      status: 200,
      body: JSON.stringify({
        '@odata.context': `${origin}/odata/$metadata#Property${fields ? `(${fields.join(',')})` : ''}`,
        value,
        ...(more ? { '@odata.nextLink': withSkip(url, skip + slice.length) } : {}),
      }),
    };
  }

  function property(url: URL, authorization: string | null): Answer {
    if (!authorized(authorization)) return unauthorized();
    const trouble = nextTrouble();
    switch (trouble?.kind) {
      case 'rate-limit':
        return odataError(429, 'TooManyRequests', 'Rate limit exceeded. Try again later.', {
          ...(trouble.retryAfter === undefined ? {} : { 'retry-after': String(trouble.retryAfter) }),
        });
      case 'server-error':
        return odataError(trouble.status ?? 500, 'InternalServerError', 'An unexpected error occurred.');
      case 'expire-tokens':
        tokens.clear();
        return authorized(authorization) ? property(url, authorization) : unauthorized();
      default:
        break;
    }
    let answer: Answer;
    try {
      answer = page(url);
    } catch (failure) {
      if (failure instanceof ODataError) return odataError(400, 'BadRequest', failure.message);
      throw failure;
    }
    switch (trouble?.kind) {
      case 'malformed':
        if (trouble.body === 'html') {
          return {
            status: 200,
            body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
            headers: { 'content-type': 'text/html' },
          };
        }
        if (trouble.body === 'broken-json') return { status: 200, body: answer.body.slice(0, answer.body.length / 2) };
        return { status: 200, body: JSON.stringify({ results: [], message: 'maintenance' }) };
      case 'cut':
        return { ...answer, cutAfter: Math.floor(answer.body.length / 2) };
      case 'slow':
        return { ...answer, delayMs: trouble.ms };
      default:
        return answer;
    }
  }

  const state: { properties: ResoRecord[] } = { properties: [] };
  const properties = () => state.properties;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = (await readBody(request)).toString('utf8');
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', origin);
    let answer: Answer;
    if (url.pathname === '/token') {
      if (method !== 'POST') answer = oauthError(405, 'invalid_request', 'Use POST');
      else {
        const result = token(body, request.headers);
        tokenRequests.push(result.request);
        answer = result.answer;
      }
    } else if (url.pathname === '/odata/Property') {
      const authorization = header(request.headers, 'authorization') ?? null;
      answer =
        method === 'GET' ? property(url, authorization) : odataError(405, 'MethodNotAllowed', 'Only GET is allowed');
      propertyRequests.push({
        url: url.href,
        status: answer.status,
        authorization,
        filter: url.searchParams.get('$filter'),
        select: url.searchParams.get('$select'),
        orderby: url.searchParams.get('$orderby'),
        top: url.searchParams.get('$top'),
        skip: url.searchParams.get('$skip'),
      });
    } else {
      answer = odataError(404, 'NotFound', `No resource at ${url.pathname}`);
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'odata-version': '4.0',
      ...answer.headers,
    });
    if (answer.cutAfter !== undefined) {
      response.write(answer.body.slice(0, answer.cutAfter));
      // Let the first half reach the client, then break the connection mid-body.
      setTimeout(() => response.destroy(), 10);
      return;
    }
    response.end(answer.body);
  }

  const server = await startLoopbackServer(handle);
  origin = server.origin;

  return {
    url: `${origin}/odata`,
    tokenUrl: `${origin}/token`,
    clientId,
    clientSecret,
    staticToken,
    get properties() {
      return state.properties;
    },
    set properties(records: ResoRecord[]) {
      state.properties = records;
    },
    propertyRequests,
    tokenRequests,
    trouble(trouble, { times = 1, afterPages = 0 } = {}) {
      planned.push({ trouble, times, afterPages });
    },
    reset() {
      propertyRequests.length = 0;
      tokenRequests.length = 0;
      planned.length = 0;
      tokens.clear();
    },
    close: () => server.close(),
  };
}
