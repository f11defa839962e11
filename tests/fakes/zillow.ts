/**
 * A local stand-in for Zillow Research's public CSV host (files.zillowstatic.com), served by
 * node:http on 127.0.0.1 and a random port, and the generator of the files it serves.
 *
 * The generator writes the real layout of the City ZHVI file
 * (`RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName,2000-01-31,…`,
 * one column per month-end, empty cells before a place's series starts, Metro quoted when it holds
 * a comma, rows sorted by SizeRank, most of them outside New York), lazily, one line at a time, so
 * tests use it for small files and the benchmark for files of hundreds of MB.
 *
 * The host answers GET and HEAD with Content-Length, ETag and Last-Modified (304 to a matching
 * If-None-Match), 404 for a path it does not serve, and on demand for the next N requests: 404,
 * 500 (or another 5xx), 429 with Retry-After, or the headers and part of the body then a cut
 * connection.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopback-server.ts';

/** Where Zillow serves the City ZHVI file (the path is kept; the host is the fake's). */
export const ZHVI_PATH = '/research/public_csvs/zhvi/City_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv';
/** A City-level for-sale inventory file in the same layout (Zillow publishes Metro level only). */
export const INVENTORY_PATH = '/research/public_csvs/invt_fs/City_invt_fs_uc_sfrcondo_sm_month.csv';

export const ZILLOW_HEADER_COLUMNS = [
  'RegionID',
  'SizeRank',
  'RegionName',
  'RegionType',
  'StateName',
  'State',
  'City',
  'Metro',
  'CountyName',
] as const;

const LONG_ISLAND_METRO = 'New York-Newark-Jersey City, NY-NJ-PA';

/** One place row of a generated file. */
export interface FakePlace {
  /** RegionName as Zillow writes it ("St. James"). */
  name: string;
  /** 'Nassau' and 'Suffolk' become "Nassau County"/"Suffolk County"; anything else is written as is. */
  county: string;
  /** Default 'NY'. */
  state?: string;
  /**
   * The monthly values, aligned to the LAST month (a shorter list leaves the first months empty);
   * null is an empty cell, a string is written as is. Default: {@link fakeSeries}.
   */
  values?: readonly (number | string | null)[];
}

export interface ZhviCsvOptions {
  /** Long Island (or any) places to include, spread through the file. */
  towns?: readonly FakePlace[];
  /** Month columns (default 300, ending at `lastPeriod`). */
  months?: number;
  /** The last month-end column (default '2025-09-30'). */
  lastPeriod?: string;
  /** Other places (about 97% outside New York, a few elsewhere in NY and on Long Island). */
  extraRows?: number;
  /**
   * Broken rows named after `towns` (or Bay Shore), cycling through: too few columns, too many
   * columns, a value that is not a number, text after a closing quote. An importer skips each.
   */
  malformedRows?: number;
  /** Varies the other places (default 1). */
  seed?: number;
  /** Default '\n'. */
  newline?: '\n' | '\r\n';
  /** Whole numbers (an inventory file) instead of ZHVI-like dollar values with decimals. */
  integers?: boolean;
}

/** The month-end dates of `months` consecutive months ending with `lastPeriod` ("YYYY-MM-DD"). */
export function monthEnds(months: number, lastPeriod = '2025-09-30'): string[] {
  const last = new Date(`${lastPeriod}T00:00:00Z`);
  const dates: string[] = [];
  for (let back = months - 1; back >= 0; back -= 1) {
    // Day 0 of the next month is the last day of this one.
    const end = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - back + 1, 0));
    dates.push(end.toISOString().slice(0, 10));
  }
  return dates;
}

/** A small deterministic hash of a string (FNV-1a), for values that look different per place. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    h ^= text.charCodeAt(index);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic pseudo-random generator (mulberry32). */
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

/**
 * The default monthly series of a place: a value between about $150k and $1.2M that grows about
 * 3% a year with a seasonal wave, full double precision like Zillow's ("431207.0934411307"). With
 * `integers`, whole numbers around 10 to 400 (an inventory count).
 */
export function fakeSeries(key: string, months: number, integers = false): number[] {
  const h = hash(key);
  if (integers) {
    const base = 10 + (h % 390);
    return Array.from({ length: months }, (_, month) => Math.round(base * (1 + 0.2 * Math.sin(month / 2 + (h % 7)))));
  }
  const base = 150_000 + (h % 1_050_000) + (h % 997) / 1000;
  return Array.from(
    { length: months },
    (_, month) => base * Math.pow(1.0025, month) * (1 + 0.01 * Math.sin((month + (h % 12)) / 1.9)),
  );
}

