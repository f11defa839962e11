/** What the home page shows when the showcase settings cannot be read (the spec's fallback). */
export const SHOWCASE_FALLBACK = {
  priceCents: 780_200_00,
  address: '24 Harbor View Lane, Huntington, NY 11743',
  beds: 3,
  baths: 2,
  sqft: 2543,
} as const;

/** The comma-separated image list of the settings as a clean array. */
export const showcaseImages = (list: string): string[] =>
  list
    .split(',')
    .map((source) => source.trim())
    .filter((source) => source !== '');

export const CAROUSEL_INTERVAL_MS = 6000;
export const PAN_COMPLETE_MS = 5000;

/** The carousel's next slide, wrapping; it only moves with more than one image. */
export const nextSlide = (current: number, count: number): number => (count > 1 ? (current + 1) % count : current);
