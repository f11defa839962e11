/** Logo height on public pages: 32 px times the admin's scale, kept between 24 and 48. */
export const logoHeight = (scale: number): number => Math.min(48, Math.max(24, Math.round(32 * scale)));

/** The stored logo as an image source: data URLs and paths as they are, bare base64 with its type. */
export const logoSource = (logo: string, type: string): string =>
  logo.startsWith('data:') || logo.startsWith('/') ? logo : `data:image/${type};base64,${logo}`;
