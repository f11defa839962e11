/**
 * The county of a town or ZIP code, from the town list. Apart from details.ts so the islands that
 * only validate details (offers, reverse) do not carry the town list (about 160 KB).
 */
import { onFirstUse } from '../../ui/on-first-use.ts';
import { allTowns, type County } from '../towns/public/town-data.ts';

/** The town names the refine form offers, sorted. */
export const townNames = onFirstUse(() => [...new Set(allTowns().map((town) => town.name))].sort());

/** The town a seller typed, by name or by one of its ZIP codes (a ZIP becomes the town's name). */
export function placeFor(typed: string): { town: string; county: County } | undefined {
  const text = typed.trim();
  const zip = /^\d{5}$/.test(text) ? text : undefined;
  const name = text.toLowerCase();
  const match = allTowns().find((candidate) =>
    zip ? candidate.zipCodes.includes(zip) : candidate.name.toLowerCase() === name,
  );
  return match ? { town: zip ? match.name : typed, county: match.county } : undefined;
}

/**
 * The town an estimate's link carries (`?town=Montauk`, added when the estimate was made on that town's
 * page), for the refine form of a quick estimate: only a town of the list counts.
 */
export function placeFromLink(search: string): { town: string; county: County } | undefined {
  const typed = new URLSearchParams(search).get('town');
  return typed ? placeFor(typed) : undefined;
}
