/**
 * The marketing content the public pages share: one place for the claims, stats, features and the
 * testimonial, so a change of wording happens once. Figures are the featured agent's own, as the
 * product specification gives them (performance data analysed April 2025).
 */

export const MARKETING_CLAIMS = [
  { figure: '~2%', label: 'higher sale price', detail: 'About $7K more on a typical Long Island sale' },
  { figure: '75%', label: 'more engagement', detail: 'Buyers spend more time with showcase listings' },
  { figure: '15%', label: 'more profile views', detail: 'Listings get seen by more serious buyers' },
  { figure: '<10%', label: 'of listings', detail: 'Fewer than 1 in 10 listings in a market get showcase treatment' },
] as const;

export const TRACK_RECORD = [
  { figure: '1,381+', label: 'homes sold' },
  { figure: '350', label: 'sold in the last 12 months' },
  { figure: '$80K–$4.7M', label: 'price range' },
  { figure: '5.0', label: 'rating from 47 reviews' },
] as const;

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

export const TESTIMONIAL = {
  quote:
    'We knew what we would walk away with before we even listed. The showcase brought more buyers through than we expected, and we closed above asking.',
  author: 'A Long Island seller',
} as const;

export const DISCLAIMER =
  'Marketing performance data analysed April 2025. Individual results vary. Estimates are for information only and are not a guarantee of sale price or proceeds.';

/** Home-page Explore links (the six towns the specification names). */
export const EXPLORE_TOWNS = ['levittown', 'hicksville', 'bay-shore', 'freeport', 'long-beach', 'smithtown'] as const;

export const COUNTIES = {
  nassau: {
    name: 'Nassau County',
    county: 'Nassau',
    slug: 'nassau-county',
    tagline: 'Sell your Nassau County home for what it is worth',
    location: 'Western Long Island, between Queens and Suffolk County',
    stats: [
      { label: 'Population', value: '1.4M' },
      { label: 'Median Home Value', value: '$650K' },
      { label: 'Market Activity', value: 'Active' },
      { label: 'School Districts', value: '56' },
    ],
    source: 'nassau_county_page',
  },
  suffolk: {
    name: 'Suffolk County',
    county: 'Suffolk',
    slug: 'suffolk-county',
    tagline: 'Sell your Suffolk County home for what it is worth',
    location: 'Eastern Long Island, from Amityville to Montauk',
    stats: [
      { label: 'Population', value: '1.5M' },
      { label: 'Median Home Value', value: '$550K' },
      { label: 'Market Activity', value: 'Diverse' },
      { label: 'School Districts', value: '70+' },
    ],
    source: 'suffolk_county_page',
  },
} as const;

export type CountyKey = keyof typeof COUNTIES;

/** An office as one line, "100 Main Street, Huntington, NY 11743" (one string: Astro drops spaces between expressions). */
export const officeAddress = (office: { street: string; city: string; state: string; zip: string }): string =>
  `${office.street}, ${office.city}, ${office.state} ${office.zip}`;

/** Shown next to every figure that comes from the shipped sample files (local demo data only). */
export const SAMPLE_DATA_NOTICE = 'Sample data — for demonstration, not real market figures';
