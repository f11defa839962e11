import AccountFrame from '../accounts/AccountFrame.tsx';
import { FubCard } from '../crm/FubCard.tsx';
import { EmailSettingsCard } from '../email/EmailSettingsCard.tsx';
import { SeoSettingsCard } from '../seo/SeoSettingsCard.tsx';

/** /admin/settings: the site's e-mail sending, its SEO defaults, and the admin's own Follow Up Boss card. */
export default function AdminSettingsScreen() {
  return (
    <AccountFrame area="admin" current="/admin/settings">
      {() => (
        <div className="admin-settings">
          <h1>Settings</h1>
          <EmailSettingsCard />
          <SeoSettingsCard />
          <FubCard />
        </div>
      )}
    </AccountFrame>
  );
}
