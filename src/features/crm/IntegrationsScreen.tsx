import AccountFrame from '../accounts/AccountFrame.tsx';

/** /dashboard/integrations: the CRM card (Follow Up Boss). */
export default function IntegrationsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/integrations">
      {() => (
        <section>
          <h1>Integrations</h1>
        </section>
      )}
    </AccountFrame>
  );
}
