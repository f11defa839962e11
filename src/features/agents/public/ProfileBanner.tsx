import { useState } from 'react';
import { missingProfileFields, PROFILE_NEEDS } from '../../accounts/public/public-agent.ts';

/** The profile the banner reads: the page's four needs, and whose page it is. */
interface BannerProfile {
  slug: string;
  first_name: string;
  last_name: string;
  brokerage: string | null;
  professional_title: string | null;
}

/**
 * What a dismissal is remembered against: the four fields the page needs. Once any of them
 * changes (the agent filled one in, or emptied one) the banner may show again.
 */
const profileKey = (agent: BannerProfile) => JSON.stringify(PROFILE_NEEDS.map(({ key }) => agent[key]));
const storageKey = (agent: BannerProfile) => `dashboard.profileBannerDismissed.${agent.slug}`;

function wasDismissed(agent: BannerProfile): boolean {
  try {
    return window.localStorage.getItem(storageKey(agent)) === profileKey(agent);
  } catch {
    // Storage can be off (private modes); the banner then shows on each visit.
    return false;
  }
}

/** The id of a profile form field the banner links to (ProfileScreen gives its fields these ids). */
export const profileFieldId = (key: string) => `profile-${key}`;

/** "first name", "first name and brokerage", "first name, last name and brokerage". */
const listed = (words: readonly string[]) =>
  words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`;

/**
 * On /dashboard and on the profile form: /r/{slug} stays Coming Soon until the profile has what the
 * page needs, and the banner names only what is still missing, each linked to its field (newcomer
 * audit M6). `onProfilePage`: the links are to the fields on this page, and there is no button to it.
 */
export function ProfileBanner({ agent, onProfilePage = false }: { agent: BannerProfile; onProfilePage?: boolean }) {
  const [dismissed, setDismissed] = useState(() => wasDismissed(agent));
  const missing = missingProfileFields(agent);
  if (missing.length === 0 || (dismissed && !onProfilePage)) return null;
  const dismiss = () => {
    try {
      window.localStorage.setItem(storageKey(agent), profileKey(agent));
    } catch {
      // Not remembered; hidden for this visit all the same.
    }
    setDismissed(true);
  };
  const formPath = onProfilePage ? '' : '/dashboard/profile';
  return (
    <section className="notice-warning profile-banner" aria-labelledby="profile-banner-title">
      <h2 id="profile-banner-title">Complete your profile</h2>
      <p>
        Your calculator page at <a href={`/r/${agent.slug}`}>/r/{agent.slug}</a> shows “Coming Soon” to sellers until
        your profile has your {listed(missing.map(({ words }) => words))}.
      </p>
      <ul className="profile-banner-missing">
        {missing.map(({ key, words }) => (
          <li key={key}>
            <a href={`${formPath}#${profileFieldId(key)}`}>Add your {words}</a>
          </li>
        ))}
      </ul>
      {onProfilePage ? null : (
        <div className="nav-actions">
          <a className="button button-primary" href="/dashboard/profile">
            Complete your profile
          </a>
          <button type="button" className="button button-secondary" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      )}
    </section>
  );
}
