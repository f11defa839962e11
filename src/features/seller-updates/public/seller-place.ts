/**
 * Where a seller's home is, for the index their updates are re-priced by (decision 0056): the town
 * or ZIP code the seller typed under the box first (updates_place); else a town of the list when one
 * can be told from the estimate or the lead, else the county alone (its towns' median move). A typed
 * place that names no town, or nothing told at all, is refused by the lead route (PLACE_UNKNOWN,
 * PLACE_MISSING): an update needs a market, and a seller left without one would be skipped silently
 * forever. Pure: the caller reads the estimate's details and the lead; the town list is a parameter
 * so tests can hand in their own.
 */
import { allTowns, COUNTIES, type County, type Town } from '../../towns/public/town-data.ts';

export interface SellerPlaceInput {
  /**
   * The town or ZIP code the seller typed under the box (updates_place): when given, the only clue
   * read, as the seller's own word beats our guesses; only the matched town is kept, never the text.
   */
  typedPlace: string | null;
  /** The estimate's details.town as the seller typed it (a name, or a ZIP code). */
  detailsTown: string | null;
  /** The estimate's details.county. */
  detailsCounty: string | null;
  /** The town slug of the town page the lead was sent from (leads.page_town; county pages too). */
  pageTown: string | null;
  /** The address the seller typed on the lead form. */
  address: string | null;
}

export interface SellerPlace {
  townSlug: string | null;
  county: County | null;
  /** Which clue told it, for tests and for reading a subscription's row. */
  from: 'typed_place' | 'details_town' | 'page_town' | 'address_zip' | 'county' | 'unknown_place' | 'none';
}

/** The lead route's answer (on `updates_place`) to a typed place that names no town of the list. */
export const PLACE_UNKNOWN =
  'We could not find that town on Long Island. Enter its name or ZIP code, e.g. Massapequa or 11758.';
/** The lead route's answer (on `updates_place`) when nothing tells where the home is. */
export const PLACE_MISSING = "Enter your home's town or ZIP code so your updates can follow its market.";

/** A ZIP code alone, ZIP+4 too. */
const ZIP = /^(\d{5})(?:-\d{4})?$/;
/** What people add after a town's name: the state, and its ZIP code ("Massapequa, NY 11758"). */
const STATE_AND_ZIP = /(?: (?:ny|new york))?(?: \d{5}(?:-\d{4})?)?$/;
/** A 5-digit ZIP, optionally ZIP+4, standing alone in an address. */
const ZIP_IN_TEXT = /(?<![\d-])(\d{5})(?:-\d{4})?(?![\d-])/g;
/** The county pages' slugs: a county page says the county, not the town. */
const COUNTY_PAGES: Record<string, County> = { 'nassau-county': 'Nassau', 'suffolk-county': 'Suffolk' };

const countyOf = (value: string | null): County | undefined => COUNTIES.find((county) => county === value);

/**
 * The town a seller typed: one of its ZIP codes, or its name in any case, with or without the state
 * and ZIP after it and the punctuation people add ("st. james, ny"); the named county's first.
 */
function townTyped(typed: string, county: County | undefined, towns: readonly Town[]): Town | undefined {
  const text = typed.trim();
  const zip = ZIP.exec(text)?.[1];
  const name = text.toLowerCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim().replace(STATE_AND_ZIP, '');
  const matches = towns.filter((town) =>
    zip ? town.zipCodes.includes(zip) : name !== '' && town.name.toLowerCase() === name,
  );
  return matches.find((town) => town.county === county) ?? matches[0];
}

/** The town of the last ZIP code in an address that is one of a town's (a house number may look like one). */
function townOfAddress(address: string, towns: readonly Town[]): Town | undefined {
  const zips = [...address.matchAll(ZIP_IN_TEXT)].map((match) => match[1]).reverse();
  for (const zip of zips) {
    const town = towns.find((candidate) => zip !== undefined && candidate.zipCodes.includes(zip));
    if (town) return town;
  }
  return undefined;
}

/** Whether a typed place names a town of the list (the lead route's check before anything is read). */
export const namesTown = (typed: string, towns: readonly Town[] = allTowns()): boolean =>
  townTyped(typed, undefined, towns) !== undefined;

export function sellerPlace(input: SellerPlaceInput, towns: readonly Town[] = allTowns()): SellerPlace {
  const detailsCounty = countyOf(input.detailsCounty);
  if (input.typedPlace !== null && input.typedPlace.trim() !== '') {
    const told = townTyped(input.typedPlace, detailsCounty, towns);
    return told
      ? { townSlug: told.slug, county: told.county, from: 'typed_place' }
      : { townSlug: null, county: null, from: 'unknown_place' };
  }
  const typed = input.detailsTown ? townTyped(input.detailsTown, detailsCounty, towns) : undefined;
  if (typed) return { townSlug: typed.slug, county: typed.county, from: 'details_town' };
  const paged = input.pageTown ? towns.find((town) => town.slug === input.pageTown) : undefined;
  if (paged) return { townSlug: paged.slug, county: paged.county, from: 'page_town' };
  const addressed = input.address ? townOfAddress(input.address, towns) : undefined;
  if (addressed) return { townSlug: addressed.slug, county: addressed.county, from: 'address_zip' };
  const county = detailsCounty ?? (input.pageTown ? COUNTY_PAGES[input.pageTown] : undefined);
  if (county) return { townSlug: null, county, from: 'county' };
  return { townSlug: null, county: null, from: 'none' };
}
