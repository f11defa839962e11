import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { SubscribersCard } from './SubscribersCard.tsx';
import { UpdatesSwitchCard } from './UpdatesSwitchCard.tsx';

/** /dashboard/updates: the agent's switch and sample, and their sellers who asked for monthly updates. */
export default function UpdatesScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/updates">
      {(agent) => (
        <div className="seller-updates">
          <h1>Seller updates</h1>
          <p>
            Sellers who tick “Send me a monthly update of my estimated net” on your forms get their estimate re-priced
            by their town’s home values about every 30 days, branded with your name. You see here who gets them, and who
            is getting ready to sell.
          </p>
          {/* The cards read the session's data: drawn before the session answered, they would not match the page. */}
          {agent ? (
            <>
              <UpdatesSwitchCard />
              <SubscribersCard />
            </>
          ) : (
            <p aria-live="polite">Loading…</p>
          )}
        </div>
      )}
    </AccountFrame>
  );
}
