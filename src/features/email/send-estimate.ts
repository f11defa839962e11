import { z } from 'zod';
import { MAX_NAME_LENGTH, UUID_PATTERN } from '../estimate/estimate-request.ts';

export const MAX_EMAIL_LENGTH = 254;

export const SEND_ESTIMATE_SUCCESS = 'Your estimate has been sent to your email!';

/** POST /api/email/send-estimate: the estimate page's "Send this to my email". */
export const sendEstimateRequestSchema = z.object({
  estimate_uuid: z.string({ error: 'Estimate id is required' }).regex(UUID_PATTERN, 'Estimate id is not valid'),
  recipient_email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(MAX_EMAIL_LENGTH, 'Email is too long')
    .pipe(z.email('Please enter a valid email address')),
  recipient_name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`),
});

export type SendEstimateRequest = z.input<typeof sendEstimateRequestSchema>;

export const sendEstimateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  delivery_id: z.number(),
});
