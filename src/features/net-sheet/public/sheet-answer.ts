/**
 * The detailed net sheet as the API answers it (dollars with two decimals, as every estimate field),
 * and the answers of the net-sheet routes, as zod schemas the islands parse them with.
 */
import * as z from 'zod';
import { centsToDollars } from '../../../ui/money.ts';
import { estimateSchema } from './estimate-request.ts';
import { sheetLineSchema, sheetSchema } from '../sheet-schema.ts';
import type { DetailedSheet } from '../detailed-sheet.ts';

export { sheetLineSchema, sheetSchema };

export type SheetAnswer = z.infer<typeof sheetSchema>;
export type SheetLineAnswer = z.infer<typeof sheetLineSchema>;

export function toSheetAnswer(sheet: DetailedSheet): SheetAnswer {
  return {
    lines: sheet.lines.map(({ amount_cents, ...line }) => ({ ...line, amount: centsToDollars(amount_cents) })),
    net_to_seller: centsToDollars(sheet.net_cents),
    closing_date: sheet.closing_date,
    notes: sheet.notes,
    warnings: sheet.warnings,
  };
}

/** What an empty field of the refine form means for this estimate's agent, today. */
export const sheetDefaultsSchema = z.object({
  listing_commission_percent: z.number(),
  buyer_agent_percent: z.number(),
  closing_date: z.string(),
  title_closer_pickup: z.boolean(),
  payoff_bank_attorney: z.boolean(),
  seller_pays_rp5217: z.boolean(),
  /** The agent's usual attorney fee, in dollars (optional: answers stored before it existed). */
  attorney_fee: z.number().optional(),
});
export type SheetDefaultsAnswer = z.infer<typeof sheetDefaultsSchema>;

/**
 * The estimate's own terms as an offer states them (decision 0037): an offer on these terms nets
 * exactly the estimate's net, and the offers form starts from them.
 */
export const estimateTermsSchema = z.object({
  sale_price: z.number(),
  concessions: z.number(),
  listing_commission_percent: z.number(),
  buyer_agent_percent: z.number(),
  closing_date: z.string(),
});
export type EstimateTerms = z.infer<typeof estimateTermsSchema>;

/** GET /api/estimates/{uuid}/sheet. `details` are as the seller sent them (null: a quick estimate). */
export const sheetAnswerSchema = z.object({
  success: z.literal(true),
  sheet: sheetSchema,
  details: z.record(z.string(), z.unknown()).nullable(),
  defaults: sheetDefaultsSchema,
  terms: estimateTermsSchema,
});

/** POST /api/estimates with `details`. */
export const detailedEstimateAnswerSchema = z.object({
  success: z.literal(true),
  estimate: estimateSchema,
  sheet: sheetSchema,
});

/** POST /api/estimates/reverse. */
export const reverseAnswerSchema = detailedEstimateAnswerSchema.extend({ sale_price: z.number() });

/** GET /api/estimates/{uuid}/range. */
export const rangeAnswerSchema = z.object({
  success: z.literal(true),
  points: z.array(z.object({ sale_price: z.number(), net_to_seller: z.number() })),
});

export const comparedOfferSchema = z.object({
  price: z.number(),
  concessions: z.number(),
  buyer_agent_percent: z.number(),
  closing_date: z.string(),
  /** Null when not given: it changes no figure. */
  financing: z.enum(['cash', 'conventional', 'fha', 'va', 'other']).nullable(),
  net_to_seller: z.number(),
  /** The best net minus this one's (0 for the best). */
  behind_best: z.number(),
  best: z.boolean(),
  sheet: sheetSchema,
});

/** POST /api/offers and GET /api/offers/{uuid}. */
export const comparisonAnswerSchema = z.object({
  success: z.literal(true),
  comparison: z.object({
    uuid: z.string(),
    estimate_uuid: z.string(),
    agent_slug: z.string(),
    created_at: z.string(),
    offers: z.array(comparedOfferSchema),
  }),
});
export type ComparisonAnswer = z.infer<typeof comparisonAnswerSchema>['comparison'];
