/** The origin of the site's own links: SITE_URL when set, else the request's own origin. */
export const siteOriginOf =
  (siteUrl: string | undefined) =>
  (request: Request): string =>
    (siteUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
