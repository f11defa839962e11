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
 *
 * This module is the host and the entry tests import; the generator is under zillow/: the file's
 * layout and rows (csv.ts) and the values in them (series.ts).
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopback-server.ts';

export { ZILLOW_HEADER_COLUMNS, zhviCsv, zhviCsvText, type FakePlace, type ZhviCsvOptions } from './zillow/csv.ts';
export { fakeSeries, monthEnds } from './zillow/series.ts';

/** Where Zillow serves the City ZHVI file (the path is kept; the host is the fake's). */
export const ZHVI_PATH = '/research/public_csvs/zhvi/City_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv';
/** A City-level for-sale inventory file in the same layout (Zillow publishes Metro level only). */
export const INVENTORY_PATH = '/research/public_csvs/invt_fs/City_invt_fs_uc_sfrcondo_sm_month.csv';

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
