/**
 * The groups of a net sheet in the order a closing statement reads, each under its heading (the sale
 * price needs none): the web sheet and the PDF print the same headings.
 */
import type { SheetLineAnswer } from './public/sheet-answer.ts';

export const SHEET_GROUPS: readonly { group: SheetLineAnswer['group']; heading: string | null }[] = [
  { group: 'sale', heading: null },
  { group: 'commission', heading: 'Commission' },
  { group: 'payoff', heading: 'Mortgages and liens' },
  { group: 'tax', heading: 'Transfer tax' },
  { group: 'fee', heading: 'Closing fees' },
  { group: 'proration', heading: 'Property tax prorations' },
  { group: 'other', heading: 'Other costs and credits' },
  { group: 'withholding', heading: 'Taxes withheld at closing' },
];
