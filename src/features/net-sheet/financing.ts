import type { Offer } from './offers.ts';

/** How an offer's financing reads on the offers form and the comparison. */
export const FINANCING_LABELS: Record<Offer['financing'], string> = {
  cash: 'Cash',
  conventional: 'Conventional',
  fha: 'FHA',
  va: 'VA',
  other: 'Other',
};
