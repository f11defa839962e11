/** "1 bed", "3 beds", "1.5 baths": a count and its noun, singular only for exactly one. */
export const countOf = (count: number, noun: string): string =>
  `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;

export const bedsText = (beds: number): string => countOf(beds, 'bed');
export const bathsText = (baths: number): string => countOf(baths, 'bath');
export const sqftText = (sqft: number): string => `${sqft.toLocaleString('en-US')} sqft`;

/** A home's size as one line, "3 beds · 1 bath · 2,543 sqft", leaving out what is not known. */
export function homeFactsLine(home: { beds: number | null; baths: number | null; sqft: number | null }): string {
  return [
    home.beds === null ? null : bedsText(home.beds),
    home.baths === null ? null : bathsText(home.baths),
    home.sqft === null ? null : sqftText(home.sqft),
  ]
    .filter((fact) => fact !== null)
    .join(' · ');
}
