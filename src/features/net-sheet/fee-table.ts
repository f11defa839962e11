/**
 * The site-wide fee table as stored: only the fees and rates an admin changed (migration 0019), laid
 * over the researched defaults of li-fees.ts, which stay the one place the defaults are written. The
 * rates are stored in the same document under their own keys (decision 0041).
 */
import * as z from 'zod/mini';
import { defaultFeeTable, feeTableSchema, type FeeTable } from './fee-table-schema.ts';
import { FEE_KEYS } from './li-fees.ts';
import { RATE_KEYS } from './li-rates.ts';

export const FEE_MESSAGES = {
  saved: 'Closing fees saved',
  saveFailed: 'Failed to save the closing fees',
  saveError: 'An error occurred while saving the closing fees',
  loadFailed: 'Failed to load the closing fees',
  stale: 'Someone else changed the fee table since you opened it: reload to see their change',
  versionMissing: 'Reload the page and save again: the fee table’s version is missing',
} as const;

/**
 * The saved table's version: GET answers it, a save sends back the one it was edited from, and a
 * save from an older one is refused (409) rather than overwriting the change in between.
 */
const versionSchema = z.int(FEE_MESSAGES.versionMissing).check(z.positive(FEE_MESSAGES.versionMissing));

/** GET and PUT /api/admin/net-sheet-fees answer the table in force, its version and the researched defaults. */
export const feeTableAnswerSchema = z.object({
  success: z.literal(true),
  fees: feeTableSchema,
  version: versionSchema,
  defaults: feeTableSchema,
});
/** PUT: the whole table, and the version it was edited from. */
export const feeTableSaveSchema = z.extend(feeTableSchema, { version: versionSchema });
export const feeTableSavedSchema = z.extend(feeTableAnswerSchema, { message: z.string() });

const TABLE_KEYS = [...FEE_KEYS, ...RATE_KEYS];

/** Entries compare field by field: a fee's cents or a rate's percent, the date and the source. */
const sameEntry = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((field) => a[field] === b[field]);

/**
 * The stored overrides over the defaults. A stored entry that no longer passes its schema (a hand-run
 * SQL fix) or names a fee or rate the code no longer has is ignored: the default is the safe figure.
 */
export function feeTableOf(overrides: unknown): FeeTable {
  const stored = z.record(z.string(), z.unknown()).safeParse(overrides);
  const table = defaultFeeTable();
  if (!stored.success) return table;
  const entries = Object.fromEntries(
    TABLE_KEYS.flatMap((key) => {
      const entry = feeTableSchema.shape[key].safeParse(stored.data[key]);
      return entry.success ? [[key, entry.data]] : [];
    }),
  );
  return feeTableSchema.parse({ ...table, ...entries });
}

/** What to store for a whole table: the entries that differ from their default (a reset one stores nothing). */
export function overridesOf(table: FeeTable): Partial<FeeTable> {
  const defaults = defaultFeeTable();
  return Object.fromEntries(
    TABLE_KEYS.filter((key) => !sameEntry(table[key], defaults[key])).map((key) => [key, table[key]]),
  );
}
