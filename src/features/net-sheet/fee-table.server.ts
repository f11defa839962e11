/**
 * GET and PUT /api/admin/net-sheet-fees (admins only) and readFeeTable for the estimates: the Long
 * Island closing fees and rates in force (the researched defaults with the admin's corrections).
 */
import { Hono } from 'hono';
import { assertAdmin, readJsonAsAdmin, sessionAgentCte, sessionOf, sessionParams } from '../auth/access.server.ts';
import type { Db, Queryable } from '../../server/db.ts';
import { route } from '../../server/http.ts';
import { FEE_MESSAGES, feeTableOf, overridesOf } from './fee-table.ts';
import { defaultFeeTable, feeTableSchema, type FeeTable } from './li-fees.ts';

/** The fee table in force, rates included, for the net sheet's arithmetic. Migration 0019 seeds the row. */
export async function readFeeTable(db: Queryable): Promise<FeeTable> {
  const [row] = await db.query<{ overrides: unknown }>('SELECT overrides FROM net_sheet_fees WHERE id = 1');
  return feeTableOf(row?.overrides);
}

type AdminRow = { is_admin: boolean; overrides: unknown };

export function feeTableRoutes(db: Db): Hono {
  const app = new Hono();
  route(app, '/admin/net-sheet-fees', {
    /** One round trip: the admin check and the table. */
    GET: async (c) => {
      const [row] = await db.query<AdminRow>(
        `WITH ${sessionAgentCte(1)}
         SELECT me.is_admin, f.overrides FROM me LEFT JOIN net_sheet_fees f ON f.id = 1 AND me.is_admin`,
        sessionParams(sessionOf(c)),
      );
      assertAdmin(row);
      return c.json({ success: true, fees: feeTableOf(row?.overrides), defaults: defaultFeeTable() });
    },
    /** One statement: the admin check and the whole table replaced; an agent writes nothing. */
    PUT: async (c) => {
      const fees = await readJsonAsAdmin(c, db, feeTableSchema);
      const [row] = await db.query<AdminRow>(
        `WITH ${sessionAgentCte(1)},
         saved AS (
           INSERT INTO net_sheet_fees AS f (id, overrides)
           SELECT 1, $3::jsonb FROM me WHERE me.is_admin
           ON CONFLICT (id) DO UPDATE SET overrides = EXCLUDED.overrides, updated_at = now()
           RETURNING overrides
         )
         SELECT me.is_admin, saved.overrides FROM me LEFT JOIN saved ON true`,
        [...sessionParams(sessionOf(c)), JSON.stringify(overridesOf(fees))],
      );
      assertAdmin(row);
      return c.json({
        success: true,
        message: FEE_MESSAGES.saved,
        fees: feeTableOf(row?.overrides),
        defaults: defaultFeeTable(),
      });
    },
  });
  return app;
}
