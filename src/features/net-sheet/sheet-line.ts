/**
 * One line of the detailed sheet in signed integer cents (positive = a cost to the seller, negative =
 * a credit), with why it is there and the heading it goes under.
 */
export type LineGroup = 'sale' | 'commission' | 'payoff' | 'tax' | 'fee' | 'proration' | 'other' | 'withholding';

export interface SheetLine {
  key: string;
  label: string;
  amount_cents: number;
  why: string;
  group: LineGroup;
}
