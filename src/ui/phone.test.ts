import { describe, expect, it } from 'vitest';
import { formatPhoneAsTyped } from './phone.ts';

describe('formatPhoneAsTyped', () => {
  it('formats the digits typed so far', () => {
    expect(['', '6', '631', '6315', '631555', '6315550', '6315550142'].map(formatPhoneAsTyped)).toEqual([
      '',
      '(6',
      '(631',
      '(631) 5',
      '(631) 555',
      '(631) 555-0',
      '(631) 555-0142',
    ]);
  });

  it('drops the country code, anything but digits, and digits past ten', () => {
    expect(formatPhoneAsTyped('+1 631.555.0142')).toBe('(631) 555-0142');
    expect(formatPhoneAsTyped('631555014299')).toBe('(631) 555-0142');
    expect(formatPhoneAsTyped('(631) 555-01')).toBe('(631) 555-01');
  });
});
