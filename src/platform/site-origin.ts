/** The origin of the site's own links: SITE_URL when set, else the request's own origin. */
export const siteOriginOf =
  (siteUrl: string | undefined) =>
  (request: Request): string =>
    (siteUrl ?? new URL(request.url).origin).replace(/\/+$/, '');

/**
 * The origin a local server on `host`:`port` announces, and the site's own origin when SITE_URL and
 * Netlify's URL are unset: one function for both, so a link in an e-mail opens the address the
 * server printed (newcomer audit minor 33: e-mails said http://localhost:4411 while the server
 * printed http://127.0.0.1:4411, and a session cookie of one origin is not sent to the other).
 * Every interface (0.0.0.0, ::) is reached on this machine as localhost.
 */
export function localOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
