import { describe, expect, it } from 'vitest';
import {
  csvCell,
  csvLine,
  leadCsvFileName,
  leadListQuerySchema,
  leadQueryString,
  newYorkDateTime,
} from './lead-list.ts';

describe('the leads CSV', () => {
  it('names the file with the New York day, not the UTC one', () => {
    // 11:30 pm on 22 November in New York is already the 23rd in UTC.
    expect(leadCsvFileName(new Date('2026-11-23T04:30:00Z'))).toBe('leads-2026-11-22.csv');
    expect(leadCsvFileName(new Date('2026-11-23T05:00:00Z'))).toBe('leads-2026-11-23.csv');
    expect(leadCsvFileName(new Date('2026-07-04T03:59:00Z'))).toBe('leads-2026-07-03.csv');
  });

  it('writes dates in ISO 8601 with New York’s offset of that day, winter and summer', () => {
    expect(newYorkDateTime(new Date('2026-11-23T04:30:09Z'))).toBe('2026-11-22T23:30:09-05:00');
    expect(newYorkDateTime(new Date('2026-07-04T03:59:00.999Z'))).toBe('2026-07-03T23:59:00-04:00');
    // The hour that repeats when the clocks go back: each moment keeps its own offset.
    expect(newYorkDateTime(new Date('2026-11-01T05:30:00Z'))).toBe('2026-11-01T01:30:00-04:00');
    expect(newYorkDateTime(new Date('2026-11-01T06:30:00Z'))).toBe('2026-11-01T01:30:00-05:00');
    expect(newYorkDateTime(new Date('2026-01-01T05:00:00Z'))).toBe('2026-01-01T00:00:00-05:00');
  });

  it('writes amounts as plain dollars a spreadsheet reads as numbers, a negative net with its minus', () => {
    expect(csvCell({ cents: 41240000 })).toBe('"412400.00"');
    expect(csvCell({ cents: -16543210 })).toBe('"-165432.10"');
    expect(csvCell({ cents: 5 })).toBe('"0.05"');
    expect(csvLine(['a', { cents: 100 }, ''])).toBe('"a","1.00",""\r\n');
  });

  it('quotes every cell and neutralises formula starts, at the start and after any separator (OWASP)', () => {
    expect(csvCell('Dana Lopez')).toBe('"Dana Lopez"');
    expect(csvCell('12 Elm St, Apt 3')).toBe('"12 Elm St, Apt 3"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('')).toBe('""');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1`)).toBe(`"'${start}1"`);
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(csvCell('(516) 555-0197')).toBe('"(516) 555-0197"');
    // Audit finding 11: a semicolon-separator spreadsheet splits an unquoted `2 Elm St;=cmd…` into a formula cell.
    expect(csvCell("2 Elm St;=cmd|' /C calc'!A0")).toBe(`"2 Elm St;'=cmd|' /C calc'!A0"`);
    expect(csvCell('a, =1+2')).toBe(`"a, '=1+2"`);
    expect(csvCell('a;@SUM(1)')).toBe(`"a;'@SUM(1)"`);
    expect(csvCell('a\t+1')).toBe(`"a\t'+1"`);
    expect(csvCell('a\n-1')).toBe(`"a\n'-1"`);
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`);
    expect(csvLine(['a', 'b,c'])).toBe('"a","b,c"\r\n');
  });
});

describe('the list query', () => {
  it('leaves blank filters out and round-trips through the route’s schema', () => {
    const text = leadQueryString({
      search: 'dana',
      source: '',
      from: '2026-01-01',
      to: undefined,
      page: 2,
      per_page: 25,
    });
    expect(text).toBe('?search=dana&from=2026-01-01&page=2&per_page=25');
    expect(leadListQuerySchema.parse(Object.fromEntries(new URLSearchParams(text)))).toEqual({
      search: 'dana',
      from: '2026-01-01',
      page: 2,
      per_page: 25,
    });
    expect(leadQueryString({})).toBe('');
  });
});
