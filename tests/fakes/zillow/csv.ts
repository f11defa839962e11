/**
 * The generator of the fake Zillow host's files: the real layout of the City ZHVI file
 * (`RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName,2000-01-31,…`,
 * one column per month-end, empty cells before a place's series starts, Metro quoted when it holds
 * a comma, rows sorted by SizeRank, most of them outside New York), lazily, one line at a time, so
 * tests use it for small files and the benchmark for files of hundreds of MB.
 */
import { fakeSeries, monthEnds, random } from './series.ts';

export const ZILLOW_HEADER_COLUMNS = [
  'RegionID',
  'SizeRank',
  'RegionName',
  'RegionType',
  'StateName',
  'State',
  'City',
  'Metro',
  'CountyName',
] as const;

const LONG_ISLAND_METRO = 'New York-Newark-Jersey City, NY-NJ-PA';

/** One place row of a generated file. */
export interface FakePlace {
  /** RegionName as Zillow writes it ("St. James"). */
  name: string;
  /** 'Nassau' and 'Suffolk' become "Nassau County"/"Suffolk County"; anything else is written as is. */
  county: string;
  /** Default 'NY'. */
  state?: string;
  /**
   * The monthly values, aligned to the LAST month (a shorter list leaves the first months empty);
   * null is an empty cell, a string is written as is. Default: {@link fakeSeries}.
   */
  values?: readonly (number | string | null)[];
}

export interface ZhviCsvOptions {
  /** Long Island (or any) places to include, spread through the file. */
  towns?: readonly FakePlace[];
  /** Month columns (default 300, ending at `lastPeriod`). */
  months?: number;
  /** The last month-end column (default '2025-09-30'). */
  lastPeriod?: string;
  /** Other places (about 97% outside New York, a few elsewhere in NY and on Long Island). */
  extraRows?: number;
  /**
   * Broken rows named after `towns` (or Bay Shore), cycling through: too few columns, too many
   * columns, a value that is not a number, text after a closing quote. An importer skips each.
   */
  malformedRows?: number;
  /** Varies the other places (default 1). */
  seed?: number;
  /** Default '\n'. */
  newline?: '\n' | '\r\n';
  /** Whole numbers (an inventory file) instead of ZHVI-like dollar values with decimals. */
  integers?: boolean;
}

const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

const OTHER_STATES = [
  ['CA', 'Los Angeles County', 'Los Angeles-Long Beach-Anaheim, CA'],
  ['TX', 'Harris County', 'Houston-The Woodlands-Sugar Land, TX'],
  ['TX', 'Dallas County', 'Dallas-Fort Worth-Arlington, TX'],
  ['FL', 'Miami-Dade County', 'Miami-Fort Lauderdale-Pompano Beach, FL'],
  ['IL', 'Cook County', 'Chicago-Naperville-Elgin, IL-IN-WI'],
  ['PA', 'Allegheny County', 'Pittsburgh, PA'],
  ['OH', 'Franklin County', 'Columbus, OH'],
  ['GA', 'Fulton County', 'Atlanta-Sandy Springs-Alpharetta, GA'],
  ['NC', 'Wake County', 'Raleigh-Cary, NC'],
  ['MI', 'Wayne County', 'Detroit-Warren-Dearborn, MI'],
  ['NJ', 'Bergen County', LONG_ISLAND_METRO],
  ['WA', 'King County', 'Seattle-Tacoma-Bellevue, WA'],
  ['AZ', 'Maricopa County', 'Phoenix-Mesa-Chandler, AZ'],
  ['IA', 'Adair County', ''],
  ['KS', 'Cheyenne County', ''],
] as const;
const OTHER_NEW_YORK = [
  ['Westchester County', LONG_ISLAND_METRO],
  ['Erie County', 'Buffalo-Cheektowaga, NY'],
  ['Monroe County', 'Rochester, NY'],
  ['Queens County', LONG_ISLAND_METRO],
] as const;
/** Long Island places that are none of the site's towns, and our towns' names in other states. */
const LONG_ISLAND_OTHERS = ['Atlantic Beach', 'Kings Point', 'Lloyd Harbor', 'Head of the Harbor', 'Flower Hill'];
const NAMESAKES = [
  ['Huntington', 'WV', 'Cabell County'],
  ['Freeport', 'IL', 'Stephenson County'],
  ['Bay Shore', 'MI', 'Charlevoix County'],
  ['Saint James', 'MO', 'Phelps County'],
  ['Oceanside', 'CA', 'San Diego County'],
] as const;
const SYLLABLES = ['ash', 'bel', 'cor', 'dale', 'elm', 'fair', 'glen', 'hol', 'ing', 'lan', 'mor', 'ville', 'ton'];

interface Row {
  name: string;
  state: string;
  county: string;
  metro: string;
  values: readonly (number | string | null)[];
}

