/**
 * Amounts in the words of the sheet's lines and notes. The formatters are made once: toLocaleString
 * builds a new Intl.NumberFormat on every call (~50 µs), and the reverse solve, the range and the
 * property tests build thousands of sheets.
 */
import { onFirstUse } from '../../ui/on-first-use.ts';

const WHOLE_OR_CENTS = onFirstUse(
  () => new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 }),
);
const WITH_CENTS = onFirstUse(
  () => new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
);

/** $10,000 or $10,000.5: a figure in a sentence. */
export const dollarsText = (cents: number): string => `$${WHOLE_OR_CENTS().format(cents / 100)}`;

/** $10,000.00: an amount as a bill prints it. */
export const money = (cents: number): string => `$${WITH_CENTS().format(cents / 100)}`;
