import { describe, expect, it } from 'vitest';
import { transferTaxRateText } from './public/estimate.ts';
import { computeDetailedSheet } from './detailed-sheet.ts';
import { netSheetDetailsSchema } from './details.ts';
import { closingDateProblem, detailsProblems, sheetWarnings } from './guard-rails.ts';
import { defaultFeeTable, satisfactionRecordingBasis } from './fee-table-schema.ts';

const TODAY = '2026-11-26';

describe('closing-date bounds and warnings (newcomer audit M5)', () => {
  it('refuses a closing more than a year past or two years ahead, takes anything between', () => {
    expect(closingDateProblem('2019-05-05', TODAY)).toBe('Closing date is more than a year ago: check the year');
    expect(closingDateProblem('2025-11-26', TODAY)).toBeUndefined(); // 365 days ago
    expect(closingDateProblem('2025-11-25', TODAY)).toBe('Closing date is more than a year ago: check the year');
    expect(closingDateProblem('2028-11-25', TODAY)).toBeUndefined(); // 730 days ahead
    expect(closingDateProblem('2028-11-26', TODAY)).toBe(
      'Closing date must be within two years from today: check the year',
    );
  });

  it('refuses a payoff letter dated more than a year before the closing', () => {
    const liens = [{ payoff_date: '2026-03-01' }, { payoff_date: '2026-02-28' }];
    expect(detailsProblems({ liens }, '2027-03-01', TODAY)).toEqual({
      'liens.1.payoff_date': 'Payoff good-through date is more than a year before closing: use a current payoff letter',
    });
  });

  it('warns of a past closing and of concessions over 10 % of the price, not of 10 % itself', () => {
    expect(sheetWarnings(600_000_00, 60_000_00, '2026-11-26', TODAY)).toEqual([]);
    expect(sheetWarnings(600_000_00, 60_000_01, '2026-11-25', TODAY).map((warning) => warning.key)).toEqual([
      'past_closing_date',
      'large_concessions',
    ]);
    expect(sheetWarnings(600_000_00, 0, '2026-11-25', TODAY)[0]?.text).toBe(
      'The closing date, November 25, 2026, has already passed. Taxes and interest are figured to that day: if the sale has not closed yet, change the date.',
    );
  });
});

describe('details that would be ignored are refused (net-sheet audit M5, M3)', () => {
  const issues = (details: unknown) => {
    const result = netSheetDetailsSchema.safeParse(details);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('D46 and D47: a Nassau levy with no county or on a Suffolk home', () => {
    expect(issues({ property_taxes: { nassau_general: { annual: 5000 } } })).toEqual([
      ['property_taxes.nassau_general.annual', 'General tax is a Nassau tax: choose Nassau as the county'],
    ]);
    expect(issues({ county: 'Suffolk', property_taxes: { nassau_school: { annual: 12000 } } })).toEqual([
      ['property_taxes.nassau_school.annual', 'School tax is a Nassau tax: leave it out for a Suffolk home'],
    ]);
    expect(issues({ county: 'Nassau', property_taxes: { nassau_school: { annual: 12000 } } })).toEqual([]);
    // A village levy counts in either county and without one.
    expect(issues({ property_taxes: { village: { annual: 3000, fiscal_year_start_month: 6 } } })).toEqual([]);
  });

  it("D19: per-diem interest needs the payoff letter's date, and at most 0.1 % of the payoff a day", () => {
    expect(issues({ liens: [{ label: 'M3', payoff: 20000, per_diem_interest: 2.74 }] })).toEqual([
      [
        'liens.0.payoff_date',
        'Payoff good-through date is required with per-diem interest: it is on the payoff letter',
      ],
    ]);
    // $20,000 × 0.1 % = $20.00 a day at most.
    expect(
      issues({ liens: [{ label: 'M3', payoff: 20000, per_diem_interest: 20.01, payoff_date: '2027-09-01' }] }),
    ).toEqual([
      [
        'liens.0.per_diem_interest',
        'Per-diem interest must be at most $20.00 a day (0.1% of the payoff): check the payoff letter',
      ],
    ]);
    expect(
      issues({ liens: [{ label: 'M3', payoff: 20000, per_diem_interest: 20, payoff_date: '2027-09-01' }] }),
    ).toEqual([]);
  });

  it('charges no per-diem interest on stored details without a payoff date, and never names one', () => {
    // Stored before the date was required: the engine charges nothing rather than days from "today".
    const sheet = computeDetailedSheet(
      {
        salePriceCents: 600_000_00,
        mortgagePayoffCents: 20_000_00,
        commissionPercent: 6,
        transferTaxRatePer1000: 4,
        attorneyFeeCents: 0,
        recordingFeeCents: 0,
      },
      { suffolk_lots: 1, liens: [{ label: 'M3', payoff: 20_000_00, per_diem_interest: 2_74 }] },
      defaultFeeTable(),
      { today: TODAY },
    );
    expect(sheet.lines.some((line) => line.key === 'lien_1_per_diem')).toBe(false);
  });
});

describe('one transfer-tax wording from the rate in force (newcomer audit minor 10)', () => {
  it('says the rate per $500 in whole cents, else per $1,000', () => {
    expect(transferTaxRateText(4)).toBe('$2 per $500 of the price or part of it');
    expect(transferTaxRateText(5)).toBe('$2.50 per $500 of the price or part of it');
    expect(transferTaxRateText(4.01)).toBe('$4.01 per $1,000 of the price, charged per $500 or part of it');
  });
});

describe("Suffolk's satisfaction recording: arithmetic from a page count (audit M1)", () => {
  const withCents = (cents: number) => ({
    suffolk_satisfaction_recording: { cents, checked: TODAY, source: 'x' },
  });
  it('names the pages the amount stands for and what one page fewer costs', () => {
    // $5 a page + $20 handling + $5 Commissioner of Education + $15 Cultural Education Fund.
    expect(satisfactionRecordingBasis(withCents(60_00))).toBe(
      'figured for a 4-page satisfaction at $5 a page plus $40 (3 pages: $55)',
    );
    expect(satisfactionRecordingBasis(withCents(55_00))).toBe(
      'figured for a 3-page satisfaction at $5 a page plus $40 (2 pages: $50)',
    );
    expect(satisfactionRecordingBasis(withCents(62_50))).toBe(
      "the site's amount (the clerk charges $5 a page plus $40)",
    );
  });
});
