import AccountFrame from '../accounts/AccountFrame.tsx';
import { FubCard } from '../crm/FubCard.tsx';
import { EmailSettingsCard } from '../email/EmailSettingsCard.tsx';
import { FeeTableCard } from '../net-sheet/FeeTableCard.tsx';
import { OgImageCard } from '../seo/OgImageCard.tsx';
import { SeoSettingsCard } from '../seo/SeoSettingsCard.tsx';
import { TownLogoCard } from '../site/TownLogoCard.tsx';
import { WebsiteLogoCard } from '../site/WebsiteLogoCard.tsx';

/**
 * /admin/settings: the site's e-mail sending, its SEO defaults and OG image, its website and
 * town-page logos, the Long Island closing fees, and the admin's own Follow Up Boss card.
 */
export default function AdminSettingsScreen() {
  return (
    <AccountFrame area="admin" current="/admin/settings">
      {() => (
        <div className="admin-settings">
          <h1>Settings</h1>
          <EmailSettingsCard />
          <SeoSettingsCard />
          <OgImageCard />
          <WebsiteLogoCard />
          <TownLogoCard />
          <FeeTableCard />
          <FubCard />
        </div>
      )}
    </AccountFrame>
  );
}
