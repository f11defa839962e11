/** The detailed sheet as the API answers it (dollars), apart so the estimate's own schema can carry it. */
import * as z from 'zod/mini';

export const sheetLineSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** Positive: a cost to the seller; negative: a credit (the sale price is the first, negative line). */
  amount: z.number(),
  /** One line saying where the figure comes from. */
  why: z.string(),
  group: z.enum(['sale', 'commission', 'payoff', 'tax', 'fee', 'proration', 'other', 'withholding']),
});

export const sheetSchema = z.object({
  lines: z.array(sheetLineSchema),
  net_to_seller: z.number(),
  closing_date: z.string(),
  notes: z.array(z.object({ key: z.string(), text: z.string() })),
  /**
   * What is legal but unusual (a closing date already past, concessions over 10 % of the price):
   * computed as given and said in words, never refused (decision 0038). `field` names the detail.
   */
  warnings: z.array(z.object({ key: z.string(), field: z.string(), text: z.string() })).register(z.globalRegistry, {
    description:
      'What is legal but unusual on this sheet, computed as given and said in words: past_closing_date (field closing_date), large_concessions (field seller_concessions, over 10 % of the price), overdue_tax_<levy>_<half> (field property_taxes.<levy>.<first|second>_half_paid: an unpaid half past its penalty-free window, charged with its penalty). Empty when nothing is unusual.',
  }),
});
