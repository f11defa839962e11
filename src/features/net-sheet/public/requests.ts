/**
 * The net-sheet requests, one schema each, shared by the routes and the forms. Kept apart from
 * estimate-request.ts so the quick calculator's islands do not carry the details' schema.
 */
import * as z from 'zod/mini';
import { dollarAmount } from '../amount.ts';
import { estimateRequestSchema, UUID_PATTERN } from './estimate-request.ts';
import { netSheetDetailsSchema } from '../details.ts';
import { offersSchema } from '../offers.ts';

/** POST /api/estimates: the quick request, plus the seller's details for a detailed sheet. */
export const detailedEstimateRequestSchema = z
  .extend(estimateRequestSchema, { details: z.optional(netSheetDetailsSchema) })
  .check(
    z.superRefine((request, ctx) => {
      // Concessions are credits out of the price: more than the price is a slip (newcomer audit M5).
      if ((request.details?.seller_concessions ?? 0) > request.sale_price)
        ctx.addIssue({
          code: 'custom',
          path: ['details', 'seller_concessions'],
          message: 'Seller concessions cannot be more than the sale price',
        });
    }),
  );

/** POST /api/estimates/reverse: the net the seller wants instead of a price. */
export const reverseRequestSchema = z.extend(z.omit(estimateRequestSchema, { sale_price: true }), {
  target_net: dollarAmount('Target net', { minimumDollars: 1 }),
  details: z.optional(netSheetDetailsSchema),
});

const whole = (label: string, min: number, max: number, fallback: number) =>
  z._default(
    z.coerce
      .number({ error: `${label} must be a number` })
      .check(
        z.int(`${label} must be a whole number`),
        z.gte(min, `${label} must be at least ${min}`),
        z.lte(max, `${label} must be at most ${max}`),
      ),
    fallback,
  );

/** GET /api/estimates/{uuid}/range?percent=10&points=41: prices from percent below to percent above. */
export const rangeQuerySchema = z.object({
  percent: whole('Percent', 1, 50, 10),
  points: whole('Points', 3, 81, 41),
});

/** POST /api/offers: two to four offers weighed on one estimate's sheet. */
export const offersRequestSchema = z.strictObject({
  estimate_uuid: z.pipe(
    z.string({ error: 'Estimate is required' }).check(z.regex(UUID_PATTERN, 'Estimate id is not valid')),
    z.transform((uuid) => uuid.toLowerCase()),
  ),
  offers: offersSchema,
});
