/**
 * One table of requests, asked of two servers: Netlify's own local server (`netlify serve`, the
 * real build and the bundled functions) and the project's own (`npm run serve`, what `npm start`
 * runs). Each row says what both must answer; every header that matters must then be equal on
 * both, except where Netlify's CLI is known to differ from what Netlify documents for production
 * (decision 0032): those headers are checked on the project's server against the documented value.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { islandDataId, LIGHT_ISLANDS } from '../../src/ui/light-island.ts';

/** The headers compared: security, robots, caching at the edge and in the browser, type, redirects. */
export const COMPARED_HEADERS = [
  'content-type',
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'x-frame-options',
  'x-robots-tag',
  'cache-control',
  'netlify-cdn-cache-control',
  'netlify-cache-tag',
  'netlify-vary',
  'location',
] as const;
type ComparedHeader = (typeof COMPARED_HEADERS)[number];

/** What an earlier row found, for rows whose path depends on it (a stored estimate's uuid). */
export interface Found {
  estimateUuid?: string;
  astroScript: string;
}

/** Where `netlify serve` (27.10) answers otherwise than Netlify documents for production. */
interface CliDeviation {
  headers: ComparedHeader[];
  why: string;
}

export interface ParityRow {
  name: string;
  method?: 'GET' | 'POST';
  path: string | ((found: Found) => string);
  body?: unknown;
  status: number;
  /** Values both servers must send (null: must be absent), beyond being equal to each other. */
  expect?: Partial<Record<ComparedHeader, string | RegExp | null>>;
  cli?: CliDeviation;
  /**
   * Text both servers' bodies must hold: what shows the page was rendered, not only answered (a
   * page whose island failed to render still answers 200, with the shell as built).
   */
  bodyContains?: string;
  /** Reads what later rows need from this row's JSON answer. */
  remember?: (json: unknown, found: Found) => void;
}

/**
 * Netlify applies `_headers` to static files, and gives those without a Cache-Control of their own
 * `public, max-age=0, must-revalidate` (https://docs.netlify.com/build/caching/caching-overview/ and
 * https://docs.netlify.com/manage/routing/headers/); the CLI's static server sends `public, max-age=0`
 * whatever `_headers` says (seen in the audit of 2026-11-26, A6 and Step 4).
 */
const STATIC_CACHE: CliDeviation = {
  headers: ['cache-control'],
  why: "the CLI's static server ignores _headers' Cache-Control and Netlify's default for static files",
};
const STATIC_HTML_CACHE = 'public, max-age=0, must-revalidate';

