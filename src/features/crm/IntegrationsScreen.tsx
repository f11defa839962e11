import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { WebhooksCard } from '../webhooks/public/WebhooksCard.tsx';
import { FubCard } from './public/FubCard.tsx';

/** /dashboard/integrations: the CRM card (Follow Up Boss) and the webhooks card (any other CRM, Zapier, Make). */
export default function IntegrationsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/integrations">
      {() => (
        <div className="integrations">
          <h1>Integrations</h1>
          <p>
            Connect the tools you already work in, so leads from your calculator page reach them without retyping:
            Follow Up Boss directly, and any other CRM, Zapier or Make through webhooks.
          </p>
          <FubCard />
          <WebhooksCard base="/api/webhooks" title="Webhooks" whose="your leads" />
        </div>
      )}
    </AccountFrame>
  );
}
