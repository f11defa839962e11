import { describe, expect, it } from 'vitest';
import type { Estimate } from './estimate-request.ts';
import { netSheetLines } from './net-sheet.ts';
import { WORKED_EXAMPLE } from '../worked-example.fixture.ts';

const estimate: Estimate = WORKED_EXAMPLE;

describe('netSheetLines', () => {
  it('lists every line with the percent to one decimal', () => {
    expect(netSheetLines(estimate).map((line) => line.label)).toEqual([
      'Sale Price',
      'Mortgage Payoff',
      'Commission (6%)',
      'Transfer Tax',
      'Attorney Fee',
      'Recording Fee',
    ]);
  });

  it('hides deductions of zero', () => {
    const lines = netSheetLines({ ...estimate, mortgage_payoff: 0, lawyer_fee: 0, recording_fee: 0 });
    expect(lines.map((line) => line.label)).toEqual(['Sale Price', 'Commission (6%)', 'Transfer Tax']);
  });
});
