import AccountFrame from '../accounts/public/AccountFrame.tsx';
import type { SessionAgent } from '../auth/public/auth-schemas.ts';
import type { LeadsSource } from './public/leads-source.ts';
import { LeadsTable } from './public/LeadsTable.tsx';

/** The agent's own leads, as the shared leads table reads and shows them. */
const ownLeads = (agent: SessionAgent): LeadsSource => ({
  queryKey: ['leads'],
  listPath: '/api/leads',
  exportPath: '/api/leads/export.csv',
  caption: 'Your leads, newest first',
  crm: true,
  emptyMessage: (
    <p>
      No leads yet. When a visitor to your calculator page (<a href={`/r/${agent.slug}`}>/r/{agent.slug}</a>) asks to be
      contacted, they appear here.
    </p>
  ),
});

/** /dashboard/leads: the signed-in agent's own leads. */
export default function LeadsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/leads">
      {(agent) => (
        <section aria-labelledby="leads-title">
          <h1 id="leads-title">Leads</h1>
          {/* What the screen is for: with the pre-rendered page, before the script and the list. */}
          <p>
            The sellers who asked you to contact them, newest first. Filter them by source or town, or export them as a
            spreadsheet (CSV).
          </p>
          {/* The table reads its filters from the address, which the pre-rendered page cannot know:
              it is drawn once the session has answered (see AdminLeadsScreen). */}
          {agent ? <LeadsTable source={ownLeads(agent)} /> : <p aria-live="polite">Loading…</p>}
        </section>
      )}
    </AccountFrame>
  );
}
