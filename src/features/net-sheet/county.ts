/**
 * The county of a town or ZIP code, from the town list. Apart from details.ts so the islands that
 * only validate details (offers, reverse) do not carry the town list (about 160 KB).
 */
import { TOWNS, type County } from '../towns/town-data.ts';

/** The town names the refine form offers, sorted. */
export const TOWN_NAMES = [...new Set(TOWNS.map((town) => town.name))].sort();

/** The county of a town (by name) or a ZIP code, from the town list; undefined when neither is known. */
export function countyFor({ town, zip }: { town?: string; zip?: string }): County | undefined {
  const name = town?.trim().toLowerCase();
  const match = TOWNS.find(
    (candidate) => (name && candidate.name.toLowerCase() === name) || (zip && candidate.zipCodes.includes(zip)),
  );
  return match?.county;
}
