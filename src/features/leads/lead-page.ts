/**
 * Where a lead came from, told from the site path its form was on, in the words of the agent's
 * new-lead e-mail. Town names come from the town data bundled with the code (no database trip).
 */
import { townBySlug } from '../towns/town-data.ts';

const COUNTY_PAGES: Readonly<Record<string, string>> = {
  'nassau-county': 'Nassau County page',
  'suffolk-county': 'Suffolk County page',
};

/** "Town page: Bay Shore", "Home page", …; a path the site does not have is named as it is. */
export function pageLabel(path: string): string {
  const parts = path.split('/').filter((part) => part !== '');
  const [section, slug, ...rest] = parts;
  if (section === undefined) return 'Home page';
  if (slug !== undefined && rest.length === 0) {
    if (section === 'long-island-real-estate') {
      const county = COUNTY_PAGES[slug];
      if (county) return county;
      const town = townBySlug(slug);
      if (town) return `Town page: ${town.name}`;
    }
    if (section === 'r') return `Your calculator page (/r/${slug})`;
    if (section === 'estimate') return 'Shared estimate page';
  }
  return `Page ${path}`;
}
