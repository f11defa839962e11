import * as z from 'zod/mini';
import { optionalPersonName } from '../../forms/public/person-name.ts';
import { sheetSchema } from '../sheet-schema.ts';
import { dollarAmount, MIN_SALE_PRICE_DOLLARS } from '../amount.ts';

export const MAX_NAME_LENGTH = 100;

/** POST /api/estimates; the calculator forms check the same rules before sending. */
export const estimateRequestSchema = z.object({
  agent_slug: z
    .string({ error: 'Agent is required' })
    .check(z.trim(), z.minLength(1, 'Agent is required'), z.maxLength(64, 'Agent is not valid')),
  sale_price: dollarAmount('Sale price', { minimumDollars: MIN_SALE_PRICE_DOLLARS }),
  // Optional on the county pages: an absent or empty payoff is $0.
  mortgage_payoff: z.pipe(
    z.pipe(
      z.optional(
        z.union([z.number(), z.string(), z.null()], { error: 'Mortgage payoff must be a dollar amount, like 450,000' }),
      ),
      z.transform((value) => (value === null || value === undefined || value === '' ? 0 : value)),
    ),
    dollarAmount('Mortgage payoff', { minimumDollars: 0 }),
  ),
  // The calculator's first name: the same rule as every other name, so "Talk to…" can carry it on.
  recipient_name: optionalPersonName('Name', MAX_NAME_LENGTH),
});

export type EstimateRequest = z.infer<typeof estimateRequestSchema>;

/** An estimate as the API answers it: dollars with two decimals. */
export const estimateSchema = z.object({
  uuid: z.string(),
  agent_id: z.number(),
  agent_slug: z.string(),
  sale_price: z.number(),
  mortgage_payoff: z.number(),
  commission: z.number(),
  commission_percent: z.number(),
  transfer_tax: z.number(),
  transfer_tax_rate_per_1000: z.number(),
  lawyer_fee: z.number(),
  recording_fee: z.number(),
  net_to_seller: z.number(),
  recipient_name: z.nullable(z.string()),
  created_at: z.string(),
  /**
   * A detailed estimate's stored sheet (absent for a quick estimate). Its net is then the estimate's
   * net_to_seller, and its lines are the ones a seller reads (netSheetLines).
   */
  sheet: z.optional(sheetSchema),
});

export type Estimate = z.infer<typeof estimateSchema>;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
