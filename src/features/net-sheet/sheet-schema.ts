/** The detailed sheet as the API answers it (dollars), apart so the estimate's own schema can carry it. */
import * as z from 'zod';

export const sheetLineSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** Positive: a cost to the seller; negative: a credit (the sale price is the first, negative line). */
  amount: z.number(),
  /** One line saying where the figure comes from. */
  why: z.string(),
  group: z.enum(['sale', 'commission', 'payoff', 'tax', 'fee', 'proration', 'other']),
});

export const sheetSchema = z.object({
  lines: z.array(sheetLineSchema),
  net_to_seller: z.number(),
  closing_date: z.string(),
  notes: z.array(z.object({ key: z.string(), text: z.string() })),
});
