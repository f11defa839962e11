/**
 * The data the fake RESO server holds: the Property record, the fields its metadata knows, and a
 * generator of realistic closed sales across our towns (also used by fixtures and benchmarks).
 */
/** A Property record as the server stores it; fields may hold anything (bad records included). */
export type ResoRecord = Record<string, unknown>;

/** The Property fields this server knows (its metadata); any other name in a query is a 400. */
export const PROPERTY_FIELDS = [
  'ListingKey',
  'ListingId',
  'StandardStatus',
  'CloseDate',
  'ClosePrice',
  'ListPrice',
  'ModificationTimestamp',
  'CountyOrParish',
  'City',
  'StateOrProvince',
  'PostalCode',
  'UnparsedAddress',
  'StreetNumber',
  'StreetName',
  'BedroomsTotal',
  'BathroomsTotalInteger',
  'LivingArea',
  'PropertyType',
  'ListAgentFullName',
  'ListOfficeName',
] as const;
/** The same fields as a set, for the query options that name them. */
export const KNOWN_FIELDS = new Set<string>(PROPERTY_FIELDS);

interface GeneratorTown {
  slug: string;
  name: string;
  county: string;
  zipCodes: readonly string[];
}

export interface GenerateOptions {
  towns: readonly GeneratorTown[];
  /** The moment the feed is read; close dates and modification times are before it. */
  now: Date;
  /** Sales per town. Default 5. */
  perTown?: number;
  /** Close dates spread over this many months before `now`. Default 11 (all inside the window). */
  monthsBack?: number;
  /** PRNG seed. Default 1. */
  seed?: number;
  /** ListingKeys are `{prefix}{n}`. Default 'LK'. */
  keyPrefix?: string;
}

const STREETS = ['Main St', 'Oak Ave', 'Maple Dr', 'Harbor Rd', 'Bayview Ave', 'Elm St', 'Park Pl', 'Ocean Ave'];
const AGENTS = ['Dana Lopez', 'Michael Chen', 'Priya Patel', "Sean O'Brien", 'Rosa Martinez', 'Tom Walsh'];
const OFFICES = ['Harbor Point Realty', 'Coach Realtors', 'Douglas Elliman', 'Signature Premier Properties'];
const TYPES = ['Residential', 'Residential', 'Residential', 'Condominium', 'Multi Family'];

/** mulberry32: small, deterministic. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;

/** One closed sale with every field the site reads, in the feed's own spelling. */
export function closedSale(fields: ResoRecord & { ListingKey: string }): ResoRecord {
  return {
    ListingId: `L${fields.ListingKey}`,
    StandardStatus: 'Closed',
    StateOrProvince: 'NY',
    CloseDate: '2026-01-15',
    ClosePrice: 650_000,
    ListPrice: 659_000,
    ModificationTimestamp: '2026-01-20T15:30:00.000Z',
    CountyOrParish: 'Nassau',
    City: 'Levittown',
    PostalCode: '11756',
    UnparsedAddress: '12 Main St',
    StreetNumber: '12',
    StreetName: 'Main St',
    BedroomsTotal: 3,
    BathroomsTotalInteger: 2,
    LivingArea: 1650,
    PropertyType: 'Residential',
    ListAgentFullName: 'Dana Lopez',
    ListOfficeName: 'Harbor Point Realty',
    ...fields,
  };
}

/**
 * `perTown` closed sales for each town: close dates spread over the last `monthsBack` months,
 * a modification a few days after closing (never after `now`), prices by county, the town's
 * name as City (the feed's "St. James" for Saint James) and its first ZIP.
 */
export function generateClosedSales(options: GenerateOptions): ResoRecord[] {
  const { towns, now, perTown = 5, monthsBack = 11, seed = 1, keyPrefix = 'LK' } = options;
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => {
    const item = list[Math.floor(next() * list.length)];
    if (item === undefined) throw new Error('Nothing to pick from');
    return item;
  };
  const records: ResoRecord[] = [];
  let serial = 0;
  for (const town of towns) {
    for (let index = 0; index < perTown; index += 1) {
      serial += 1;
      const closedAt = now.getTime() - Math.floor(next() * monthsBack * 30.4) * DAY_MS - DAY_MS;
      const closeDate = new Date(closedAt).toISOString().slice(0, 10);
      const modifiedAt = Math.min(now.getTime() - 60_000, closedAt + Math.floor(next() * 10 * DAY_MS));
      const base = town.county === 'Nassau' ? 700_000 : 550_000;
      const number = String(1 + Math.floor(next() * 400));
      const street = pick(STREETS);
      const beds = 2 + Math.floor(next() * 4);
      records.push(
        closedSale({
          ListingKey: `${keyPrefix}${String(serial).padStart(6, '0')}`,
          CloseDate: closeDate,
          ClosePrice: Math.round((base * (0.6 + next() * 1.2)) / 1000) * 1000,
          ListPrice: Math.round((base * (0.6 + next() * 1.2)) / 1000) * 1000,
          ModificationTimestamp: new Date(modifiedAt).toISOString(),
          CountyOrParish: town.county,
          City: town.name === 'Saint James' ? 'St. James' : town.name,
          PostalCode: town.zipCodes[0] ?? '11700',
          UnparsedAddress: `${number} ${street}`,
          StreetNumber: number,
          StreetName: street,
          BedroomsTotal: beds,
          BathroomsTotalInteger: 1 + Math.floor(next() * 3),
          LivingArea: 900 + beds * 300 + Math.floor(next() * 600),
          PropertyType: pick(TYPES),
          ListAgentFullName: pick(AGENTS),
          ListOfficeName: pick(OFFICES),
        }),
      );
    }
  }
  return records;
}
