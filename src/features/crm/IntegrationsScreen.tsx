import AccountFrame from '../accounts/AccountFrame.tsx';

/** /dashboard/integrations: the CRM card (Follow Up Boss). */
export default function IntegrationsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/integrations">
      {() => (
        <div className="integrations">
          <h1>Integrations</h1>
          <p>Connect the tools you already work in, so leads from your calculator page reach them without retyping.</p>
          {/* The Follow Up Boss issue replaces this section with the connection card. */}
          <section className="card" aria-labelledby="fub-title">
            <h2 id="fub-title">Follow Up Boss</h2>
            <p>
              Once connected with your Follow Up Boss API key, every new lead from your calculator page is sent to your
              Follow Up Boss account as a person with their estimate, and you can send earlier leads from the Leads
              page.
            </p>
            <p>
              <strong>Coming in a future release.</strong> The connection is not available yet; your leads stay in the
              Leads page and in the e-mails we send you.
            </p>
          </section>
        </div>
      )}
    </AccountFrame>
  );
}