/** The security headers of `public/_headers`' `/*` block, which every page carries. */
const PAGE_SECURITY = {
  'content-security-policy': "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

const EDGE_CACHED = /^public, durable, s-maxage=\d+, stale-while-revalidate=\d+$/;
const BROWSER_REVALIDATES = 'public, max-age=0, must-revalidate';
const NO_STORE = 'no-store';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** The demo's worked example (README): the featured agent's calculator, $500,000, a $200,000 payoff. */
const WORKED_EXAMPLE = { agent_slug: 'alexmorgan', sale_price: 500_000, mortgage_payoff: 200_000 };

const uuidOf = (json: unknown): string | undefined => {
  if (typeof json !== 'object' || json === null) return undefined;
  const holder =
    'estimate' in json && typeof json.estimate === 'object' && json.estimate !== null ? json.estimate : json;
  return 'uuid' in holder && typeof holder.uuid === 'string' ? holder.uuid : undefined;
};

export const PARITY_TABLE: ParityRow[] = [
  {
    name: 'home page',
    path: '/',
    status: 200,
    expect: { ...PAGE_SECURITY, 'content-type': /^text\/html/, 'cache-control': STATIC_HTML_CACHE },
    cli: STATIC_CACHE,
  },
  {
    name: 'a town page',
    path: '/long-island-real-estate/huntington',
    status: 200,
    expect: { ...PAGE_SECURITY, 'cache-control': STATIC_HTML_CACHE },
    cli: STATIC_CACHE,
  },
  {
    name: 'an unknown town (404 rule of _redirects)',
    path: '/long-island-real-estate/nosuchtown',
    status: 404,
    expect: PAGE_SECURITY,
    cli: STATIC_CACHE,
  },
  {
    name: "an agent's calculator (function, cached at the edge)",
    path: '/r/alexmorgan',
    status: 200,
    // Rendered by React on the server: the data it rendered the island with is beside it.
    bodyContains: `id="${islandDataId(LIGHT_ISLANDS.agentPage)}"`,
    expect: {
      ...PAGE_SECURITY,
      'content-type': /^text\/html/,
      'netlify-cdn-cache-control': EDGE_CACHED,
      'netlify-cache-tag': /^agent:\d+$/,
      'cache-control': BROWSER_REVALIDATES,
    },
  },
  {
    name: 'an unknown agent (function 404)',
    path: '/r/nosuchagent',
    status: 404,
    expect: { 'x-robots-tag': 'noindex', 'netlify-cdn-cache-control': null },
  },
  {
    name: "the calculator's shell (preferStatic)",
    path: '/r/',
    status: 200,
    expect: PAGE_SECURITY,
    cli: STATIC_CACHE,
  },
  {
    name: 'a quick estimate (API write)',
    method: 'POST',
    path: '/api/estimates',
    body: WORKED_EXAMPLE,
    status: 201,
    expect: { 'cache-control': NO_STORE, 'content-type': /^application\/json/ },
    remember: (json, found) => {
      found.estimateUuid = uuidOf(json);
    },
  },
  {
    name: 'that estimate, shared (function, private)',
    path: (found) => `/estimate/${found.estimateUuid ?? 'missing'}`,
    status: 200,
    bodyContains: `id="${islandDataId(LIGHT_ISLANDS.estimatePage)}"`,
    expect: { 'cache-control': NO_STORE, 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' },
  },
  {
    // Rendered in the worker pool (decision 0036): a worker of the bundled function loads its chunks.
    name: "that estimate's PDF (worker pool)",
    path: (found) => `/api/estimates/${found.estimateUuid ?? 'missing'}/pdf`,
    status: 200,
    bodyContains: '%PDF-',
    expect: { 'cache-control': 'private, no-store', 'content-type': 'application/pdf' },
  },
  {
    name: 'an unknown estimate',
    path: `/estimate/${UNKNOWN_UUID}`,
    status: 404,
    expect: { 'x-robots-tag': 'noindex, nofollow' },
  },
  { name: 'not an estimate id', path: '/estimate/not-a-uuid', status: 404 },
  {
    name: 'unknown offers',
    path: `/offers/${UNKNOWN_UUID}`,
    status: 404,
    expect: { 'x-robots-tag': 'noindex, nofollow' },
  },
  {
    name: 'global settings (edge-cached read)',
    path: '/api/global/settings',
    status: 200,
    expect: { 'netlify-cdn-cache-control': EDGE_CACHED, 'netlify-cache-tag': 'settings' },
  },
  {
    name: 'showcase settings',
    path: '/api/showcase/settings',
    status: 200,
    expect: { 'netlify-cache-tag': 'showcase' },
  },
  {
    name: 'a public agent',
    path: '/api/agents/public/alexmorgan',
    status: 200,
    expect: { 'netlify-cache-tag': /^agent:\d+$/ },
  },
  { name: 'a town', path: '/api/towns/huntington', status: 200, expect: { 'netlify-cache-tag': 'towns' } },
  {
    name: 'sold homes by town',
    path: '/api/sold?town=huntington',
    status: 200,
    expect: { 'netlify-cache-tag': 'sold', 'netlify-vary': 'query=town' },
  },
  {
    name: 'the legacy sold path',
    path: '/sold-api.php?town=huntington',
    status: 200,
    expect: { 'netlify-cache-tag': 'sold', 'netlify-vary': 'query=town' },
  },
  { name: 'the legacy town-logo path, wrong method', path: '/town-logo-api.php', status: 405 },
  { name: 'leads, signed out', path: '/api/leads', status: 401, expect: { 'cache-control': NO_STORE } },
  { name: 'the OpenAPI document', path: '/api/openapi.json', status: 200, expect: { 'cache-control': NO_STORE } },
  { name: 'the dashboard (200 rule)', path: '/dashboard/leads', status: 200, cli: STATIC_CACHE },
  {
    name: 'the old login path (301 rule)',
    path: '/login',
    status: 301,
    expect: { location: '/auth' },
    cli: { headers: ['cache-control'], why: 'the CLI adds Cache-Control: no-cache to its redirects' },
  },
  { name: 'an unknown page', path: '/nosuchpage', status: 404, cli: STATIC_CACHE },
  {
    name: 'robots.txt',
    path: '/robots.txt',
    status: 200,
    expect: { 'content-type': /^text\/plain/ },
    cli: STATIC_CACHE,
  },
  {
    name: 'a hashed script',
    path: (found) => `/_astro/${found.astroScript}`,
    status: 200,
    expect: { 'cache-control': 'public, max-age=31536000, immutable', 'content-type': /javascript/ },
    cli: {
      headers: ['cache-control', 'content-type'],
      why: "the CLI ignores _headers' immutable rule and names JavaScript application/javascript",
    },
  },
];

/** A hashed script of the build, for the immutable-caching row. */
export function anAstroScript(dist: string): string {
  const script = readdirSync(join(dist, '_astro')).find((file) => file.endsWith('.js'));
  if (!script) throw new Error(`No script in ${dist}/_astro`);
  return script;
}

export interface Answer {
  status: number;
  headers: Partial<Record<ComparedHeader, string>>;
  json?: unknown;
  /** Whether the body held the row's `bodyContains` (undefined when the row asks for nothing). */
  bodyHeld?: boolean;
}

/** Asks one server every row, in order (a later row may use what an earlier one found). */
export async function askAll(origin: string, table: ParityRow[], astroScript: string): Promise<Answer[]> {
  const found: Found = { astroScript };
  const answers: Answer[] = [];
  for (const row of table) {
    const path = typeof row.path === 'function' ? row.path(found) : row.path;
    const response = await fetch(new URL(path, origin), {
      method: row.method ?? 'GET',
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
      ...(row.body === undefined
        ? {}
        : { body: JSON.stringify(row.body), headers: { 'content-type': 'application/json' } }),
    });
    const headers: Partial<Record<ComparedHeader, string>> = {};
    for (const name of COMPARED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const text = await response.text();
    let json: unknown;
    if (/json/.test(response.headers.get('content-type') ?? '')) json = JSON.parse(text);
    row.remember?.(json, found);
    const bodyHeld = row.bodyContains === undefined ? undefined : text.includes(row.bodyContains);
    answers.push({ status: response.status, headers, json, bodyHeld });
  }
  return answers;
}

/** Same value for the purpose: spaces after commas and semicolons, and charset's case, do not matter. */
const normalized = (value: string | undefined): string | undefined =>
  value
    ?.replace(/\s*([,;])\s*/g, '$1 ')
    .replace(/charset=utf-8/i, 'charset=utf-8')
    .trim();

const meets = (value: string | undefined, wanted: string | RegExp | null): boolean =>
  wanted === null
    ? value === undefined
    : typeof wanted === 'string'
      ? normalized(value) === normalized(wanted)
      : value !== undefined && wanted.test(value);

/** Every difference between the two servers' answers and the table, one line each. */
export function compare(table: ParityRow[], netlify: Answer[], local: Answer[]): string[] {
  const problems: string[] = [];
  table.forEach((row, index) => {
    const [cli, own] = [netlify[index], local[index]];
    if (!cli || !own) {
      problems.push(`${row.name}: no answer`);
      return;
    }
    for (const [server, answer] of [
      ['netlify serve', cli],
      ['npm start', own],
    ] as const) {
      if (answer.status !== row.status)
        problems.push(`${row.name}: ${server} answered ${answer.status}, not ${row.status}`);
      if (answer.bodyHeld === false) problems.push(`${row.name}: ${server}'s body has no ${row.bodyContains ?? ''}`);
    }
    const deviating = new Set(row.cli?.headers ?? []);
    for (const name of COMPARED_HEADERS) {
      const wanted = row.expect?.[name];
      if (wanted !== undefined && !meets(own.headers[name], wanted)) {
        problems.push(
          `${row.name}: npm start's ${name} is ${own.headers[name] ?? '(absent)'}, wanted ${String(wanted)}`,
        );
      }
      if (deviating.has(name)) continue;
      if (wanted !== undefined && !meets(cli.headers[name], wanted)) {
        problems.push(
          `${row.name}: netlify serve's ${name} is ${cli.headers[name] ?? '(absent)'}, wanted ${String(wanted)}`,
        );
      }
      if (normalized(cli.headers[name]) !== normalized(own.headers[name])) {
        problems.push(
          `${row.name}: ${name} differs: netlify serve ${cli.headers[name] ?? '(absent)'}, npm start ${own.headers[name] ?? '(absent)'}`,
        );
      }
    }
  });
  return problems;
}
