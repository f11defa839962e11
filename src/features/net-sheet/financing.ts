import type { Offer } from './offers.ts';

type Financing = NonNullable<Offer['financing']>;

/** How an offer's financing reads on the offers form and the comparison. */
export const FINANCING_LABELS: Record<Financing, string> = {
  cash: 'Cash',
  conventional: 'Conventional',
  fha: 'FHA',
  va: 'VA',
  other: 'Other',
};

/**
 * An offer's financing as the comparison shows it: optional, because it changes no figure of the
 * sheet (decision 0037); it stays beside the net for the seller to weigh (a cash offer has no
 * appraisal or loan to fall through).
 */
export const financingLabel = (financing: Financing | null | undefined): string =>
  financing ? FINANCING_LABELS[financing] : 'Not given';