const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

const OTHER_STATES = [
  ['CA', 'Los Angeles County', 'Los Angeles-Long Beach-Anaheim, CA'],
  ['TX', 'Harris County', 'Houston-The Woodlands-Sugar Land, TX'],
  ['TX', 'Dallas County', 'Dallas-Fort Worth-Arlington, TX'],
  ['FL', 'Miami-Dade County', 'Miami-Fort Lauderdale-Pompano Beach, FL'],
  ['IL', 'Cook County', 'Chicago-Naperville-Elgin, IL-IN-WI'],
  ['PA', 'Allegheny County', 'Pittsburgh, PA'],
  ['OH', 'Franklin County', 'Columbus, OH'],
  ['GA', 'Fulton County', 'Atlanta-Sandy Springs-Alpharetta, GA'],
  ['NC', 'Wake County', 'Raleigh-Cary, NC'],
  ['MI', 'Wayne County', 'Detroit-Warren-Dearborn, MI'],
  ['NJ', 'Bergen County', LONG_ISLAND_METRO],
  ['WA', 'King County', 'Seattle-Tacoma-Bellevue, WA'],
  ['AZ', 'Maricopa County', 'Phoenix-Mesa-Chandler, AZ'],
  ['IA', 'Adair County', ''],
  ['KS', 'Cheyenne County', ''],
] as const;
const OTHER_NEW_YORK = [
  ['Westchester County', LONG_ISLAND_METRO],
  ['Erie County', 'Buffalo-Cheektowaga, NY'],
  ['Monroe County', 'Rochester, NY'],
  ['Queens County', LONG_ISLAND_METRO],
] as const;
/** Long Island places that are none of the site's towns, and our towns' names in other states. */
const LONG_ISLAND_OTHERS = ['Atlantic Beach', 'Kings Point', 'Lloyd Harbor', 'Head of the Harbor', 'Flower Hill'];
const NAMESAKES = [
  ['Huntington', 'WV', 'Cabell County'],
  ['Freeport', 'IL', 'Stephenson County'],
  ['Bay Shore', 'MI', 'Charlevoix County'],
  ['Saint James', 'MO', 'Phelps County'],
  ['Oceanside', 'CA', 'San Diego County'],
] as const;
const SYLLABLES = ['ash', 'bel', 'cor', 'dale', 'elm', 'fair', 'glen', 'hol', 'ing', 'lan', 'mor', 'ville', 'ton'];

interface Row {
  name: string;
  state: string;
  county: string;
  metro: string;
  values: readonly (number | string | null)[];
}

function extraRow(index: number, seed: number, months: number, integers: boolean): Row {
  const next = random(seed * 1_000_003 + index);
  const pick = next();
  const name = `${SYLLABLES[Math.floor(next() * SYLLABLES.length)] ?? 'a'}${SYLLABLES[Math.floor(next() * SYLLABLES.length)] ?? 'b'} ${index}`;
  // Most places start with the file; some only later (empty cells first), as in Zillow's file.
  const start = next() < 0.6 ? 0 : Math.floor(next() * months * 0.8);
  const series = fakeSeries(`${seed}:${index}`, months, integers);
  const values = series.map((value, month) => (month < start ? null : value));
  if (pick < 0.002) {
    const place = LONG_ISLAND_OTHERS[index % LONG_ISLAND_OTHERS.length] ?? 'Atlantic Beach';
    return {
      name: place,
      state: 'NY',
      county: index % 2 ? 'Nassau County' : 'Suffolk County',
      metro: LONG_ISLAND_METRO,
      values,
    };
  }
  if (pick < 0.004) {
    const [place, state, county] = NAMESAKES[index % NAMESAKES.length] ?? NAMESAKES[0];
    return { name: place, state, county, metro: '', values };
  }
  if (pick < 0.03) {
    const [county, metro] = OTHER_NEW_YORK[index % OTHER_NEW_YORK.length] ?? OTHER_NEW_YORK[0];
    return { name, state: 'NY', county, metro, values };
  }
  const [state, county, metro] = OTHER_STATES[index % OTHER_STATES.length] ?? OTHER_STATES[0];
  return { name, state, county, metro, values };
}

