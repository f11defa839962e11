import * as z from 'zod';
import { groupDigits } from '../../ui/money.ts';
import { MAX_AMOUNT_CENTS } from './estimate.ts';

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
  return z
    .union([z.number(), z.string()], {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `${label} is required`
          : `${label} must be a dollar amount, like 450,000`,
    })
    .meta({ description })
    .transform((value, ctx): number => {
      const text = typeof value === 'number' ? String(value) : value.trim().replace(/[$,]/g, '');
      if (text === '') {
        ctx.addIssue({ code: 'custom', message: `${label} is required` });
        return z.NEVER;
      }
      if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) {
        ctx.addIssue({ code: 'custom', message: `${label} cannot be negative` });
        return z.NEVER;
      }
      if (text.startsWith('-')) {
        ctx.addIssue({ code: 'custom', message: `${label} cannot be negative` });
        return z.NEVER;
      }
      if (!DOLLARS.test(text)) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a dollar amount, like 450,000` });
        return z.NEVER;
      }
      const [whole = '0', fraction = ''] = text.split('.');
      if (whole.replace(/^0+/, '').length > 11) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at most $100,000,000` });
        return z.NEVER;
      }
      const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
      if (cents < options.minimumDollars * 100) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at least $${minimum}` });
        return z.NEVER;
      }
      if (cents > MAX_AMOUNT_CENTS) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at most $100,000,000` });
        return z.NEVER;
      }
      return cents;
    });
}
