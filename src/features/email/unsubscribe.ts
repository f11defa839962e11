/**
 * What the unsubscribe page and the unsubscribe API share: the token's shape, the request schema
 * and the words the page shows. The token is `base64url(lower-cased e-mail) "." base64url(HMAC)`;
 * only the server can check the HMAC (unsubscribe.server.ts), but anyone holding the link may
 * read the address, so the page can say which address it is about before the visitor clicks.
 */
import * as z from 'zod';

/** The page an e-mail's footer links to; the API path is what List-Unsubscribe names. */
export const UNSUBSCRIBE_PAGE_PATH = '/unsubscribe';
export const UNSUBSCRIBE_API_PATH = '/api/email/unsubscribe';

export const INVALID_UNSUBSCRIBE_LINK =
  'This unsubscribe link is not valid. Please open the link from the e-mail again, or copy all of it into your browser.';

// 43 characters: a base64url SHA-256 HMAC without padding.
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{4,400})\.([A-Za-z0-9_-]{43})$/;

export const unsubscribeTokenSchema = z
  .string({ error: INVALID_UNSUBSCRIBE_LINK })
  .trim()
  .regex(TOKEN_PATTERN, { error: INVALID_UNSUBSCRIBE_LINK });

/** The page's POST (unsubscribe) and DELETE (undo) body. */
export const unsubscribeRequestSchema = z.object({ token: unsubscribeTokenSchema });

/** The API's answer to both. */
export const unsubscribeResultSchema = z.object({
  success: z.literal(true),
  email: z.string(),
  subscribed: z.boolean(),
});

/** The address a token names, unverified (for display; the server checks the signature). */
export function emailInToken(token: string): string | null {
  const payload = TOKEN_PATTERN.exec(token.trim())?.[1];
  if (payload === undefined) return null;
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const email = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    return email.includes('@') ? email : null;
  } catch {
    return null;
  }
}

/** What stops and what still comes, in the words of the page and the privacy policy. */
export const WHAT_STOPS =
  'We will no longer e-mail you lead notices, monthly updates of your estimated net, or any other message you did not ask for.';
/** Unsubscribing ends the address's monthly updates for good (issue 25): an Undo does not restart them. */
export const UPDATES_STAY_ENDED =
  'Monthly updates of your estimated net stay ended: to get them again, tick the box for them on your agent’s page.';
export const WHAT_STILL_COMES =
  'E-mail you ask for still comes: an estimate you request, and account e-mails such as a verification or password-reset link.';
