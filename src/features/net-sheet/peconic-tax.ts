/**
 * The buyer's Peconic Bay taxes on the East End, as the amount the sheet's note states (decision 0041;
 * research: docs/research/east-end-peconic-bay-tax.md). Not a seller line: the buyer pays them, but
 * they weigh in negotiations. The rates and the exemptions are read from the fee table in force.
 */
import type { FeeTable } from './fee-table-schema.ts';
import type { FeeKey } from './li-fees.ts';

export type PeconicTown = 'East Hampton' | 'Riverhead' | 'Shelter Island' | 'Southampton' | 'Southold';

/** Each town's exemptions (fee-table keys) and whether it adopted the 0.5 % Community Housing Fund tax. */
const TOWN_RULES: Record<PeconicTown, { improved: FeeKey; vacant: FeeKey; housingFund: boolean }> = {
  'East Hampton': {
    improved: 'peconic_exemption_improved_south_fork',
    vacant: 'peconic_exemption_vacant_south_fork',
    housingFund: true,
  },
  'Shelter Island': {
    improved: 'peconic_exemption_improved_south_fork',
    vacant: 'peconic_exemption_vacant_south_fork',
    housingFund: true,
  },
  Southampton: {
    improved: 'peconic_exemption_improved_south_fork',
    vacant: 'peconic_exemption_vacant_south_fork',
    housingFund: true,
  },
  Southold: {
    improved: 'peconic_exemption_improved_southold',
    vacant: 'peconic_exemption_vacant_southold',
    housingFund: true,
  },
  Riverhead: {
    improved: 'peconic_exemption_improved_riverhead',
    vacant: 'peconic_exemption_vacant_riverhead',
    housingFund: false,
  },
};

/**
 * The incorporated villages and hamlets (census places) inside the five towns, by the town that taxes
 * them. A place split with Brookhaven, where there is no Peconic tax, is listed under the Peconic town
 * holding most of it and the note says so; Manorville, mostly in Brookhaven, is not listed.
 */
const PLACES: Record<PeconicTown, readonly string[]> = {
  'East Hampton': [
    'Amagansett',
    'East Hampton North',
    'Montauk',
    'Napeague',
    'Northwest Harbor',
    'Springs',
    'Wainscott',
  ],
  Southampton: [
    'Bridgehampton',
    'East Quogue',
    'Eastport',
    'Flanders',
    'Hampton Bays',
    'North Haven',
    'North Sea',
    'Northampton',
    'Noyack',
    'Quiogue',
    'Quogue',
    'Remsenburg',
    'Remsenburg-Speonk',
    'Riverside',
    'Sag Harbor',
    'Sagaponack',
    'Shinnecock Hills',
    'Speonk',
    'Tuckahoe',
    'Water Mill',
    'West Hampton Dunes',
    'Westhampton',
    'Westhampton Beach',
  ],
  'Shelter Island': ['Dering Harbor', 'Shelter Island Heights'],
  Southold: [
    'Cutchogue',
    'East Marion',
    'Fishers Island',
    'Greenport',
    'Greenport West',
    'Laurel',
    'Mattituck',
    'New Suffolk',
    'Orient',
    'Peconic',
  ],
  Riverhead: ['Aquebogue', 'Baiting Hollow', 'Calverton', 'Jamesport', 'Northville', 'Wading River'],
};

/** What the note adds for a place that is not wholly in one Peconic town. */
const PLACE_CAVEATS: Readonly<Record<string, string>> = {
  'sag harbor':
    'Sag Harbor straddles East Hampton and Southampton, which tax alike, so the figure is the same on either side.',
  'wading river': 'Part of Wading River is in Brookhaven, where there is no Peconic Bay tax.',
  eastport: 'Part of Eastport is in Brookhaven, where there is no Peconic Bay tax.',
  laurel: 'Part of Laurel is in Riverhead, where the exemption is $150,000 and there is no housing fund tax.',
};

/** "Montauk, NY", " montauk ", "MONTAUK  NY 11954": the place's name, lower-cased with single spaces. */
export function placeKey(typed: string): string {
  return typed
    .toLowerCase()
    .replace(/\b\d{5}(-\d{4})?\b/g, ' ')
    .replace(/[,.]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s(ny|new york)$/, '')
    .replace(/^(town|village|hamlet) of /, '')
    .trim();
}

const TOWN_OF_PLACE: ReadonlyMap<string, PeconicTown> = new Map(
  Object.entries(PLACES).flatMap(([town, places]) => {
    const peconic = Object.keys(TOWN_RULES).find((name): name is PeconicTown => name === town);
    return peconic ? [[placeKey(town), peconic], ...places.map((place) => [placeKey(place), peconic] as const)] : [];
  }),
);

/** The Peconic town a seller's town, village or hamlet is in (undefined outside the five towns). */
export function peconicTownOf(typed: string | undefined): PeconicTown | undefined {
  return typed === undefined ? undefined : TOWN_OF_PLACE.get(placeKey(typed));
}

export interface PeconicTax {
  town: PeconicTown;
  exemptionCents: number;
  taxableCents: number;
  /** The 2 % Community Preservation Fund tax and the 0.5 % Community Housing Fund tax (0 in Riverhead). */
  preservationCents: number;
  housingCents: number;
  totalCents: number;
  preservationPercent: number;
  housingPercent: number;
  /** True when the price is over the ceiling in a housing-fund town: the whole price is taxed. */
  noExemption: boolean;
  caveat?: string;
}

/** A percent of cents, rounded half-up to the cent; exact for a rate of up to 4 decimals. */
function percentOf(cents: number, percent: number): number {
  const tenThousandths = BigInt(Math.round(percent * 10_000));
  const scaled = BigInt(cents) * tenThousandths;
  const divisor = 1_000_000n;
  return Number((2n * scaled + divisor) / (2n * divisor));
}

/**
 * The buyer's tax at a price in a place, or undefined outside the Peconic Bay region. Improved
 * property unless `vacant`. In the four towns with the housing fund a price above the ceiling has no
 * exemption; Riverhead keeps its own exemptions at every price (research §2).
 */
export function peconicTax(
  priceCents: number,
  place: string | undefined,
  vacant: boolean,
  fees: FeeTable,
): PeconicTax | undefined {
  const town = peconicTownOf(place);
  if (!town) return undefined;
  const rules = TOWN_RULES[town];
  const noExemption = rules.housingFund && priceCents > fees.peconic_exemption_ceiling.cents;
  const exemptionCents = noExemption ? 0 : fees[vacant ? rules.vacant : rules.improved].cents;
  const taxableCents = Math.max(priceCents - exemptionCents, 0);
  const preservationPercent = fees.peconic_cpf_rate.percent;
  const housingPercent = rules.housingFund ? fees.peconic_chf_rate.percent : 0;
  const preservationCents = percentOf(taxableCents, preservationPercent);
  const housingCents = percentOf(taxableCents, housingPercent);
  const caveat = place === undefined ? undefined : PLACE_CAVEATS[placeKey(place)];
  return {
    town,
    exemptionCents,
    taxableCents,
    preservationCents,
    housingCents,
    totalCents: preservationCents + housingCents,
    preservationPercent,
    housingPercent,
    noExemption,
    ...(caveat ? { caveat } : {}),
  };
}
