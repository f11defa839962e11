import { describe, expect, it } from 'vitest';
import { waitText } from './wait-text.ts';

describe('waitText', () => {
  it.each([
    [null, 'later'],
    [0, 'later'],
    [1, 'in 1 minute'],
    [60, 'in 1 minute'],
    [61, 'in 2 minutes'],
    [2_220, 'in 37 minutes'],
    [3_600, 'in 1 hour'],
    [3_601, 'in 2 hours'],
  ])('%s seconds reads "%s"', (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
  });
});
