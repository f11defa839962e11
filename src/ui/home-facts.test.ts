import { describe, expect, it } from 'vitest';
import { homeFactsLine } from './home-facts.ts';

describe('homeFactsLine', () => {
  it('says "1 bed" and "1 bath", plural otherwise, and leaves out what is unknown', () => {
    expect(homeFactsLine({ beds: 1, baths: 1, sqft: 650 })).toBe('1 bed · 1 bath · 650 sqft');
    expect(homeFactsLine({ beds: 3, baths: 2.5, sqft: 2543 })).toBe('3 beds · 2.5 baths · 2,543 sqft');
    expect(homeFactsLine({ beds: 0, baths: null, sqft: null })).toBe('0 beds');
  });
});
