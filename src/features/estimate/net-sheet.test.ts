import { describe, expect, it } from 'vitest';
import type { Estimate } from './estimate-request.ts';
import { netSheetLines } from './net-sheet.ts';

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

describe('netSheetLines', () => {
  it('lists every line with the percent to one decimal', () => {
    expect(netSheetLines(estimate).map((line) => line.label)).toEqual([
      'Sale Price',
      'Mortgage Payoff',
      'Compensation (6.0%)',
      'Transfer Tax',
      'Attorney Fee',
      'Recording Fee',
    ]);
  });

  it('hides deductions of zero', () => {
    const lines = netSheetLines({ ...estimate, mortgage_payoff: 0, lawyer_fee: 0, recording_fee: 0 });
    expect(lines.map((line) => line.label)).toEqual(['Sale Price', 'Compensation (6.0%)', 'Transfer Tax']);
  });
});
