import AccountFrame from '../accounts/AccountFrame.tsx';
import { LeadsTable, type LeadsSource } from './LeadsTable.tsx';

/** What the screen is for: with the pre-rendered page, before the script and the list. */
const INTRO =
  'The sellers who asked you to contact them, newest first. Filter them by source or town, or export them as a spreadsheet (CSV).';

/** /dashboard/leads: the signed-in agent's own leads. */
export default function LeadsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/leads">
      {(agent) => {
        // While the session is checked: the heading, in the pre-rendered page; the table needs the agent.
        if (!agent) {
          return (
            <section aria-labelledby="leads-title">
              <h1 id="leads-title">Leads</h1>
              <p>{INTRO}</p>
              <p aria-live="polite">Loading…</p>
            </section>
          );
        }
        const source: LeadsSource = {
          queryKey: ['leads'],
          listPath: '/api/leads',
          exportPath: '/api/leads/export.csv',
          caption: 'Your leads, newest first',
          crm: true,
          emptyMessage: (
            <p>
              No leads yet. When a visitor to your calculator page (<a href={`/r/${agent.slug}`}>/r/{agent.slug}</a>)
              asks to be contacted, they appear here.
            </p>
          ),
        };
        return (
          <section aria-labelledby="leads-title">
            <h1 id="leads-title">Leads</h1>
            <p>{INTRO}</p>
            <LeadsTable source={source} />
          </section>
        );
      }}
    </AccountFrame>
  );
}
