import AccountFrame from '../accounts/AccountFrame.tsx';

/** /dashboard: the agent's overview. */
export default function OverviewScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard">
      {() => (
        <section>
          <h1>Overview</h1>
        </section>
      )}
    </AccountFrame>
  );
}
