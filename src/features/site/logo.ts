/** Logo height on public pages (the spec's §9): 80 px times the admin's scale, kept between 40 and 120. */
export const logoHeight = (scale: number): number => Math.min(120, Math.max(40, Math.round(80 * scale)));

/** The stored logo as an image source: data URLs and paths as they are, bare base64 with its type. */
export const logoSource = (logo: string, type: string): string =>
  logo.startsWith('data:') || logo.startsWith('/') ? logo : `data:image/${type};base64,${logo}`;

/**
 * The admin's screen writes the time to this localStorage key when the logo changes; public pages
 * open in the same browser fetch /api/global/settings again and show it without a reload.
 */
export const LOGO_UPDATED_KEY = 'logo-updated';
