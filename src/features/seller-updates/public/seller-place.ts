/**
 * Where a seller's home is, for the index their updates are re-priced by (decision 0056): a town of
 * the list when one can be told, else the county alone (its towns' median move), else nothing (the
 * run then skips the seller as having no market data). Pure: the caller reads the estimate's details
 * and the lead; the town list is a parameter so tests can hand in their own.
 */
import { allTowns, COUNTIES, type County, type Town } from '../../towns/public/town-data.ts';

export interface SellerPlaceInput {
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
  from: 'details_town' | 'page_town' | 'address_zip' | 'county' | 'none';
}

const ZIP = /^\d{5}$/;
/** A 5-digit ZIP, optionally ZIP+4, standing alone in an address. */
const ZIP_IN_TEXT = /(?<![\d-])(\d{5})(?:-\d{4})?(?![\d-])/g;
/** The county pages' slugs: a county page says the county, not the town. */
const COUNTY_PAGES: Record<string, County> = { 'nassau-county': 'Nassau', 'suffolk-county': 'Suffolk' };

const countyOf = (value: string | null): County | undefined => COUNTIES.find((county) => county === value);

/** The town a seller typed (name, case-insensitive, or one of its ZIP codes), preferring the named county's. */
function townTyped(typed: string, county: County | undefined, towns: readonly Town[]): Town | undefined {
  const text = typed.trim();
  const name = text.toLowerCase();
  const matches = towns.filter((town) =>
    ZIP.test(text) ? town.zipCodes.includes(text) : town.name.toLowerCase() === name,
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

export function sellerPlace(input: SellerPlaceInput, towns: readonly Town[] = allTowns()): SellerPlace {
  const detailsCounty = countyOf(input.detailsCounty);
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
