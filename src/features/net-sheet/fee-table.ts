/**
 * The site-wide fee table as stored: only the fees an admin changed (migration 0019), laid over the
 * researched defaults of li-fees.ts, which stay the one place the defaults are written.
 */
import * as z from 'zod';
import { defaultFeeTable, FEE_KEYS, feeEntrySchema, feeTableSchema, type FeeEntry, type FeeTable } from './li-fees.ts';

export const FEE_MESSAGES = {
  saved: 'Closing fees saved',
  saveFailed: 'Failed to save the closing fees',
  saveError: 'An error occurred while saving the closing fees',
  loadFailed: 'Failed to load the closing fees',
} as const;

/** GET and PUT /api/admin/net-sheet-fees answer the table in force and the researched defaults. */
export const feeTableAnswerSchema = z.object({
  success: z.literal(true),
  fees: feeTableSchema,
  defaults: feeTableSchema,
});
export const feeTableSavedSchema = feeTableAnswerSchema.extend({ message: z.string() });

const sameEntry = (a: FeeEntry, b: FeeEntry) => a.cents === b.cents && a.checked === b.checked && a.source === b.source;

/**
 * The stored overrides over the defaults. A stored entry that no longer passes the schema (a hand-run
 * SQL fix) or names a fee the code no longer has is ignored: the default is the safe figure.
 */
export function feeTableOf(overrides: unknown): FeeTable {
  const stored = z.record(z.string(), z.unknown()).safeParse(overrides);
  const table = defaultFeeTable();
  if (!stored.success) return table;
  for (const key of FEE_KEYS) {
    const entry = feeEntrySchema.safeParse(stored.data[key]);
    if (entry.success) table[key] = entry.data;
  }
  return table;
}

/** What to store for a whole table: the fees that differ from their default (a reset fee stores nothing). */
export function overridesOf(table: FeeTable): Partial<FeeTable> {
  const defaults = defaultFeeTable();
  return Object.fromEntries(
    FEE_KEYS.filter((key) => !sameEntry(table[key], defaults[key])).map((key) => [key, table[key]]),
  );
}