function formatValue(value: number | string | null, integers: boolean): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  return integers ? String(Math.round(value)) : String(value);
}

function rowLine(row: Row, rank: number, months: number, integers: boolean): string {
  const padding = Math.max(0, months - row.values.length);
  const cells: string[] = [];
  for (let month = 0; month < months; month += 1) {
    cells.push(month < padding ? '' : formatValue(row.values[month - padding] ?? null, integers));
  }
  const county = row.county === 'Nassau' || row.county === 'Suffolk' ? `${row.county} County` : row.county;
  return [
    String(90_000 + rank * 7),
    String(rank),
    csvField(row.name),
    'city',
    row.state,
    row.state,
    csvField(row.name),
    csvField(row.metro),
    csvField(county),
    ...cells,
  ].join(',');
}

function malformedLine(kind: number, place: FakePlace, rank: number, months: number, integers: boolean): string {
  const row: Row = {
    name: place.name,
    state: place.state ?? 'NY',
    county: place.county,
    metro: LONG_ISLAND_METRO,
    values: fakeSeries(`malformed:${place.name}`, months, integers),
  };
  const line = rowLine(row, rank, months, integers);
  switch (kind % 4) {
    case 0: // too few columns
      return line.split(',').slice(0, -3).join(',');
    case 1: // too many columns
      return `${line},123.45`;
    case 2: {
      // a value that is not a number, in the middle of the series
      const fields = line.split(',');
      fields[fields.length - 5] = 'n/a';
      return fields.join(',');
    }
    default: // text after a closing quote
      return line.replace(`,${csvField(place.name)},`, `,"${place.name}"x,`);
  }
}

/**
 * The lines of a file in the ZHVI City layout, each with its line ending, header first. Lazy: a
 * file of any size is generated as it is consumed.
 */
export function* zhviCsv(options: ZhviCsvOptions = {}): Generator<string, void, undefined> {
  const months = options.months ?? 300;
  const newline = options.newline ?? '\n';
  const integers = options.integers ?? false;
  const towns = options.towns ?? [];
  const extraRows = options.extraRows ?? 0;
  const malformedRows = options.malformedRows ?? 0;
  const seed = options.seed ?? 1;
  const total = towns.length + extraRows + malformedRows;

  // Where our rows go: spread evenly through the file, a malformed row never on a town's line.
  const special = new Map<number, { town: FakePlace } | { malformed: number }>();
  const place = (at: number, row: { town: FakePlace } | { malformed: number }) => {
    let index = Math.min(total - 1, Math.max(0, at));
    while (special.has(index)) index = (index + 1) % total;
    special.set(index, row);
  };
  towns.forEach((town, index) => place(Math.floor(((index + 0.5) * total) / towns.length), { town }));
  for (let index = 0; index < malformedRows; index += 1) {
    place(Math.floor(((index + 0.25) * total) / malformedRows), { malformed: index });
  }

  yield [...ZILLOW_HEADER_COLUMNS, ...monthEnds(months, options.lastPeriod)].join(',') + newline;
  let extra = 0;
  for (let rank = 0; rank < total; rank += 1) {
    const row = special.get(rank);
    if (row && 'town' in row) {
      const { town } = row;
      const values = town.values ?? fakeSeries(town.name, months, integers);
      yield (
        rowLine(
          { name: town.name, state: town.state ?? 'NY', county: town.county, metro: LONG_ISLAND_METRO, values },
          rank,
          months,
          integers,
        ) + newline
      );
    } else if (row) {
      const named = towns[row.malformed % Math.max(1, towns.length)] ?? { name: 'Bay Shore', county: 'Suffolk' };
      yield malformedLine(row.malformed, named, rank, months, integers) + newline;
    } else {
      yield rowLine(extraRow(extra, seed, months, integers), rank, months, integers) + newline;
      extra += 1;
    }
  }
}

/** The whole generated file as one string (small files, for tests). */
export const zhviCsvText = (options: ZhviCsvOptions = {}): string => [...zhviCsv(options)].join('');

