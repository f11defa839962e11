/**
 * Mailgun (https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages):
 * `POST {MAILGUN_API_URL}/v3/{domain}/messages` with HTTP Basic auth (user `api`, the API key as
 * password) and form fields from, to, subject, html, text and `h:{Name}` for each custom header
 * (h:List-Unsubscribe, h:List-Unsubscribe-Post), and one `attachment` file part per attachment (so
 * a message with attachments goes as multipart/form-data, others as a URL-encoded form); 200 answers
 * `{ id: "<…@domain>", message: "Queued. Thank you." }`. Errors: 400 `{ message }` for a bad
 * parameter, 401 "Forbidden" for a bad key, 404 for an unknown domain, 429 when rate limited, 5xx.
 * Mailgun has no idempotency key; the delivery id goes along as the user variable
 * `v:delivery_id`, so it shows in Mailgun's logs and webhooks.
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

export interface MailgunOptions extends HttpClientOptions {
  apiKey: string;
  /** The sending domain configured in Mailgun, e.g. mg.example.com. */
  domain: string;
}

const successSchema = z.object({ id: z.string().min(1), message: z.string().optional() });
// Mailgun answers `{ message }` mostly, `{ Error }` for some auth failures, plain text for others.
const errorSchema = z.object({ message: z.string().optional(), Error: z.string().optional() });

export function createMailgunProvider({ apiKey, domain, baseUrl, ...http }: MailgunOptions): EmailProvider {
  const url = endpoint(baseUrl, `/v3/${encodeURIComponent(domain)}/messages`);
  const credentials = Buffer.from(`api:${apiKey}`, 'utf8').toString('base64');
  const authorization = `Basic ${credentials}`;
  return {
    name: 'mailgun',
    async send(message) {
      const form = new URLSearchParams({
        from: formatAddress(message.from),
        to: formatAddress(message.to),
        subject: message.subject,
        html: message.html,
        text: message.text,
        'v:delivery_id': String(message.deliveryId),
        // Mailgun adds any `h:Name` field to the message as the header Name.
        ...Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [`h:${name}`, value])),
      });
      const attachments = message.attachments ?? [];
      const multipart = new FormData();
      for (const [name, value] of form) multipart.append(name, value);
      for (const file of attachments) {
        multipart.append(
          'attachment',
          new Blob([new Uint8Array(file.content)], { type: file.contentType }),
          file.filename,
        );
      }
      const answer = await postToProvider(
        'Mailgun',
        url,
        attachments.length > 0
          ? { headers: { Authorization: authorization }, body: multipart }
          : {
              headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded' },
              body: form.toString(),
            },
        http,
      );
      if (answer.status >= 200 && answer.status < 300) {
        const parsed = successSchema.safeParse(jsonBody(answer.body));
        if (!parsed.success) {
          throw new ProviderError(`Mailgun answered ${answer.status} without a message id`, {
            retryable: true,
            status: answer.status,
          });
        }
        return { providerMessageId: parsed.data.id };
      }
      const parsed = errorSchema.safeParse(jsonBody(answer.body));
      const detail =
        (parsed.success ? (parsed.data.message ?? parsed.data.Error) : undefined) ?? (answer.body || answer.statusText);
      const retryable = isRetryableStatus(answer.status);
      throw new ProviderError(`Mailgun ${answer.status}: ${safeDetail(detail, [apiKey, credentials])}`, {
        retryable,
        status: answer.status,
        retryAfterSeconds: retryable ? parseRetryAfter(answer.headers.get('retry-after')) : undefined,
      });
    },
  };
}
