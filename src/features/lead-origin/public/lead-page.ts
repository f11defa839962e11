/**
 * Where a lead came from, in words: the one label the agent's new-lead e-mail, the leads tables,
 * the CSV exports, the dashboards' activity and Follow Up Boss all show. Town names come from the
 * town data bundled with the code (no database trip), so this is for the server: the browser gets
 * the label in the list's rows.
 */
import { townBySlug } from '../../towns/public/town-data.ts';
import { EMBED_SOURCE, ORIGIN_LABELS, originOf, townSlugOf } from './lead-origin.ts';

/** "Town page: Bay Shore", "Home page", …; a path the site does not have is named as it is. */
export function pageLabel(path: string): string {
  const origin = originOf(path, '');
  switch (origin) {
    case 'town': {
      const town = townBySlug(townSlugOf(path) ?? '');
      return town ? `Town page: ${town.name}` : `Page ${path}`;
    }
    case 'agent_page':
      return `Calculator page ${path.replace(/\/$/, '')}`;
    case 'estimate':
      return 'Estimate page';
    case 'offers':
      return 'Offers page';
    case 'about_page':
      return `About page ${path.replace(/\/$/, '')}`;
    case 'other':
      return `Page ${path}`;
    default:
      return ORIGIN_LABELS[origin];
  }
}

/** The forms' `source` in words, for a lead that did not send its page. */
const SOURCE_WORDS: Readonly<Record<string, string>> = {
  showcase: 'Home page',
  calculator: 'Calculator',
  nassau_county_page: 'Nassau County page',
  suffolk_county_page: 'Suffolk County page',
};

/**
 * A lead's source in words: for the embedded calculator, that and the page it was embedded on (when
 * its site was on the agent's list); else its page when the form said, else what its form's `source`
 * stands for.
 */
export const leadSourceLabel = (
  source: string,
  pagePath: string | null | undefined,
  hostPage: string | null | undefined = null,
): string => {
  if (source === EMBED_SOURCE) return hostPage ? `Embed: ${hostPage}` : 'Embed';
  return pagePath ? pageLabel(pagePath) : (SOURCE_WORDS[source] ?? source);
};
