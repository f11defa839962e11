import { describe, expect, it } from 'vitest';
import { runFailureWords, shownOrigin } from './run-words.ts';

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
