/**
 * The background half of /admin/data (decision 0028): runs the queued runs, an uploaded file's
 * from its staged chunks and a Refresh now's from the configured feeds, each recorded in data_runs
 * as the scheduled refresh records its own; then purges the CDN's market answers it changed and
 * deletes the staged uploads it is done with (and any left unfinished for a day).
 *
 * Runs in the background function on Netlify (15 minutes), in-process locally; never in a request.
 */
import type { Db } from '../../platform/db.ts';
import { marketTagsOf } from '../../platform/edge-cache.ts';
import { DATA_MESSAGES } from './data-admin.ts';
import { claimQueuedRuns, recordRun, type ClaimedRun, type RunRecord } from './data-runs.server.ts';
import type { CsvSource, RefreshPlan } from './feeds.server.ts';
import { refreshMarketData } from './refresh.server.ts';
import { resoFileSource } from './reso-file-source.server.ts';
import type { ClosedSalesSource } from './reso-records.server.ts';

export interface MarketImportDeps {
  /** The configured feeds (planFromEnv): what a queued Refresh now reads. */
  feeds: () => RefreshPlan;
  /** Purges the CDN's cached answers with these tags; must not throw (a failure is the caller's to log). */
  purge: (tags: readonly string[]) => Promise<void>;
}

/** An upload's staged chunks, in order, one at a time: the file is never in memory whole. */
async function* stagedChunks(db: Db, uploadId: string): AsyncGenerator<Uint8Array> {
  for (let index = 0; ; index += 1) {
    // As base64 text: PGlite answers a bytea of 4 MB in about a second, its text at once.
    const [chunk] = await db.query<{ base64: string }>(
      `SELECT encode(bytes, 'base64') AS base64 FROM market_upload_chunks WHERE upload_id = $1::uuid AND chunk_index = $2`,
      [uploadId, index],
    );
    if (!chunk) return;
    yield Buffer.from(chunk.base64, 'base64');
  }
}

const stagedCsv = (db: Db, uploadId: string, origin: string): CsvSource => ({
  origin,
  open: () => Promise.resolve(stagedChunks(db, uploadId)),
});

/**
 * A staged RESO JSON file. JSON has no lines to stream by: the chunks are decoded one at a time
 * into one text (the bytes are not kept beside it) and parsed when the import asks for the sales.
 */
const stagedSales = (db: Db, uploadId: string, origin: string): ClosedSalesSource => ({
  origin,
  async *closedSales(query) {
    yield* resoFileSource(await stagedJson(db, uploadId), 'The file').closedSales(query);
  },
});

/** The staged file parsed; its text lives only while this runs. */
async function stagedJson(db: Db, uploadId: string): Promise<unknown> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for await (const bytes of stagedChunks(db, uploadId)) text += decoder.decode(bytes, { stream: true });
  text += decoder.decode();
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new Error(DATA_MESSAGES.notJson);
  }
}

/** The one-source plan a claimed run runs, or undefined when its feed is no longer configured. */
function planOf(db: Db, run: ClaimedRun, feeds: () => RefreshPlan): RefreshPlan | undefined {
  const upload = run.upload_id;
  switch (run.source) {
    case 'sold': {
      const sold = upload === null ? feeds().sold : stagedSales(db, upload, run.origin);
      return sold ? { sold } : undefined;
    }
    case 'zhvi': {
      const zhvi = upload === null ? feeds().zhvi : stagedCsv(db, upload, run.origin);
      return zhvi ? { zhvi } : undefined;
    }
    case 'inventory': {
      const inventory = upload === null ? feeds().inventory : stagedCsv(db, upload, run.origin);
      return inventory ? { inventory } : undefined;
    }
  }
}

/** Runs every queued run, oldest first; answers their records. Never throws for a run that fails. */
export async function runQueuedImports(db: Db, { feeds, purge }: MarketImportDeps): Promise<RunRecord[]> {
  const claimed = await claimQueuedRuns(db);
  const records: RunRecord[] = [];
  for (const run of claimed) {
    const plan = planOf(db, run, feeds);
    if (!plan) {
      records.push(
        await recordRun(
          db,
          run.source,
          run.origin,
          () => Promise.reject(new Error(`No ${run.source} feed is configured any more`)),
          run.id,
        ),
      );
      continue;
    }
    const { runs } = await refreshMarketData(db, plan, { runIds: new Map([[run.source, run.id]]), progress: true });
    records.push(...runs);
  }
  const tags = marketTagsOf(records);
  if (tags.length > 0) await purge(tags);
  await removeStagedUploads(db, claimed);
  return records;
}

/** Deletes the uploads these runs imported, and uploads nobody completed within a day. */
async function removeStagedUploads(db: Db, runs: readonly ClaimedRun[]): Promise<void> {
  await db.query(
    `DELETE FROM market_uploads u
      WHERE u.id = ANY($1::uuid[])
         OR (u.created_at < now() - interval '1 day'
             AND NOT EXISTS (SELECT 1 FROM data_runs r WHERE r.upload_id = u.id AND r.status IN ('queued', 'running')))`,
    [runs.flatMap((run) => (run.upload_id === null ? [] : [run.upload_id]))],
  );
}
