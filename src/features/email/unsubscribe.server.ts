/**
 * Unsubscribe links and the suppression list. A link's token is the lower-cased address and an
 * HMAC-SHA256 of it, keyed by a key derived from SESSION_SECRET: it needs no account and no
 * stored state, cannot be forged for another address, and never expires (a link in an old e-mail
 * must keep working). `POST /api/email/unsubscribe` records the address in email_suppressions;
 * deliverQueued then stops NOTICE_KINDS to it (see email.server.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import * as z from 'zod';
import type { Queryable } from '../../platform/db.ts';
import { HttpError, MAX_JSON_BYTES, parseOrThrow, readJson } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';
import { enforceRateLimits } from '../../platform/rate-limit.server.ts';
import { LEAD_LIMITS } from '../lead-origin/public/lead-limits.server.ts';
import type { UnsubscribeLinks } from './public/email.server.ts';
import {
  INVALID_UNSUBSCRIBE_LINK,
  UNSUBSCRIBE_API_PATH,
  UNSUBSCRIBE_PAGE_PATH,
  unsubscribeRequestSchema,
  unsubscribeResultSchema,
} from './unsubscribe.ts';

export interface UnsubscribeSigner {
  token(email: string): string;
  /** The address a token was made for, or null when it was not made with this key. */
  emailOf(token: string): string | null;
}

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

/**
 * Signs with a key of its own derived from the session key, so an unsubscribe token can never
 * serve as (or reveal anything about) a session signature.
 */
export function unsubscribeSigner(sessionKey: Uint8Array): UnsubscribeSigner {
  const key = createHmac('sha256', sessionKey).update('unsubscribe-link/v1').digest();
  const mac = (payload: string): Buffer => createHmac('sha256', key).update(payload).digest();
  return {
    token(email) {
      const payload = base64url(Buffer.from(email.trim().toLowerCase(), 'utf8'));
      return `${payload}.${base64url(mac(payload))}`;
    },
    emailOf(token) {
      const [payload, signature, extra] = token.split('.');
      if (!payload || !signature || extra !== undefined) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return Buffer.from(payload, 'base64url').toString('utf8');
    },
  };
}

/** The page link for an e-mail's footer and the one-click URL for its List-Unsubscribe header. */
export function unsubscribeLinks(siteUrl: string, signer: UnsubscribeSigner): UnsubscribeLinks {
  const origin = siteUrl.replace(/\/+$/, '');
  return (email) => {
    const query = `?token=${encodeURIComponent(signer.token(email))}`;
    return { page: `${origin}${UNSUBSCRIBE_PAGE_PATH}${query}`, oneClick: `${origin}${UNSUBSCRIBE_API_PATH}${query}` };
  };
}

/** RFC 8058: a mail client's one-click unsubscribe POSTs exactly this form field. */
export const oneClickBodySchema = z.object({
  'List-Unsubscribe': z.literal('One-Click', { error: 'Send List-Unsubscribe=One-Click as the form body' }),
});

const JSON_TYPE = /^application\/json\b/i;

/**
 * The token and how it came: the page sends JSON `{ token }`; a mail client (RFC 8058) sends the
 * token in the URL of the List-Unsubscribe header and `List-Unsubscribe=One-Click` as a form,
 * with no cookie and no Origin (so the CSRF check, which only guards cookie-bearing requests,
 * lets it through).
 */
async function readUnsubscribe(c: Context): Promise<{ token: string; method: 'page' | 'one_click' }> {
  if (JSON_TYPE.test(c.req.header('content-type') ?? '')) {
    return { ...(await readJson(c, unsubscribeRequestSchema)), method: 'page' };
  }
  const { token } = parseOrThrow(unsubscribeRequestSchema, { token: c.req.query('token') });
  if (Number(c.req.header('content-length') ?? 0) > MAX_JSON_BYTES) {
    throw new HttpError(413, `The request body is larger than ${MAX_JSON_BYTES / 1024} KB`);
  }
  parseOrThrow(oneClickBodySchema, await c.req.parseBody());
  return { token, method: 'one_click' };
}

