import { placeKey } from '../towns/public/place-key.ts';
import { describe, expect, it } from 'vitest';
import { fakeSeries, monthEnds, zhviCsv, zhviCsvText } from '../../../tests/fakes/zillow.ts';
import { allTowns, townBySlug, type Town } from '../towns/public/town-data.ts';
import { DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE, yearOverYearText, zhviMarketRow, zillowSearchUrl } from './zhvi.server.ts';
import { scanZillowCsv, ZillowFileError } from './zillow-scan.server.ts';

function town(slug: string): Town {
  const found = townBySlug(slug);
  if (!found) throw new Error(`no town ${slug}`);
  return found;
}

describe('placeKey', () => {
  it('ignores case, punctuation and spacing', () => {
    expect(placeKey('Bay Shore')).toBe('bay shore');
    expect(placeKey('  BAY-SHORE ')).toBe('bay shore');
    expect(placeKey("King's Park")).toBe(placeKey('Kings Park'));
    expect(placeKey('Hastings-on-Hudson')).toBe('hastings on hudson');
  });

  it('spells out St., Mt. and Sta. the way our town names do', () => {
    expect(placeKey('St. James')).toBe(placeKey('Saint James'));
    expect(placeKey('St James')).toBe('saint james');
    expect(placeKey('Mt. Sinai')).toBe(placeKey('Mount Sinai'));
    expect(placeKey('Port Jefferson Sta.')).toBe(placeKey('Port Jefferson Station'));
    // Only a leading "St" is Saint: "West St" stays a street.
    expect(placeKey('West St')).toBe('west st');
  });

  it('gives each of our towns its own key', () => {
    const keys = new Set(allTowns().map((t) => `${t.county}:${placeKey(t.name)}`));
    expect(keys.size).toBe(allTowns().length);
  });
});

describe('yearOverYearText', () => {
  it('says up, down or about the same, to one decimal', () => {
    expect(yearOverYearText('Bay Shore', 521_000_00, 500_000_00)).toBe(
      'Home values in Bay Shore are up 4.2% over the past year.',
    );
    expect(yearOverYearText('Saint James', 493_500_00, 500_000_00)).toBe(
      'Home values in Saint James are down 1.3% over the past year.',
    );
    expect(yearOverYearText('Merrick', 500_400_00, 500_000_00)).toBe(
      'Home values in Merrick are about the same as a year ago.',
    );
    expect(yearOverYearText('Merrick', 499_600_00, 500_000_00)).toBe(
      'Home values in Merrick are about the same as a year ago.',
    );
    expect(yearOverYearText('Merrick', 500_500_00, 500_000_00)).toBe(
      'Home values in Merrick are up 0.1% over the past year.',
    );
  });

  it('has nothing to say without a value a year before', () => {
    expect(yearOverYearText('Merrick', 500_000_00, null)).toBeNull();
  });
});

describe('zillowSearchUrl', () => {
  it('fills the template with the place as Zillow names it, our slug and the state', () => {
    expect(zillowSearchUrl(DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE, town('bay-shore'), 'Bay Shore')).toBe(
      'https://www.zillow.com/bay-shore-ny/',
    );
    expect(zillowSearchUrl(DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE, town('saint-james'), 'St. James')).toBe(
      'https://www.zillow.com/st-james-ny/',
    );
    expect(zillowSearchUrl('https://example.test/homes/{state}/{slug}', town('saint-james'), 'St. James')).toBe(
      'https://example.test/homes/ny/saint-james',
    );
  });
});

