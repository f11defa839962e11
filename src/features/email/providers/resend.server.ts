/**
 * Resend (https://resend.com/docs/api-reference/emails/send-email): `POST {RESEND_API_URL}/emails`
 * with `Authorization: Bearer {key}` and a JSON body { from, to, subject, html, text, headers } (headers:
 * custom e-mail headers such as List-Unsubscribe, an object of strings; attachments: an array of
 * { filename, content (base64), content_type }); 200 answers
 * `{ id }`. Errors are JSON `{ statusCode, name, message }` (422 validation_error or
 * missing_required_field, 401 missing_api_key, 403 invalid_api_key, 429 rate_limit_exceeded with
 * Retry-After, 5xx). Each message carries `Idempotency-Key: delivery-{deliveryId}`, so a retry
 * after a lost answer is not sent twice (Resend keeps keys for 24 hours).
 *
 * Called with fetch rather than the `resend` SDK (installed, and fine for other uses): the SDK
 * folds network failures and unreadable answers into one "application_error" without a status,
 * so a retry could not be told from a permanent refusal. A direct call gives the exact status,
 * the Retry-After header, our own time limit and a zod-checked body, matches the Mailgun client,
 * and needs only a base URL to run against tests/fakes/resend.ts.
 */
import * as z from 'zod';
import { parseRetryAfter } from '../../../platform/retry-after.ts';
import { formatAddress, ProviderError, type EmailProvider } from '../public/email.server.ts';
import {
  endpoint,
  isRetryableStatus,
  jsonBody,
  postToProvider,
  safeDetail,
  type HttpClientOptions,
} from '../public/providers/provider-http.server.ts';

export interface ResendOptions extends HttpClientOptions {
  apiKey: string;
}

const successSchema = z.object({ id: z.string().min(1) });
const errorSchema = z.object({
  statusCode: z.number().nullish(),
  name: z.string().nullish(),
  message: z.string().nullish(),
});

export const resendIdempotencyKey = (deliveryId: number): string => `delivery-${deliveryId}`;

export function createResendProvider({ apiKey, baseUrl, ...http }: ResendOptions): EmailProvider {
  const url = endpoint(baseUrl, '/emails');
  return {
    name: 'resend',
    async send(message) {
      const answer = await postToProvider(
        'Resend',
        url,
        {
          headers: {
            Authorization: `Bearer ${apiKey}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': resendIdempotencyKey(message.deliveryId),
          },
          body: JSON.stringify({
            from: formatAddress(message.from),
            to: [formatAddress(message.to)],
            subject: message.subject,
            html: message.html,
            text: message.text,
            headers: message.headers,
            ...(message.attachments?.length
              ? {
                  attachments: message.attachments.map((file) => ({
                    filename: file.filename,
                    content: Buffer.from(file.content).toString('base64'),
                    content_type: file.contentType,
                  })),
                }
              : {}),
          }),
        },
        http,
      );
      if (answer.status >= 200 && answer.status < 300) {
        const parsed = successSchema.safeParse(jsonBody(answer.body));
        // Resend may well have accepted it: trying again with the same idempotency key is safe.
        if (!parsed.success) {
          throw new ProviderError(`Resend answered ${answer.status} without an e-mail id`, {
            retryable: true,
            status: answer.status,
          });
        }
        return { providerMessageId: parsed.data.id };
      }
      const parsed = errorSchema.safeParse(jsonBody(answer.body));
      const name = parsed.success ? (parsed.data.name ?? undefined) : undefined;
      const detail = (parsed.success ? parsed.data.message : undefined) ?? (answer.body || answer.statusText);
      // 409 concurrent_idempotent_requests: the same key is still being processed; ask again later.
      const retryable =
        isRetryableStatus(answer.status) || (answer.status === 409 && name === 'concurrent_idempotent_requests');
      throw new ProviderError(
        `Resend ${answer.status}${name ? ` ${safeDetail(name, [apiKey])}` : ''}: ${safeDetail(detail, [apiKey])}`,
        {
          retryable,
          status: answer.status,
          retryAfterSeconds: retryable ? parseRetryAfter(answer.headers.get('retry-after')) : undefined,
        },
      );
    },
  };
}
