import * as z from 'zod';
import { MAX_NAME_LENGTH, UUID_PATTERN } from '../net-sheet/public/estimate-request.ts';
import { personName } from '../forms/public/person-name.ts';

export const MAX_EMAIL_LENGTH = 254;

export const SEND_ESTIMATE_SUCCESS = 'Your estimate has been sent to your email!';

/** The answer (403) when no lead for the estimate with that e-mail was just recorded. */
export const SEND_ESTIMATE_NO_LEAD =
  'We can only send this estimate to the email address just entered in the form for it. Please fill in the form again.';

/** POST /api/email/send-estimate: the estimate page's "Send this to my email". */
export const sendEstimateRequestSchema = z.object({
  estimate_uuid: z.string({ error: 'Estimate id is required' }).regex(UUID_PATTERN, 'Estimate id is not valid'),
  recipient_email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(MAX_EMAIL_LENGTH, 'Email is too long')
    .pipe(z.email('Please enter a valid email address')),
  // The same rule as every lead's name: the name is put into the e-mail the visitor receives.
  recipient_name: personName('Name', MAX_NAME_LENGTH),
});

export type SendEstimateRequest = z.input<typeof sendEstimateRequestSchema>;

export const sendEstimateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  delivery_id: z.number(),
});