describe('scanZillowCsv', () => {
  const towns = [town('bay-shore'), town('saint-james'), town('merrick')];

  it('keeps the Long Island rows of our towns and drops the rest after their first fields', async () => {
    const text = zhviCsvText({
      towns: [
        { name: 'Bay Shore', county: 'Suffolk' },
        { name: 'St. James', county: 'Suffolk' },
      ],
      months: 30,
      extraRows: 500,
      malformedRows: 4,
    });
    const scan = await scanZillowCsv([text], { towns });
    expect(scan.rowsRead).toBe(506);
    expect(scan.rowsSkipped).toBe(4);
    expect(scan.skipped.map((row) => row.reason)).toEqual([
      expect.stringMatching(/^Bay Shore: 36 columns, the header has 39$/),
      expect.stringMatching(/^St\. James: 40 columns/),
      expect.stringMatching(/^Bay Shore: "n\/a" in column \d{4}-\d{2}-\d{2} is not a number$/),
      expect.stringMatching(/after the closing quote of field 3/),
    ]);
    expect([...scan.matches.keys()].sort()).toEqual(['bay-shore', 'saint-james']);
    expect(scan.unmatchedTowns).toEqual(['merrick']);
    expect(scan.latestPeriod).toBe('2025-09-30');
    const saintJames = scan.matches.get('saint-james');
    expect(saintJames?.regionName).toBe('St. James');
    const series = fakeSeries('St. James', 30);
    const dates = monthEnds(30);
    expect(saintJames?.points).toEqual(series.slice(-24).map((value, index) => ({ value, date: dates[index + 6] })));
    expect(saintJames?.yearAgo).toBe(series[17]);
  });

  it('keeps the last 24 non-empty points and finds the year-ago value by its date, not its position', async () => {
    // 40 months; the last 3 are empty, and so are two in the middle.
    const values: (number | null)[] = Array.from({ length: 40 }, (_, month) => 400_000 + month * 1000.125);
    values[37] = values[38] = values[39] = null;
    values[30] = values[31] = null;
    const text = zhviCsvText({ towns: [{ name: 'Bay Shore', county: 'Suffolk', values }], months: 40 });
    const scan = await scanZillowCsv([text], { towns });
    const dates = monthEnds(40);
    const kept = [...Array(37).keys()].filter((month) => month !== 30 && month !== 31).slice(-24);
    const bayShore = scan.matches.get('bay-shore');
    expect(bayShore?.points).toEqual(kept.map((month) => ({ value: values[month], date: dates[month] })));
    expect(bayShore?.points.at(-1)?.date).toBe(dates[36]);
    expect(bayShore?.yearAgo).toBe(values[24]);

    const row = bayShore && zhviMarketRow(bayShore, DEFAULT_ZILLOW_SEARCH_URL_TEMPLATE);
    expect(row?.typical_home_value_cents).toBe(43_600_450); // 436004.5 dollars, rounded to the cent
    expect(row?.zhvi_range.at(-1)).toEqual({ dataValue: 436_004.5, timePeriodEnd: dates[36] });
    expect(row?.description).toBe('Home values in Bay Shore are up 2.8% over the past year.');
  });

  it('prefers the row of the town’s own county and ignores namesakes elsewhere', async () => {
    const text = zhviCsvText({
      towns: [
        { name: 'Merrick', county: 'Suffolk', values: [1, 2] },
        { name: 'Merrick', county: 'Kings County', values: [5, 6] },
        { name: 'Merrick', county: 'Nassau', values: [3, 4] },
        { name: 'Bay Shore', county: 'Nassau', values: [7, 8] },
      ],
      months: 2,
    });
    const scan = await scanZillowCsv([text], { towns });
    expect(scan.matches.get('merrick')?.points.map((p) => p.value)).toEqual([3, 4]);
    // Only in the other Long Island county: used, as the best there is.
    expect(scan.matches.get('bay-shore')?.points.map((p) => p.value)).toEqual([7, 8]);
    expect(scan.rowsKept).toBe(3);
  });

  it('reports Long Island places that are none of our towns, and a town whose row has no values', async () => {
    const text = zhviCsvText({
      towns: [
        { name: 'Kings Point', county: 'Nassau' },
        { name: 'Merrick', county: 'Nassau', values: [null, null] },
      ],
      months: 2,
    });
    const scan = await scanZillowCsv([text], { towns });
    expect(scan.unmatchedPlaces).toEqual(['Kings Point (Nassau County)']);
    expect(scan.unmatchedTowns).toEqual(['bay-shore', 'saint-james', 'merrick']);
  });

  it('refuses a file that is not a Zillow City file before reading any row', async () => {
    const bad = async (text: string) => scanZillowCsv([text], { towns, originLabel: 'zhvi.csv' });
    await expect(bad('')).rejects.toThrow(new ZillowFileError('zhvi.csv: the file is empty'));
    await expect(bad('RegionID,SizeRank,RegionName\n')).rejects.toThrow(/column 4 is "", expected "RegionType"/);
    await expect(bad('RegionID,SizeRank,RegionName,RegionType,StateName,2024-01-31\n')).rejects.toThrow(
      /Metro- or national-level file/,
    );
    const header = 'RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName';
    await expect(bad(`${header}\n`)).rejects.toThrow(/no date columns/);
    await expect(bad(`${header},2024-02-30\n`)).rejects.toThrow(/"2024-02-30", not a date/);
    await expect(bad(`${header},2024-02-29,2024-01-31\n`)).rejects.toThrow(/not in order/);
    await expect(bad(`${header},"2024-01-31\n`)).rejects.toThrow(ZillowFileError);
  });

  it('accepts CRLF line endings and a byte-order mark', async () => {
    const text =
      '\ufeff' + zhviCsvText({ towns: [{ name: 'Bay Shore', county: 'Suffolk' }], months: 13, newline: '\r\n' });
    const scan = await scanZillowCsv([new TextEncoder().encode(text)], { towns });
    expect(scan.matches.get('bay-shore')?.points).toHaveLength(13);
  });

  it('reads a generated file of realistic width the same in one piece or in small chunks', async () => {
    const lines = [...zhviCsv({ towns: [{ name: 'Bay Shore', county: 'Suffolk' }], extraRows: 50 })];
    const text = lines.join('');
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += 1000) chunks.push(text.slice(at, at + 1000));
    const [whole, pieces] = await Promise.all([scanZillowCsv([text], { towns }), scanZillowCsv(chunks, { towns })]);
    expect(pieces).toEqual(whole);
    expect(whole.rowsRead).toBe(51);
    expect(whole.matches.get('bay-shore')?.points).toHaveLength(24);
  });
});
