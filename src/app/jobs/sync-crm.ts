/** The Follow Up Boss job (netlify/functions/sync-crm.mts every minute; `npm start` about once a minute). */
import { syncDue, type SyncReport } from '../../features/crm/public/crm-sync.server.ts';
import type { AppDeps } from '../api-app.ts';
import type { Db } from '../../platform/db.ts';
import { BATCH, TIME_BUDGET_MS } from './budget.ts';

/** Sends the CRM syncs that are due: retries, and those whose sender stopped before it settled them. */
export const syncDueLeads = (db: Db, { crm }: Required<Pick<AppDeps, 'crm'>>): Promise<SyncReport> =>
  syncDue(db, crm, { limit: BATCH, budgetMs: TIME_BUDGET_MS });
