import AccountFrame from '../accounts/AccountFrame.tsx';

/** /admin: the site's administration (its screens arrive with the admin issue). */
export default function AdminOverviewScreen() {
  return (
    <AccountFrame area="admin" current="/admin">
      {() => (
        <section>
          <h1>Admin</h1>
          <p>Manage agents, e-mail sending, SEO, logos and showcase images here.</p>
        </section>
      )}
    </AccountFrame>
  );
}
