import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.ts';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-02T12:00:00Z');
  it.each([
    ['seconds', '120', 120],
    ['zero', '0', 0],
    ['a fraction, rounded up', '1.2', 2],
    ['an HTTP date', 'Mon, 02 Mar 2026 12:01:30 GMT', 90],
    ['an HTTP date in the past', 'Mon, 02 Mar 2026 11:00:00 GMT', 0],
    ['missing', null, undefined],
    ['blank', '  ', undefined],
    ['negative', '-5', undefined],
    ['nonsense', 'soon', undefined],
  ])('reads %s', (_label, header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});
