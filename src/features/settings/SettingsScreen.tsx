import AccountFrame from '../accounts/AccountFrame.tsx';

/** /dashboard/settings: the calculator defaults. */
export default function SettingsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/settings">
      {() => (
        <section>
          <h1>Calculator settings</h1>
        </section>
      )}
    </AccountFrame>
  );
}
