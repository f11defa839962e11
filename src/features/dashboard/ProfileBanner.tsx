import { useState } from 'react';
import type { SessionAgent } from '../auth/auth-schemas.ts';
import { isProfileComplete } from '../agents/public-agent.ts';

/**
 * What a dismissal is remembered against: the four fields the page needs. Once any of them
 * changes (the agent filled one in, or emptied one) the banner may show again.
 */
const profileKey = (agent: SessionAgent) =>
  JSON.stringify([agent.first_name, agent.last_name, agent.brokerage, agent.professional_title]);
const storageKey = (agent: SessionAgent) => `dashboard.profileBannerDismissed.${agent.id}`;

function wasDismissed(agent: SessionAgent): boolean {
  try {
    return window.localStorage.getItem(storageKey(agent)) === profileKey(agent);
  } catch {
    // Storage can be off (private modes); the banner then shows on each visit.
    return false;
  }
}

/** On /dashboard only: the warning that /r/{slug} stays Coming Soon until the profile is complete. */
export function ProfileBanner({ agent }: { agent: SessionAgent }) {
  const [dismissed, setDismissed] = useState(() => wasDismissed(agent));
  if (isProfileComplete(agent) || dismissed) return null;
  const dismiss = () => {
    try {
      window.localStorage.setItem(storageKey(agent), profileKey(agent));
    } catch {
      // Not remembered; hidden for this visit all the same.
    }
    setDismissed(true);
  };
  return (
    <section className="notice-warning profile-banner" aria-labelledby="profile-banner-title">
      <h2 id="profile-banner-title">Complete your profile</h2>
      <p>
        Your calculator page at <a href={`/r/${agent.slug}`}>/r/{agent.slug}</a> will not work until your profile is
        complete: it needs your first name, last name, brokerage and professional title.
      </p>
      <div className="nav-actions">
        <a className="button button-primary" href="/dashboard/profile">
          Complete your profile
        </a>
        <button type="button" className="button button-secondary" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
