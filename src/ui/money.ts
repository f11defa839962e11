import { onFirstUse } from './on-first-use.ts';

const usdFormat = (options: Intl.NumberFormatOptions = {}) =>
  onFirstUse(() => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', ...options }));

const usd = usdFormat();
const usdWhole = usdFormat({ maximumFractionDigits: 0 });

/** The one way money is shown: $1,234.56. */
export function formatMoney(dollars: number): string {
  return usd().format(dollars);
}

/** Prices of homes, without cents: $780,200. */
export function formatPrice(dollars: number): string {
  return usdWhole().format(dollars);
}

export const centsToDollars = (cents: number): number => cents / 100;

/** Thousands separators while a seller types a price: "780200" -> "780,200". Digits only. */
export function groupDigits(typed: string): string {
  const digits = typed.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const usdCompact = usdFormat({ notation: 'compact', maximumSignificantDigits: 3 });

/** Prices where space is short (a chart's axis): $612K, $1.25M. */
export function formatPriceShort(dollars: number): string {
  return usdCompact().format(dollars);
}
