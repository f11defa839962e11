import { describe, expect, it } from 'vitest';
import type { Estimate } from '../estimate/estimate-request.ts';
import { estimateSummary, phoneDigits } from './lead-summary.ts';
import { formatPhone } from '../../ui/phone.ts';

const estimate: Estimate = {
  uuid: 'u',
  agent_id: 1,
  agent_slug: 'a',
  sale_price: 780200,
  mortgage_payoff: 450000,
  commission: 46812,
  commission_percent: 6,
  transfer_tax: 3122,
  transfer_tax_rate_per_1000: 4,
  lawyer_fee: 750,
  recording_fee: 175,
  net_to_seller: 279341,
  recipient_name: null,
  created_at: '2026-01-01T00:00:00.000Z',
};

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
