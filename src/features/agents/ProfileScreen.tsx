import AccountFrame from '../accounts/AccountFrame.tsx';

/** /dashboard/profile: the agent's profile, photo and logo. */
export default function ProfileScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/profile">
      {() => (
        <section>
          <h1>Profile</h1>
        </section>
      )}
    </AccountFrame>
  );
}
