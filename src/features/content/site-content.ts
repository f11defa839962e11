/**
 * The public pages' fixed copy: feature cards, Explore links and the counties' names and
 * taglines. The figures an admin edits (claims, track record, testimonial, disclaimer, the
 * counties' figures) live in the site_content table (see site-content-schema.ts).
 */

export const FEATURE_CARDS = [
  {
    title: 'Showcase listing',
    text: 'Your home gets premium placement, larger photos and a featured spot in buyer searches.',
  },
  {
    title: 'Professional photography',
    text: 'Bright, well-composed photos that make buyers want to see the home in person.',
  },
  { title: 'Pricing from real sales', text: 'A price grounded in recent sales in your town, not guesswork.' },
  {
    title: 'Net proceeds up front',
    text: 'Know what you walk away with before you list: commission, taxes and fees included.',
  },
  { title: 'Negotiation', text: 'Offers compared on net proceeds and terms, not only on the headline price.' },
  {
    title: 'Closing coordination',
    text: 'Attorney, lender, inspections and appraisal kept on schedule through closing.',
  },
] as const;

/** Home-page Explore links (the six towns the specification names). */
export const EXPLORE_TOWNS = ['levittown', 'hicksville', 'bay-shore', 'freeport', 'long-beach', 'smithtown'] as const;

export const COUNTIES = {
  nassau: {
    name: 'Nassau County',
    county: 'Nassau',
    slug: 'nassau-county',
    tagline: 'Sell your Nassau County home for what it is worth',
    location: 'Western Long Island, between Queens and Suffolk County',
    source: 'nassau_county_page',
  },
  suffolk: {
    name: 'Suffolk County',
    county: 'Suffolk',
    slug: 'suffolk-county',
    tagline: 'Sell your Suffolk County home for what it is worth',
    location: 'Eastern Long Island, from Amityville to Montauk',
    source: 'suffolk_county_page',
  },
} as const;

export type CountyKey = keyof typeof COUNTIES;

/** An office as one line, "100 Main Street, Huntington, NY 11743" (one string: Astro drops spaces between expressions). */
export const officeAddress = (office: { street: string; city: string; state: string; zip: string }): string =>
  `${office.street}, ${office.city}, ${office.state} ${office.zip}`;

/** Shown next to every figure that comes from the shipped sample files (local demo data only). */
export const SAMPLE_DATA_NOTICE = 'Sample data — for demonstration, not real market figures';
