import { describe, expect, it } from 'vitest';
import { runFailureWords, shownOrigin, updatedTownsWords } from './run-words.ts';

describe('how a market-data run is told to the admin (minor 31)', () => {
  it('names the data a run could not reach, in words, and says nothing changed', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    expect(runFailureWords('zhvi', 'https://files.zillowstatic.com/research/zhvi.csv', refused)).toBe(
      'Could not reach Zillow’s research data (home values) (network error). Nothing was changed; the last good data stays.',
    );
    expect(runFailureWords('sold', 'https://api.example/Property', new Error('https://api.example answered 503'))).toBe(
      'The MLS feed of sold homes (RESO Web API) answered with an error (HTTP 503). Nothing was changed; the last good data stays.',
    );
    expect(runFailureWords('zhvi', 'Uploaded file october.csv', new Error('The header lacks RegionName.'))).toBe(
      'Could not import the uploaded file october.csv: The header lacks RegionName. Nothing was changed; the last good data stays.',
    );
  });

  it('shows where the data came from without a path on the server', () => {
    expect(shownOrigin('/home/someone/a fresh clone/data/sample/zhvi.csv')).toBe('Sample data (zhvi.csv)');
    expect(shownOrigin('/srv/site/.data/e2e-market/zhvi.csv')).toBe('File zhvi.csv');
    expect(shownOrigin('Uploaded file zhvi-october.csv')).toBe('Upload: zhvi-october.csv');
    expect(shownOrigin('https://files.zillowstatic.com/research/public_csvs/zhvi/Zip_zhvi.csv?t=1')).toBe(
      'Zip_zhvi.csv from files.zillowstatic.com',
    );
  });
});

describe('the towns a run updated, in words (minor 31)', () => {
  const run = (names: string[], count = names.length) =>
    updatedTownsWords({ towns_updated: count, updated_towns: names });
  const twelve = [
    'Babylon',
    'Bay Shore',
    'Brentwood',
    'Commack',
    'Dix Hills',
    'Garden City',
    'Huntington',
    'Islip',
    'Massapequa',
    'Northport',
    'Oyster Bay',
    'Smithtown',
  ];

  it('says a run that changed nothing changed no town', () => {
    expect(run([])).toEqual({ words: 'No town’s figures changed', more: [] });
  });

  it('names up to three towns on the line', () => {
    expect(run(['Northport'])).toEqual({ words: 'Updated 1 town: Northport', more: [] });
    expect(run(['Babylon', 'Bay Shore'])).toEqual({ words: 'Updated 2 towns: Babylon and Bay Shore', more: [] });
    expect(run(['Babylon', 'Bay Shore', 'Islip']).words).toBe('Updated 3 towns: Babylon, Bay Shore and Islip');
  });

  it('names three of many and counts the rest, keeping every name for the full list', () => {
    expect(run(twelve)).toEqual({ words: 'Updated 12 towns: Babylon, Bay Shore, Brentwood and 9 more', more: twelve });
  });

  it('gives the count alone for a run recorded before the names were kept', () => {
    expect(run([], 119)).toEqual({ words: 'Updated 119 towns', more: [] });
  });
});
