/**
 * What the confirmation page (/updates/confirm) and its API share: the request, the answer and the
 * words. Client-safe: the token's signature is checked by the server only.
 */
import * as z from 'zod';

export const CONFIRM_API_PATH = '/api/updates/confirm';

export const INVALID_CONFIRM_LINK =
  'This confirmation link is not valid. Please open the link from the e-mail again, or copy all of it into your browser.';
export const CONFIRM_GONE =
  'These updates no longer exist: the request they belonged to was deleted. You can ask for them again on your agent’s page.';
export const CONFIRM_UNSUBSCRIBED =
  'You unsubscribed from these updates, so they cannot be confirmed. To get them again, tick “Send me a monthly update of my estimated net” on your agent’s page.';
export const CONFIRM_SUPPRESSED =
  'This address is unsubscribed from our e-mails, so we cannot send you updates. Open “Unsubscribe” in any of our e-mails and choose Undo first.';

// A base64url payload ("{id}.{period}.{link}") and a 43-character base64url SHA-256 HMAC.
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{4,60}\.[A-Za-z0-9_-]{43}$/;

export const confirmTokenSchema = z
  .string({ error: INVALID_CONFIRM_LINK })
  .trim()
  .regex(TOKEN_PATTERN, { error: INVALID_CONFIRM_LINK });

export const confirmRequestSchema = z.object({ token: confirmTokenSchema });

/** confirmed: by this request; already_confirmed: before it (a second click, another tab). */
export const confirmResultSchema = z.object({
  success: z.literal(true),
  status: z.enum(['confirmed', 'already_confirmed']),
});
export type ConfirmResult = z.output<typeof confirmResultSchema>;