/** What the unsubscribe routes are built from (src/app/api-groups.server.ts). */
export interface UnsubscribeRoutesDeps {
  db: Queryable;
  signer: UnsubscribeSigner;
  clientIp: (c: Context) => string;
}

function unsubscribeSetup({ db, signer, clientIp }: UnsubscribeRoutesDeps) {
  /** POST and DELETE share one per-IP counter (a round trip more for a client with an address of its own). */
  const perIp = (c: Context) =>
    enforceRateLimits(db, perIpCheck(clientIp(c), LEAD_LIMITS.unsubscribePerIp, 'unsubscribe'));
  const emailOrThrow = (token: string): string => {
    const email = signer.emailOf(token);
    if (email === null) throw new HttpError(400, INVALID_UNSUBSCRIBE_LINK, { token: INVALID_UNSUBSCRIBE_LINK });
    return email;
  };
  return { db, perIp, emailOrThrow };
}

/**
 * POST unsubscribes (idempotent: the first time and way are kept); DELETE is the page's "Undo".
 * One round trip each. GET (a mail client or person opening the List-Unsubscribe URL) only
 * leads to the page: link scanners fetch e-mailed URLs, and that must not unsubscribe anybody.
 */
export const unsubscribeApi = apiGroup(unsubscribeSetup, (op) => [
  op({
    method: 'GET',
    path: '/api/email/unsubscribe',
    access: 'public',
    summary: 'Leads to the unsubscribe page (`?token=`); never unsubscribes (link scanners open it)',
    tag: 'E-mail',
    success: { status: 303, description: 'A redirect to /unsubscribe?token=…' },
    handler: (c) => {
      const token = c.req.query('token') ?? '';
      return c.redirect(`${UNSUBSCRIBE_PAGE_PATH}?token=${encodeURIComponent(token)}`, 303);
    },
  }),
  op({
    method: 'POST',
    path: '/api/email/unsubscribe',
    access: 'public',
    summary:
      "Unsubscribes the token's address from lead notices and ends its seller updates (RFC 8058 one-click, or the page's JSON)",
    tag: 'E-mail',
    body: {
      'application/json': { schemas: [unsubscribeRequestSchema] },
      'application/x-www-form-urlencoded': {
        schemas: [oneClickBodySchema],
        description: "A mail client's one-click post: the token in the URL's `?token=`",
      },
    },
    checksType: false,
    success: ok('Unsubscribed', unsubscribeResultSchema),
    handler: async (c, { db, perIp, emailOrThrow }) => {
      const { token, method } = await readUnsubscribe(c);
      const email = emailOrThrow(token);
      await perIp(c);
      // One statement: the address is suppressed and its seller updates (issue 25) end with it.
      await db.query(
        `WITH suppressed AS (
           INSERT INTO email_suppressions (email, method) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING RETURNING email
         )
         UPDATE seller_updates
            SET state = 'unsubscribed', ended_reason = 'link', ended_at = now(), next_due_at = NULL
          WHERE email = lower($1) AND state <> 'unsubscribed'`,
        [email, method],
      );
      return c.json({ success: true, email, subscribed: false });
    },
  }),
  op({
    method: 'DELETE',
    path: '/api/email/unsubscribe',
    access: 'public',
    summary: 'Undoes an unsubscribe',
    tag: 'E-mail',
    json: unsubscribeRequestSchema,
    success: ok('Subscribed again', unsubscribeResultSchema),
    handler: async (c, { db, perIp, emailOrThrow }, input) => {
      const { token } = await input.body();
      const email = emailOrThrow(token);
      await perIp(c);
      await db.query('DELETE FROM email_suppressions WHERE email = $1', [email]);
      return c.json({ success: true, email, subscribed: true });
    },
  }),
]);
