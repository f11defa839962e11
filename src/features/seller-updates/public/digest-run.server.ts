/**
 * The seller-updates run (decision 0056): what is due at `asOf`, in batches of `limit`, oldest first,
 * until none is left or `budgetMs` has passed. Per batch: one read (readDueBatch), the updates
 * computed in memory (prepareBatch), one statement (writeBatch); once per run, the market and fee
 * table (readMarket) and the site's switch and window. The e-mails it queues are delivered by the
 * e-mail job (or, from the admin route, right after the response).
 */
import * as z from 'zod';
import type { Queryable } from '../../../platform/db.ts';
import { readDueBatch, readMarket, type DueCursor, type Market } from '../due-updates.server.ts';
import { insideWindow } from '../../../ui/long-island-time.ts';
import { prepareBatch, type UpdateDeps } from '../prepare-updates.server.ts';
import { writeBatch } from '../write-updates.server.ts';

export type { UpdateDeps } from '../prepare-updates.server.ts';
export { SKIP_REASONS, type SkipReason } from '../prepare-updates.server.ts';

export interface RunOptions {
  /** The run's time: what is due by then is sent, dated then (a test's simulated clock). */
  asOf: Date;
  /** Subscriptions per batch. */
  limit?: number;
  /** Stop starting batches after this long. */
  budgetMs?: number;
  /** Send outside the site's sending window (an admin asked now). */
  ignoreWindow?: boolean;
}

export interface RunReport {
  /** Due subscriptions looked at. */
  due: number;
  sent: number;
  skipped: number;
  skippedBy: Record<string, number>;
  deliveryIds: number[];
  /** Why nothing was looked at, when so. */
  idle?: 'disabled' | 'outside_window';
}

export const DEFAULT_BATCH = 500;
export const DEFAULT_BUDGET_MS = 20_000;

const switchesSchema = z.object({
  enabled: z.boolean(),
  window_start: z.coerce.number(),
  window_end: z.coerce.number(),
});

/** The site's switch and sending window (Long Island hours). */
export async function siteSwitches(db: Queryable) {
  const [row] = await db.query(
    `SELECT seller_updates_enabled AS enabled, seller_updates_window_start AS window_start,
            seller_updates_window_end AS window_end
       FROM site_settings WHERE id = 1`,
  );
  return row === undefined ? null : switchesSchema.parse(row);
}

export async function runSellerUpdates(
  db: Queryable,
  deps: UpdateDeps,
  { asOf, limit = DEFAULT_BATCH, budgetMs = DEFAULT_BUDGET_MS, ignoreWindow = false }: RunOptions,
): Promise<RunReport> {
  const started = Date.now();
  const report: RunReport = { due: 0, sent: 0, skipped: 0, skippedBy: {}, deliveryIds: [] };
  const switches = await siteSwitches(db);
  if (!switches?.enabled) return { ...report, idle: 'disabled' };
  if (!ignoreWindow && !insideWindow(asOf, switches.window_start, switches.window_end)) {
    return { ...report, idle: 'outside_window' };
  }
  let market: Market | undefined;
  let cursor: DueCursor | null = null;
  for (;;) {
    const rows = await readDueBatch(db, asOf, limit, cursor);
    const last = rows.at(-1);
    if (!last) return report;
    // Once per run: every seller of the run is priced on the same market and fee table.
    market ??= await readMarket(db);
    const written = await writeBatch(db, prepareBatch(rows, market, asOf, deps), asOf);
    report.due += rows.length;
    report.sent += written.sent;
    report.deliveryIds.push(...written.deliveryIds);
    for (const [reason, n] of Object.entries(written.skipped)) {
      report.skipped += n;
      report.skippedBy[reason] = (report.skippedBy[reason] ?? 0) + n;
    }
    cursor = { nextDueAt: last.next_due_at, id: last.id };
    if (rows.length < limit || Date.now() - started > budgetMs) return report;
  }
}
