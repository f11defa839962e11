import { memo, Suspense } from 'react';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { FubCard } from '../crm/public/FubCard.tsx';
import { EmailSettingsCard } from '../email/public/EmailSettingsCard.tsx';
import { FeeTableCard } from '../net-sheet/public/FeeTableCard.tsx';
import { OgImageCard } from '../seo/public/OgImageCard.tsx';
import { SellerUpdatesAdminCard } from '../seller-updates/public/SellerUpdatesAdminCard.tsx';
import { SeoSettingsCard } from '../seo/public/SeoSettingsCard.tsx';
import { TownLogoCard } from '../site-images/public/TownLogoCard.tsx';
import { WebsiteLogoCard } from '../site-images/public/WebsiteLogoCard.tsx';
import { WebhooksCard } from '../webhooks/public/WebhooksCard.tsx';

/** Each card's heading (its id) and the words the section list uses for it, in the page's order. */
const SECTIONS = [
  { id: 'email-settings-title', label: 'E-mail sending' },
  { id: 'seo-settings-title', label: 'SEO' },
  { id: 'og-image-title', label: 'Social preview image' },
  { id: 'website-logo-title', label: 'Website logo' },
  { id: 'town-logo-title', label: 'Town page logo' },
  { id: 'fee-table-title', label: 'Closing fees' },
  { id: 'fub-title', label: 'Follow Up Boss' },
  { id: 'webhooks-title', label: 'Webhooks' },
  { id: 'seller-updates-title', label: 'Seller updates' },
] as const;

/**
 * /admin/settings: the site's e-mail sending, its SEO defaults and OG image, its website and
 * town-page logos, the Long Island closing fees, the admin's own Follow Up Boss card and the site's
 * webhooks (every agent's leads). The page
 * was one 7,900 px column (minor 35): a list of its sections leads to each card (beside them and
 * sticky on a computer, a compact list above them on a phone), and the cards share the width.
 */
export default function AdminSettingsScreen() {
  return (
    <AccountFrame area="admin" current="/admin/settings">
      {() => <SettingsCards />}
    </AccountFrame>
  );
}

/**
 * The heading, the section list and the cards. Each card is a Suspense boundary of its own, though
 * nothing in it suspends: hydrating the pre-rendered page, React leaves such boundaries for later
 * passes at idle priority, done in slices of a few milliseconds, so the cards' scripts do not run
 * as one long task at load (issue 23: the screen's total blocking time). memo, so that the frame's
 * new render when the session answers does not reach them: an update to a boundary not yet
 * hydrated would hydrate it at once. A card is hydrated at once too when it is clicked or typed in.
 */
const SettingsCards = memo(function SettingsCards() {
  return (
    <div className="admin-settings">
      <h1>Settings</h1>
      <nav className="settings-nav" aria-label="Settings sections">
        <ul className="plain-list">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-cards">
        <Suspense>
          <EmailSettingsCard />
        </Suspense>
        <Suspense>
          <SeoSettingsCard />
        </Suspense>
        <Suspense>
          <OgImageCard />
        </Suspense>
        <Suspense>
          <WebsiteLogoCard />
        </Suspense>
        <Suspense>
          <TownLogoCard />
        </Suspense>
        <Suspense>
          <FeeTableCard />
        </Suspense>
        <Suspense>
          <FubCard />
        </Suspense>
        <Suspense>
          <WebhooksCard
            base="/api/admin/webhooks"
            title="Webhooks (every agent’s leads)"
            whose="every agent’s leads"
            titleId="webhooks-title"
          />
        </Suspense>
        <Suspense>
          <SellerUpdatesAdminCard />
        </Suspense>
      </div>
    </div>
  );
});