/** What the host can be made to do for the next requests. */
export type ZillowTrouble =
  | { kind: 'not-found' }
  /** 500 by default, or another 5xx. */
  | { kind: 'server-error'; status?: number }
  /** 429, with Retry-After when given (seconds or an HTTP date). */
  | { kind: 'rate-limit'; retryAfter?: number | string }
  /** Status 200 and the full Content-Length, then the connection is cut after `afterBytes` (default half). */
  | { kind: 'cut'; afterBytes?: number };

export interface ZillowRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface FakeZillow {
  /** Base URL of the host ("http://127.0.0.1:PORT"). */
  readonly url: string;
  /** The full URL of a served path. */
  urlOf(path: string): string;
  /** Serves `body` at `path` from now on (replacing what was there). */
  serve(path: string, body: string | Uint8Array): void;
  /** Stops serving `path` (404). */
  remove(path: string): void;
  /** The next `times` requests meet `trouble` (Infinity: until reset). */
  trouble(trouble: ZillowTrouble, times?: number): void;
  readonly requests: ZillowRequest[];
  /** Forgets requests and planned trouble (the files stay). */
  reset(): void;
  close(): Promise<void>;
}

interface ServedFile {
  body: Buffer;
  etag: string;
  lastModified: string;
}

/** Starts the host with `files` (path → body), e.g. `{ [ZHVI_PATH]: zhviCsvText({ towns }) }`. */
export async function startFakeZillow(files: Record<string, string | Uint8Array> = {}): Promise<FakeZillow> {
  const served = new Map<string, ServedFile>();
  const serve = (path: string, body: string | Uint8Array) => {
    const buffer = Buffer.from(body);
    served.set(path, {
      body: buffer,
      etag: `"${createHash('sha1').update(buffer).digest('hex')}"`,
      lastModified: new Date().toUTCString(),
    });
  };
  for (const [path, body] of Object.entries(files)) serve(path, body);
  const requests: ZillowRequest[] = [];
  let planned: { trouble: ZillowTrouble; times: number } | undefined;

  const takeTrouble = (): ZillowTrouble | undefined => {
    if (!planned || planned.times <= 0) return undefined;
    planned.times -= 1;
    const { trouble } = planned;
    if (planned.times <= 0) planned = undefined;
    return trouble;
  };

  const answer = (response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
    response.end(text);
  };

  const server = await startLoopbackServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const method = request.method ?? 'GET';
    response.on('finish', () => requests.push({ method, path, headers: request.headers, status: response.statusCode }));
    response.on('close', () => {
      if (!response.writableFinished)
        requests.push({ method, path, headers: request.headers, status: response.statusCode });
    });
    if (method !== 'GET' && method !== 'HEAD') {
      answer(response, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const file = served.get(path);
    const trouble = takeTrouble();
    if (trouble?.kind === 'not-found' || !file) {
      answer(response, 404, 'Not Found');
      return;
    }
    if (trouble?.kind === 'server-error') {
      answer(response, trouble.status ?? 500, 'Internal Server Error');
      return;
    }
    if (trouble?.kind === 'rate-limit') {
      const headers: Record<string, string> = {};
      if (trouble.retryAfter !== undefined) headers['Retry-After'] = String(trouble.retryAfter);
      answer(response, 429, 'Too Many Requests', headers);
      return;
    }
    const headers = {
      'Content-Type': 'text/csv',
      'Content-Length': String(file.body.length),
      ETag: file.etag,
      'Last-Modified': file.lastModified,
    };
    if (request.headers['if-none-match'] === file.etag) {
      response.writeHead(304, { ETag: file.etag, 'Last-Modified': file.lastModified });
      response.end();
      return;
    }
    response.writeHead(200, headers);
    if (method === 'HEAD') {
      response.end();
      return;
    }
    if (trouble?.kind === 'cut') {
      const cutAt = Math.min(file.body.length - 1, trouble.afterBytes ?? Math.floor(file.body.length / 2));
      response.write(file.body.subarray(0, cutAt), () => {
        // Give the bytes time to leave, then drop the connection without finishing the body.
        setTimeout(() => response.socket?.destroy(), 20);
      });
      return;
    }
    response.end(file.body);
  });
  const url = server.origin;

  return {
    url,
    urlOf: (path) => `${url}${path}`,
    serve,
    remove: (path) => {
      served.delete(path);
    },
    trouble(trouble, times = 1) {
      planned = { trouble, times };
    },
    requests,
    reset() {
      requests.length = 0;
      planned = undefined;
    },
    close: () => server.close(),
  };
}
