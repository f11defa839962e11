/**
 * Where the market data comes from: the Zillow files and the RESO feed the environment names, or
 * local files. Apart from the refresh that reads them (refresh.server.ts), so that building a plan
 * loads no importer (the API's cold start builds one; decision 0026).
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Env } from '../../platform/env.ts';
import { onFirstCall } from '../../platform/on-first-call.ts';
import { resoPropertyUrl } from './reso-address.ts';
import type { ResoClientConfig } from './reso-client.server.ts';
import type { ClosedSalesSource } from './reso-records.server.ts';

export type Bytes = AsyncIterable<Uint8Array | string>;

/** A Zillow file to read: where it comes from (for the run record) and how to open it as a stream. */
export interface CsvSource {
  origin: string;
  open: () => Promise<Bytes>;
}

export interface RefreshPlan {
  zhvi?: CsvSource;
  inventory?: CsvSource;
  sold?: ClosedSalesSource;
  /** The shipped sample files (local demo data only): their rows are marked as sample. */
  sample?: boolean;
  /** The day the sold homes' 12-month window ends (default today); the sample file has its own. */
  soldAsOf?: Date;
}

/** Longest Retry-After a Zillow download waits for before failing the run. */
const MAX_RETRY_AFTER_SECONDS = 60;

/** A CSV over HTTP, streamed; a 429 within the bound is waited out once, any other failure throws. */
export function csvFromUrl(url: string, fetcher: typeof fetch = fetch, sleep = delay): CsvSource {
  return {
    origin: url,
    async open() {
      for (let attempt = 0; ; attempt += 1) {
        const response = await fetcher(url, { headers: { Accept: 'text/csv' } });
        if (response.ok && response.body) return response.body;
        const retryAfter = Number(response.headers.get('retry-after'));
        if (response.status === 429 && attempt === 0 && retryAfter >= 0 && retryAfter <= MAX_RETRY_AFTER_SECONDS) {
          await response.body?.cancel();
          await sleep(retryAfter * 1000);
          continue;
        }
        await response.body?.cancel();
        throw new Error(`${url} answered ${response.status}`);
      }
    },
  };
}

export const csvFromFile = (path: string): CsvSource => ({
  origin: path,
  open: () => Promise.resolve(createReadStream(path)),
});

/** A file in the RESO Web API's JSON response shape ({ value: [...] }), for sites without a feed. */
export async function soldFromFile(path: string): Promise<ClosedSalesSource> {
  const json: unknown = JSON.parse(await readFile(path, 'utf8'));
  return (await import('./reso-file-source.server.ts')).resoFileSource(json, path);
}

/**
 * The RESO feed at `config.baseUrl` (a URL: the environment's schema checks it), its client made at
 * the first read: a plan is built at every cold start of the API, a read only by a refresh.
 */
function resoFeed(config: ResoClientConfig): ClosedSalesSource {
  const client = onFirstCall(async () => (await import('./reso-client.server.ts')).createResoClient(config));
  return {
    origin: resoPropertyUrl(new URL(config.baseUrl.replace(/\/+$/, ''))),
    async *closedSales(query) {
      yield* (await client()).closedSales(query);
    },
  };
}

/** The feeds the environment configures (the scheduled refresh). */
export function planFromEnv(env: Env): RefreshPlan {
  return {
    zhvi: csvFromUrl(env.ZHVI_CSV_URL),
    ...(env.ZILLOW_INVENTORY_CSV_URL ? { inventory: csvFromUrl(env.ZILLOW_INVENTORY_CSV_URL) } : {}),
    ...(env.RESO_BASE_URL
      ? {
          sold: resoFeed({
            baseUrl: env.RESO_BASE_URL,
            ...(env.RESO_TOKEN_URL ? { tokenUrl: env.RESO_TOKEN_URL } : {}),
            ...(env.RESO_CLIENT_ID ? { clientId: env.RESO_CLIENT_ID } : {}),
            ...(env.RESO_CLIENT_SECRET ? { clientSecret: env.RESO_CLIENT_SECRET } : {}),
            ...(env.RESO_BEARER_TOKEN ? { bearerToken: env.RESO_BEARER_TOKEN } : {}),
          }),
        }
      : {}),
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
