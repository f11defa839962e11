/**
 * Where a lead came from, as a kind the lists filter by (issue 23, newcomer audit M1). The kind is
 * told from the site path the lead's form was on (every form sends it: use-lead-submission.ts); a
 * lead without one (made before forms sent it, or by an API caller) falls back to the form's
 * `source`. The database stores the same kind as a generated column (migration 0025, `origin`) so
 * the lists can filter and index it: `originOf` is that column's CASE, and a test holds the two to
 * the same answers. No town data here: the browser's leads table imports this.
 */
export const LEAD_ORIGINS = [
  'home',
  'nassau_county',
  'suffolk_county',
  'town',
  'agent_page',
  'about_page',
  'estimate',
  'offers',
  'other',
] as const;
export type LeadOrigin = (typeof LEAD_ORIGINS)[number];

/** Each kind in words, as the Source filter offers it. */
export const ORIGIN_LABELS: Record<LeadOrigin, string> = {
  home: 'Home page',
  nassau_county: 'Nassau County page',
  suffolk_county: 'Suffolk County page',
  town: 'Town pages',
  agent_page: 'Calculator page (/r/…)',
  about_page: 'About page',
  estimate: 'Estimate page',
  offers: 'Offers page',
  other: 'Other pages',
};

/**
 * The `source` of a lead sent from the calculator embedded on the agent's own site (issue 26,
 * decision 0058), whatever the form: its page is the frame's (/embed/{slug}), its host page is kept
 * beside it.
 */
export const EMBED_SOURCE = 'embed';

/** The utm_* parameters a campaign link carries, as the forms send them (arrival.ts), without the prefix. */
export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
/** The longest value of one kept (a longer one is cut by the browser, refused by the API). */
export const UTM_MAX_LENGTH = 200;

/** The section of the site the town and county pages live under. */
export const TOWN_SECTION = '/long-island-real-estate/';

/** The form's `source` of a lead that did not send its page (the spec's four values). */
const ORIGIN_OF_SOURCE: Readonly<Record<string, LeadOrigin>> = {
  showcase: 'home',
  calculator: 'agent_page',
  nassau_county_page: 'nassau_county',
  suffolk_county_page: 'suffolk_county',
};

/** The kind of a lead's page: the same answers as migration 0025's `origin` column. */
export function originOf(pagePath: string | null, source: string): LeadOrigin {
  if (pagePath === null) return ORIGIN_OF_SOURCE[source] ?? 'other';
  if (/^\/*$/.test(pagePath)) return 'home';
  if (/^\/long-island-real-estate\/nassau-county\/?$/.test(pagePath)) return 'nassau_county';
  if (/^\/long-island-real-estate\/suffolk-county\/?$/.test(pagePath)) return 'suffolk_county';
  if (/^\/long-island-real-estate\/[^/]+\/?$/.test(pagePath)) return 'town';
  if (/^\/r\/[^/]+\/?$/.test(pagePath)) return 'agent_page';
  if (/^\/about-[^/]+\/?$/.test(pagePath)) return 'about_page';
  if (/^\/estimate(\/|$)/.test(pagePath)) return 'estimate';
  if (/^\/offers(\/|$)/.test(pagePath)) return 'offers';
  return 'other';
}

/** The town slug of a town page's path (the same answers as migration 0025's `page_town`), else null. */
export function townSlugOf(pagePath: string | null): string | null {
  const match = pagePath === null ? null : /^\/long-island-real-estate\/([^/]+)\/?$/.exec(pagePath);
  return match?.[1] ?? null;
}