function extraRow(index: number, seed: number, months: number, integers: boolean): Row {
  const next = random(seed * 1_000_003 + index);
  const pick = next();
  const name = `${SYLLABLES[Math.floor(next() * SYLLABLES.length)] ?? 'a'}${SYLLABLES[Math.floor(next() * SYLLABLES.length)] ?? 'b'} ${index}`;
  // Most places start with the file; some only later (empty cells first), as in Zillow's file.
  const start = next() < 0.6 ? 0 : Math.floor(next() * months * 0.8);
  const series = fakeSeries(`${seed}:${index}`, months, integers);
  const values = series.map((value, month) => (month < start ? null : value));
  if (pick < 0.002) {
    const place = LONG_ISLAND_OTHERS[index % LONG_ISLAND_OTHERS.length] ?? 'Atlantic Beach';
    return {
      name: place,
      state: 'NY',
      county: index % 2 ? 'Nassau County' : 'Suffolk County',
      metro: LONG_ISLAND_METRO,
      values,
    };
  }
  if (pick < 0.004) {
    const [place, state, county] = NAMESAKES[index % NAMESAKES.length] ?? NAMESAKES[0];
    return { name: place, state, county, metro: '', values };
  }
  if (pick < 0.03) {
    const [county, metro] = OTHER_NEW_YORK[index % OTHER_NEW_YORK.length] ?? OTHER_NEW_YORK[0];
    return { name, state: 'NY', county, metro, values };
  }
  const [state, county, metro] = OTHER_STATES[index % OTHER_STATES.length] ?? OTHER_STATES[0];
  return { name, state, county, metro, values };
}

function formatValue(value: number | string | null, integers: boolean): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  return integers ? String(Math.round(value)) : String(value);
}

function rowLine(row: Row, rank: number, months: number, integers: boolean): string {
  const padding = Math.max(0, months - row.values.length);
  const cells: string[] = [];
  for (let month = 0; month < months; month += 1) {
    cells.push(month < padding ? '' : formatValue(row.values[month - padding] ?? null, integers));
  }
  const county = row.county === 'Nassau' || row.county === 'Suffolk' ? `${row.county} County` : row.county;
  return [
    String(90_000 + rank * 7),
    String(rank),
    csvField(row.name),
    'city',
    row.state,
    row.state,
    csvField(row.name),
    csvField(row.metro),
    csvField(county),
    ...cells,
  ].join(',');
}

function malformedLine(kind: number, place: FakePlace, rank: number, months: number, integers: boolean): string {
  const row: Row = {
    name: place.name,
    state: place.state ?? 'NY',
    county: place.county,
    metro: LONG_ISLAND_METRO,
    values: fakeSeries(`malformed:${place.name}`, months, integers),
  };
  const line = rowLine(row, rank, months, integers);
  switch (kind % 4) {
    case 0: // too few columns
      return line.split(',').slice(0, -3).join(',');
    case 1: // too many columns
      return `${line},123.45`;
    case 2: {
      // a value that is not a number, in the middle of the series
      const fields = line.split(',');
      fields[fields.length - 5] = 'n/a';
      return fields.join(',');
    }
    default: // text after a closing quote
      return line.replace(`,${csvField(place.name)},`, `,"${place.name}"x,`);
  }
}

/**
 * The lines of a file in the ZHVI City layout, each with its line ending, header first. Lazy: a
 * file of any size is generated as it is consumed.
 */
export function* zhviCsv(options: ZhviCsvOptions = {}): Generator<string, void, undefined> {
  const months = options.months ?? 300;
  const newline = options.newline ?? '\n';
  const integers = options.integers ?? false;
  const towns = options.towns ?? [];
  const extraRows = options.extraRows ?? 0;
  const malformedRows = options.malformedRows ?? 0;
  const seed = options.seed ?? 1;
  const total = towns.length + extraRows + malformedRows;

  // Where our rows go: spread evenly through the file, a malformed row never on a town's line.
  const special = new Map<number, { town: FakePlace } | { malformed: number }>();
  const place = (at: number, row: { town: FakePlace } | { malformed: number }) => {
    let index = Math.min(total - 1, Math.max(0, at));
    while (special.has(index)) index = (index + 1) % total;
    special.set(index, row);
  };
  towns.forEach((town, index) => place(Math.floor(((index + 0.5) * total) / towns.length), { town }));
  for (let index = 0; index < malformedRows; index += 1) {
    place(Math.floor(((index + 0.25) * total) / malformedRows), { malformed: index });
  }

  yield [...ZILLOW_HEADER_COLUMNS, ...monthEnds(months, options.lastPeriod)].join(',') + newline;
  let extra = 0;
  for (let rank = 0; rank < total; rank += 1) {
    const row = special.get(rank);
    if (row && 'town' in row) {
      const { town } = row;
      const values = town.values ?? fakeSeries(town.name, months, integers);
      yield (
        rowLine(
          { name: town.name, state: town.state ?? 'NY', county: town.county, metro: LONG_ISLAND_METRO, values },
          rank,
          months,
          integers,
        ) + newline
      );
    } else if (row) {
      const named = towns[row.malformed % Math.max(1, towns.length)] ?? { name: 'Bay Shore', county: 'Suffolk' };
      yield malformedLine(row.malformed, named, rank, months, integers) + newline;
    } else {
      yield rowLine(extraRow(extra, seed, months, integers), rank, months, integers) + newline;
      extra += 1;
    }
  }
}

/** The whole generated file as one string (small files, for tests). */
export const zhviCsvText = (options: ZhviCsvOptions = {}): string => [...zhviCsv(options)].join('');
