import type { ReactNode } from 'react';
import type { AdminLeadRow } from './lead-list.ts';

/**
 * Where a leads table gets its rows: the dashboard shows the agent's own (/api/leads); the admin
 * area can show another scope through the same table with its own paths.
 */
export interface LeadsSource {
  /** The table's queries start with this key; a deletion invalidates them all. */
  queryKey: readonly string[];
  /**
   * GET lists a page (the query of leadListQuerySchema); DELETE, with the same filters, deletes the
   * scope's leads that pass them (every one without a filter).
   */
  listPath: string;
  /** GET answers the CSV of every lead passing the filters, a page at a time (lead-export.ts). */
  exportPath: string;
  caption: string;
  /** What the table says when there is no lead at all. */
  emptyMessage: ReactNode;
  /**
   * The caller's own leads: the table shows each one's Follow Up Boss sync (and its history) and,
   * when the caller's integration can sync, the controls to send them.
   */
  crm?: boolean;
  /**
   * Every agent's leads (an admin's list, adminLeadListQuerySchema): the table adds each lead's
   * agent (a button that shows only that agent's leads), a CRM status filter and column, and a
   * Timeline button; there is no deletion.
   */
  admin?: { onTimeline: (lead: AdminLeadRow) => void };
}
