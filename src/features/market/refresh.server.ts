import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Db } from '../../server/db.ts';
import type { Env } from '../../server/env.ts';
import { progressOf, recordRun, type DataSource, type RunRecord } from './data-runs.server.ts';
import {
  createResoClient,
  resoFileSource,
  type ClosedSalesQuery,
  type ClosedSalesSource,
} from './reso-client.server.ts';
import { syncSoldHomes } from './sold-sync.server.ts';
import { importZhvi } from './zhvi.server.ts';
import { importZillowInventory } from './zillow-inventory.server.ts';

type Bytes = AsyncIterable<Uint8Array | string>;

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
  return resoFileSource(json, path);
}

/** The feeds the environment configures (the scheduled refresh). */
export function planFromEnv(env: Env): RefreshPlan {
  return {
    zhvi: csvFromUrl(env.ZHVI_CSV_URL),
    ...(env.ZILLOW_INVENTORY_CSV_URL ? { inventory: csvFromUrl(env.ZILLOW_INVENTORY_CSV_URL) } : {}),
    ...(env.RESO_BASE_URL
      ? {
          sold: createResoClient({
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

/** What the admin screen's refreshes and uploads add to a refresh (src/features/market/data-admin.server.ts). */
export interface RefreshWatch {
  /** The runs' rows, already recorded (queueRunsUnlessRunning, claimQueuedRuns); else each run adds its own. */
  runIds?: ReadonlyMap<DataSource, number>;
  /** Each run writes its rows read so far as it goes (the admin screen polls them). */
  progress?: boolean;
}

/** The runs a plan makes, in the order they run. */
export const plannedRuns = ({ zhvi, inventory, sold }: RefreshPlan): { source: DataSource; origin: string }[] => [
  ...(zhvi ? [{ source: 'zhvi' as const, origin: zhvi.origin }] : []),
  ...(inventory ? [{ source: 'inventory' as const, origin: inventory.origin }] : []),
  ...(sold ? [{ source: 'sold' as const, origin: sold.origin }] : []),
];

/** Newlines in a chunk of a file. */
function newlines(chunk: Uint8Array | string): number {
  let count = 0;
  if (typeof chunk === 'string') {
    for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) count += 1;
  } else {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count += 1;
  }
  return count;
}

/** The chunks of a Zillow file as they pass, its lines (less the header) counted for `report`. */
async function* countingRows(source: Bytes, report: (rows: number) => Promise<void>): Bytes {
  let lines = 0;
  for await (const chunk of source) {
    lines += newlines(chunk);
    await report(Math.max(0, lines - 1));
    yield chunk;
  }
}

/** The same sales, each record read (valid or skipped) counted for `report`. */
const countingSales = (source: ClosedSalesSource, report: (rows: number) => Promise<void>): ClosedSalesSource => ({
  origin: source.origin,
  async *closedSales(query) {
    let rows = 0;
    const onSkip: ClosedSalesQuery['onSkip'] = (skipped) => {
      rows += 1;
      query.onSkip?.(skipped);
    };
    for await (const sale of source.closedSales({ ...query, onSkip })) {
      rows += 1;
      await report(rows);
      yield sale;
    }
  },
});

/**
 * Runs every source of `plan`, each recorded in data_runs. A source that fails leaves its previous
 * data in place and does not stop the others. `changed` says whether the town pages need a rebuild.
 */
export async function refreshMarketData(
  db: Db,
  plan: RefreshPlan,
  { runIds: ids = new Map(), progress = false }: RefreshWatch = {},
): Promise<{ runs: RunRecord[]; changed: boolean }> {
  const runs: RunRecord[] = [];
  const { zhvi, inventory, sold, sample = false, soldAsOf } = plan;
  const report = (runId: number) => (progress ? progressOf(db, runId) : () => Promise.resolve());
  const rows = (runId: number, bytes: Bytes) => (progress ? countingRows(bytes, report(runId)) : bytes);
  if (zhvi) {
    runs.push(
      await recordRun(
        db,
        'zhvi',
        zhvi.origin,
        async (runId) => importZhvi(db, rows(runId, await zhvi.open()), { originLabel: zhvi.origin, sample }),
        ids.get('zhvi'),
      ),
    );
  }
  if (inventory) {
    runs.push(
      await recordRun(
        db,
        'inventory',
        inventory.origin,
        async (runId) =>
          importZillowInventory(db, rows(runId, await inventory.open()), { originLabel: inventory.origin }),
        ids.get('inventory'),
      ),
    );
  }
  if (sold) {
    runs.push(
      await recordRun(
        db,
        'sold',
        sold.origin,
        (runId) =>
          syncSoldHomes(db, progress ? countingSales(sold, report(runId)) : sold, {
            sample,
            ...(soldAsOf ? { now: soldAsOf } : {}),
          }),
        ids.get('sold'),
      ),
    );
  }
  return { runs, changed: runs.some((run) => run.changed) };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
