/**
 * Cross-site request forgery protection. The session cookie is SameSite=Lax, which already keeps it
 * off cross-site POSTs in current browsers; this check holds also where Lax does not (older
 * browsers, same-site but cross-origin pages). A state-changing request that carries the session
 * cookie must come from the site's own origin:
 *
 * - its `Origin` equals the request's own origin (scheme and host of the URL it was sent to, so the
 *   rule holds on any domain and port) or the configured site origin; or
 * - its `Sec-Fetch-Site` is `same-origin`. Browsers set this header and pages cannot; it also
 *   covers a local proxy that rewrites the Host header (Astro's dev server in `npm run dev`).
 *
 * Anything else is refused with 403 before a handler runs, so nothing changes. Requests without the
 * session cookie (the public forms, login, sign-up) are not affected: without the cookie a forged
 * request acts as nobody.
 */
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { errorResponse, HttpError } from '../../platform/http.ts';
import { SESSION_COOKIE } from './public/sessions.server.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CROSS_SITE_REFUSED = 'Cross-site request refused';

/** Whether `request` comes from its own origin (or one of `trustedOrigins`) by Origin or Sec-Fetch-Site. */
export function isSameOrigin(request: Request, trustedOrigins: readonly string[] = []): boolean {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== 'null') {
    if (origin === new URL(request.url).origin || trustedOrigins.includes(origin)) return true;
  }
  return request.headers.get('sec-fetch-site') === 'same-origin';
}

/** Middleware for /api/*: refuses cross-site state-changing requests that carry the session cookie. */
export function csrfProtection({
  trustedOrigins = [],
}: { trustedOrigins?: readonly string[] } = {}): MiddlewareHandler {
  return async (c, next) => {
    if (
      STATE_CHANGING.has(c.req.method) &&
      getCookie(c, SESSION_COOKIE) !== undefined &&
      !isSameOrigin(c.req.raw, trustedOrigins)
    ) {
      return errorResponse(c, new HttpError(403, CROSS_SITE_REFUSED));
    }
    await next();
  };
}
