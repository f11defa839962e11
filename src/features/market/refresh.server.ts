import type { Db } from '../../platform/db.ts';
import { progressOf, recordRun, type DataSource, type RunRecord } from './data-runs.server.ts';
import type { ClosedSalesQuery, ClosedSalesSource } from './reso-records.server.ts';
import type { Bytes, RefreshPlan } from './feeds.server.ts';
import { syncSoldHomes } from './sold-sync.server.ts';
import { importZhvi } from './zhvi.server.ts';
import { importZillowInventory } from './zillow-inventory.server.ts';

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
