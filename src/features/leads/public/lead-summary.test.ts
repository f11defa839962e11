import { describe, expect, it } from 'vitest';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';
import { estimateSummary, phoneDigits } from './lead-summary.ts';
import { formatPhone } from '../../../ui/phone.ts';
import { WORKED_EXAMPLE } from '../../net-sheet/worked-example.fixture.ts';

const estimate: Estimate = WORKED_EXAMPLE;

describe('estimateSummary', () => {
  it('names the sale price, the payoff and the net', () => {
    expect(estimateSummary(estimate)).toBe(
      'Sale price: $780,200.00\nMortgage payoff: $450,000.00\nEstimated net proceeds: $279,341.00',
    );
  });

  it('says what to bring to closing when the net is negative', () => {
    expect(estimateSummary({ ...estimate, net_to_seller: -1234.5 })).toContain('Amount to bring to closing: $1,234.50');
  });
});

describe('phone display', () => {
  it('keeps digits and shows (XXX) XXX-XXXX for 10 digits or 11 starting with 1', () => {
    expect(phoneDigits('(631) 555-0142 ext')).toBe('6315550142');
    expect(formatPhone('6315550142')).toBe('(631) 555-0142');
    expect(formatPhone('16315550142')).toBe('(631) 555-0142');
    expect(formatPhone('631555')).toBe('631555');
  });
});
