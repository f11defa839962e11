import { groupDigits } from './money.ts';

/** Props of a price input: digits only, thousands separators shown as the seller types. */
export const priceInputProps = (value: string, onValue: (grouped: string) => void) => ({
  value,
  inputMode: 'numeric' as const,
  autoComplete: 'off',
  onChange: (event: { target: { value: string } }) => onValue(groupDigits(event.target.value)),
});
