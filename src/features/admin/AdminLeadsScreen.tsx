import { lazy, useState } from 'react';
import { DialogOnDemand } from '../../ui/DialogOnDemand.tsx';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import type { AdminLeadRow } from '../leads/public/lead-list.ts';
import type { LeadsSource } from '../leads/public/leads-source.ts';
import { LeadsTable } from '../leads/public/LeadsTable.tsx';

// Loaded when a lead's Timeline is first opened: the first paint carries the table and its filters.
const LeadTimelineDialog = lazy(() =>
  import('./LeadTimelineDialog.tsx').then((module) => ({ default: module.LeadTimelineDialog })),
);

/** /admin/leads: every agent's leads, through the dashboard's table with the admin's scope. */
export default function AdminLeadsScreen() {
  const [timeline, showTimeline] = useState<AdminLeadRow | null>(null);
  const source: LeadsSource = {
    queryKey: ['admin-leads'],
    listPath: '/api/admin/leads',
    exportPath: '/api/admin/leads/export.csv',
    caption: 'Every agent’s leads, newest first',
    emptyMessage: <p>No leads yet. Leads that visitors send to any agent appear here.</p>,
    admin: { onTimeline: showTimeline },
  };
  return (
    <AccountFrame area="admin" current="/admin/leads">
      {(agent) => (
        <section aria-labelledby="admin-leads-title">
          <h1 id="admin-leads-title">Leads</h1>
          <p>
            Every agent’s leads, newest first. Filter them by agent, source or town, see a lead’s e-mails and CRM calls,
            or export them as a spreadsheet (CSV).
          </p>
          {/* The table reads its filters from the address, which the pre-rendered page cannot know:
              drawn before the session answered (at hydration), it did not match that page. */}
          {agent ? (
            <>
              <LeadsTable source={source} />
              {timeline ? (
                <DialogOnDemand>
                  <LeadTimelineDialog lead={timeline} onClose={() => showTimeline(null)} />
                </DialogOnDemand>
              ) : null}
            </>
          ) : (
            <p aria-live="polite">Loading…</p>
          )}
        </section>
      )}
    </AccountFrame>
  );
}
