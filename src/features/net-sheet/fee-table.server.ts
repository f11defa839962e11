/**
 * GET and PUT /api/admin/net-sheet-fees (admins only) and readFeeTable for the estimates: the Long
 * Island closing fees and rates in force (the researched defaults with the admin's corrections).
 */
import {
  assertAdmin,
  readJsonAsAdmin,
  sessionAgentCte,
  sessionOf,
  sessionParams,
} from '../auth/public/access.server.ts';
import type { Db, Queryable } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, json, ok } from '../../platform/operation.ts';
import {
  FEE_MESSAGES,
  feeTableOf,
  feeTableSaveSchema,
  overridesOf,
  feeTableAnswerSchema,
  feeTableSavedSchema,
} from './fee-table.ts';
import { defaultFeeTable, type FeeTable } from './fee-table-schema.ts';

/** The fee table in force, rates included, for the net sheet's arithmetic. Migration 0019 seeds the row. */
export async function readFeeTable(db: Queryable): Promise<FeeTable> {
  const [row] = await db.query<{ overrides: unknown }>('SELECT overrides FROM net_sheet_fees WHERE id = 1');
  return feeTableOf(row?.overrides);
}

type AdminRow = { is_admin: boolean; overrides: unknown; version: number | null };

export const feeTableApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    /** One round trip: the admin check and the table. */
    op({
      method: 'GET',
      path: '/api/admin/net-sheet-fees',
      access: 'admin',
      summary: 'The Long Island closing-fee table, with its rates (the East End Peconic Bay tax)',
      tag: 'Admin',
      success: ok('The table', feeTableAnswerSchema),
      handler: async (c, { db }) => {
        const [row] = await db.query<AdminRow>(
          `WITH ${sessionAgentCte(1)}
           SELECT me.is_admin, f.overrides, f.version FROM me LEFT JOIN net_sheet_fees f ON f.id = 1 AND me.is_admin`,
          sessionParams(sessionOf(c)),
        );
        assertAdmin(row);
        return c.json({
          success: true,
          fees: feeTableOf(row?.overrides),
          version: row?.version ?? 1,
          defaults: defaultFeeTable(),
        });
      },
    }),
    /**
     * One statement: the admin check and the whole table replaced, only while it is still at the
     * version the admin edited (the row's lock makes a save at the same moment wait, then see the
     * new version); an agent or a stale save writes nothing.
     */
    op({
      method: 'PUT',
      path: '/api/admin/net-sheet-fees',
      access: 'admin',
      summary:
        'Saves the Long Island closing-fee table and its rates, from the version it was edited from (409 when another save came between)',
      tag: 'Admin',
      body: json(feeTableSaveSchema),
      success: ok('Saved', feeTableSavedSchema),
      errors: [409],
      handler: async (c, { db }) => {
        const { version, ...fees } = await readJsonAsAdmin(c, db, feeTableSaveSchema);
        const [row] = await db.query<AdminRow>(
          `WITH ${sessionAgentCte(1)},
           saved AS (
             INSERT INTO net_sheet_fees AS f (id, overrides)
             SELECT 1, $3::jsonb FROM me WHERE me.is_admin
             ON CONFLICT (id) DO UPDATE SET overrides = EXCLUDED.overrides, updated_at = now(), version = f.version + 1
              WHERE f.version = $4
             RETURNING overrides, version
           )
           SELECT me.is_admin, saved.overrides, saved.version FROM me LEFT JOIN saved ON true`,
          [...sessionParams(sessionOf(c)), JSON.stringify(overridesOf(fees)), version],
        );
        assertAdmin(row);
        if (!row || row.version === null) throw new HttpError(409, FEE_MESSAGES.stale);
        return c.json({
          success: true,
          message: FEE_MESSAGES.saved,
          fees: feeTableOf(row.overrides),
          version: row.version,
          defaults: defaultFeeTable(),
        });
      },
    }),
  ],
);
