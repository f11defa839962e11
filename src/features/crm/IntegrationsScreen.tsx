import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { FubCard } from './public/FubCard.tsx';

/** /dashboard/integrations: the CRM card (Follow Up Boss). */
export default function IntegrationsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/integrations">
      {() => (
        <div className="integrations">
          <h1>Integrations</h1>
          <p>Connect the tools you already work in, so leads from your calculator page reach them without retyping.</p>
          <FubCard />
        </div>
      )}
    </AccountFrame>
  );
}
