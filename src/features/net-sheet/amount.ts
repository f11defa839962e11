import * as z from 'zod/mini';
import { groupDigits } from '../../ui/money.ts';
import { MAX_AMOUNT_CENTS } from './public/estimate.ts';

const DOLLARS = /^\d+(\.\d{1,2})?$/;

/** No home sells for less; a smaller sale price is a typing slip, and its net sheet would mislead. */
export const MIN_SALE_PRICE_DOLLARS = 10_000;

/**
 * A dollar amount as a number (780200.5) or a string with optional thousands separators
 * ("780,200.50"), parsed to integer cents, at least `minimumDollars`. `label` names it in messages
 * ("Sale price").
 */
export function dollarAmount(label: string, options: { minimumDollars: number }) {
  // What the transform accepts, for the OpenAPI document (a transform has no JSON Schema). Grouped
  // without Intl: this runs at import, and a cold start pays ~20 ms for ICU's first use (decision 0026).
  const minimum = groupDigits(String(options.minimumDollars));
  const description = `Dollars, as a number or text like "450,000.50": $${minimum} to $100,000,000`;
  const given = z
    .union([z.number(), z.string()], {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `${label} is required`
          : `${label} must be a dollar amount, like 450,000`,
    })
    .register(z.globalRegistry, { description });
  return z.pipe(
    given,
    z.transform((value: number | string, ctx): number => {
      const fail = (message: string): never => {
        ctx.issues.push({ code: 'custom', message, input: value });
        return z.NEVER;
      };
      const text = typeof value === 'number' ? String(value) : value.trim().replace(/[$,]/g, '');
      if (text === '') {
        return fail(`${label} is required`);
      }
      if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) {
        return fail(`${label} cannot be negative`);
      }
      if (text.startsWith('-')) {
        return fail(`${label} cannot be negative`);
      }
      if (!DOLLARS.test(text)) {
        return fail(`${label} must be a dollar amount, like 450,000`);
      }
      const [whole = '0', fraction = ''] = text.split('.');
      if (whole.replace(/^0+/, '').length > 11) {
        return fail(`${label} must be at most $100,000,000`);
      }
      const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
      if (cents < options.minimumDollars * 100) {
        return fail(`${label} must be at least $${minimum}`);
      }
      if (cents > MAX_AMOUNT_CENTS) {
        return fail(`${label} must be at most $100,000,000`);
      }
      return cents;
    }),
  );
}
