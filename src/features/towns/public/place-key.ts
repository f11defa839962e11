// Abbreviations the feeds use: some only as a name's first word ("St. James", but "West St").
const LEADING_WORDS: Readonly<Record<string, string>> = {
  st: 'saint',
  ste: 'sainte',
  mt: 'mount',
  ft: 'fort',
  pt: 'point',
};
const ANY_WORDS: Readonly<Record<string, string>> = { sta: 'station', hts: 'heights', vlg: 'village', spgs: 'springs' };

/**
 * The key a place name is matched on: case, accents and punctuation ignored, "&" as "and", and
 * the abbreviations Zillow and the census use spelled out ("St. James" = "Saint James",
 * "Mt. Sinai" = "Mount Sinai", "Port Jefferson Sta." = "Port Jefferson Station").
 */
export function placeKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’`]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  return words
    .map((word, index) => (index === 0 ? (LEADING_WORDS[word] ?? word) : (ANY_WORDS[word] ?? word)))
    .join(' ');
}
