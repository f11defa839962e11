import AccountFrame from '../accounts/AccountFrame.tsx';

/** /dashboard/leads: the agent's leads. */
export default function LeadsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/leads">
      {() => (
        <section>
          <h1>Leads</h1>
        </section>
      )}
    </AccountFrame>
  );
}
