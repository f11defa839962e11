/**
 * Penalties on an overdue tax half (issue 22, part P; decision 0043). Sources, checked 2026-11-26
 * (docs/research/tax-penalties.md):
 *  [H] Hempstead Receiver, https://www.hempsteadny.gov/431/Tax-Penalties: school 1st half payable to
 *      Nov 10, then Nov 11-30 2 %, Dec 3 % … May 8 %; 2nd half to May 10, May 11-31 2 %; general 1st
 *      half to Feb 10, then Feb 11-28 2 % … Aug 8 %; 2nd half to Aug 10, Aug 11-31 2 %; after May 31
 *      (school) / Aug 31 (general) payable to the Nassau County Treasurer.
 *  [OB] Oyster Bay Receiver: "a one percent penalty is added for each month the tax remains unpaid,
 *      retroactive to" the due date (Jan 1, Jul 1, Oct 1, Apr 1).
 *  [I] Islip Receiver, https://islipny.gov/departments/receiver-of-taxes/late-delinquent: 1st half
 *      after Jan 10 1 %, after Feb 10 2 %, after Mar 10 3 %, after Apr 10 4 %, May 11-31 5 %.
 *  [SCT] Suffolk County Tax Act §13 (2nd half without penalty until, not including, June 1), §13-a
 *      (Comptroller: 5 % penalty, interest on tax and penalty for each month or part from February 1),
 *      §13-c (one twelfth of at least 12 % a year); [B] Brookhaven FAQ QID=86, [HU] Huntington: "a
 *      five percent (5%) penalty in addition to the compounded interest charge of five percent (5%)".
 */
import { describe, expect, it } from 'vitest';
import { overdueTaxWarnings } from './guard-rails.ts';
import { defaultFeeTable } from './fee-table-schema.ts';
import { LI_RATE_DEFAULTS } from './li-rates.ts';
import { taxPenalties } from './tax-penalties.ts';

const FEES = defaultFeeTable();
/** The penalties with the researched rates (the site's table before an admin changes one). */
const penaltiesAt = (...args: [Parameters<typeof taxPenalties>[0], Parameters<typeof taxPenalties>[1], string]) =>
  taxPenalties(...args, FEES);

const bill = (annualDollars: number, first = false, second = false) => ({
  annual: Math.round(annualDollars * 100),
  first_half_paid: first,
  second_half_paid: second,
});
const amounts = (penalties: ReturnType<typeof taxPenalties>) =>
  Object.fromEntries(penalties.map((penalty) => [penalty.key, penalty.amount_cents]));
const school = (closing: string, first = false, second = false) =>
  amounts(penaltiesAt('Nassau', { nassau_school: bill(12_000, first, second) }, closing));
const general = (closing: string, first = false, second = false) =>
  amounts(penaltiesAt('Nassau', { nassau_general: bill(12_000, first, second) }, closing));
const suffolk = (closing: string, first = false, second = false, annual = 12_000) =>
  amounts(penaltiesAt('Suffolk', { suffolk: bill(annual, first, second) }, closing));

describe('Nassau school tax: 1 % a month from the due month once the 40 days have passed [H][OB]', () => {
  // Fiscal year Jul 2026-Jun 2027; halves of $6,000 each. 1st half due Oct 1 2026.
  it.each([
    ['the last penalty-free day, Nov 10', '2026-11-10', {}],
    ['the first penalised day, Nov 11: 2 % (Oct and Nov)', '2026-11-11', { tax_nassau_school_1_penalty: 120_00 }],
    ['Nov 30: still 2 %', '2026-11-30', { tax_nassau_school_1_penalty: 120_00 }],
    ['Dec 1: 3 %', '2026-12-01', { tax_nassau_school_1_penalty: 180_00 }],
    ['Feb 28: 5 %', '2027-02-28', { tax_nassau_school_1_penalty: 300_00 }],
    // 2nd half due Apr 1 2027, payable to May 10: both halves unpaid on May 11.
    ['May 10: 8 % on the 1st, the 2nd still free', '2027-05-10', { tax_nassau_school_1_penalty: 480_00 }],
    ['May 11: 8 % and 2 %', '2027-05-11', { tax_nassau_school_1_penalty: 480_00, tax_nassau_school_2_penalty: 120_00 }],
    [
      'May 31: the Receiver\u2019s last day',
      '2027-05-31',
      { tax_nassau_school_1_penalty: 480_00, tax_nassau_school_2_penalty: 120_00 },
    ],
    // Decision 0043: after the levy closes, 1 % a month goes on (the Treasurer's own charge is unpublished).
    [
      'Jun 1: the Treasurer, 9 % and 3 %',
      '2027-06-01',
      { tax_nassau_school_1_penalty: 540_00, tax_nassau_school_2_penalty: 180_00 },
    ],
  ])('%s', (_name, closing, expected) => {
    expect(school(closing)).toEqual(expected);
  });

  it('charges nothing on a paid half, nor before the due date', () => {
    expect(school('2027-03-15', true)).toEqual({});
    expect(school('2026-09-30')).toEqual({});
    expect(school('2027-05-20', true)).toEqual({ tax_nassau_school_2_penalty: 120_00 });
  });

  it('says the rate, the months and from which date', () => {
    const [penalty] = penaltiesAt('Nassau', { nassau_school: bill(12_000) }, '2026-12-15');
    expect(penalty).toMatchObject({
      label: 'Penalty on the overdue school tax, 1st half',
      why: 'Payable without penalty until November 10, 2026; then 1% a month from October 1, 2026, the due date: 3 months to the closing, 3% of $6,000.00',
    });
    const [closed] = penaltiesAt('Nassau', { nassau_school: bill(12_000, true) }, '2027-06-15');
    expect(closed?.why).toBe(
      'Payable without penalty until May 10, 2027; then 1% a month from April 1, 2027, the due date: 3 months to the closing, 3% of $6,000.00. The levy closed May 31, 2027: the Nassau County Treasurer collects it and may add a charge not included here',
    );
  });
});

describe('Nassau general tax, a leap year [H][OB]', () => {
  // Fiscal year 2028 (a leap year); 1st half due Jan 1, payable to Feb 10; 2nd due Jul 1, to Aug 10.
  it.each([
    ['Feb 10: free', '2028-02-10', {}],
    ['Feb 11: 2 %', '2028-02-11', { tax_nassau_general_1_penalty: 120_00 }],
    ['Feb 29: still 2 % (Hempstead prints "to February 28")', '2028-02-29', { tax_nassau_general_1_penalty: 120_00 }],
    ['Mar 1: 3 %', '2028-03-01', { tax_nassau_general_1_penalty: 180_00 }],
    ['Aug 10: 8 %, the 2nd half free', '2028-08-10', { tax_nassau_general_1_penalty: 480_00 }],
    [
      'Aug 11: 8 % and 2 %',
      '2028-08-11',
      { tax_nassau_general_1_penalty: 480_00, tax_nassau_general_2_penalty: 120_00 },
    ],
    [
      'Sep 1: the Treasurer, 9 % and 3 %',
      '2028-09-01',
      { tax_nassau_general_1_penalty: 540_00, tax_nassau_general_2_penalty: 180_00 },
    ],
    [
      'Dec 31: 12 % and 6 %',
      '2028-12-31',
      { tax_nassau_general_1_penalty: 720_00, tax_nassau_general_2_penalty: 360_00 },
    ],
  ])('%s', (_name, closing, expected) => {
    expect(general(closing)).toEqual(expected);
  });

  it('rounds a percent of an odd-cent half once, half-up, on the half as printed', () => {
    // $12,345.67 prints $6,172.83 and $6,172.84; 2 % of $6,172.83 is $123.4566 → $123.46.
    expect(amounts(penaltiesAt('Nassau', { nassau_general: bill(12_345.67) }, '2028-08-11'))).toEqual({
      tax_nassau_general_1_penalty: 493_83, // 8 % of $6,172.83 = $493.8264
      tax_nassau_general_2_penalty: 123_46, // 2 % of $6,172.84 = $123.4568
    });
  });
});

describe('Suffolk: the 1st half 1 % a month or part after January 10 [I][SCT §13]', () => {
  // Fiscal year Dec 1 2026-Nov 30 2027, a $12,000 bill: halves of $6,000.
  it.each([
    ['Jan 10: the last penalty-free day', '2027-01-10', {}],
    ['Jan 11: 1 %', '2027-01-11', { tax_suffolk_1_penalty: 60_00 }],
    ['Feb 10: still 1 %', '2027-02-10', { tax_suffolk_1_penalty: 60_00 }],
    ['Feb 11: 2 %', '2027-02-11', { tax_suffolk_1_penalty: 120_00 }],
    ['May 10: 4 %', '2027-05-10', { tax_suffolk_1_penalty: 240_00 }],
    ['May 11: 5 %', '2027-05-11', { tax_suffolk_1_penalty: 300_00 }],
    [
      'May 31: 5 %, the 2nd half still free (§13: "until, but not including, … June")',
      '2027-05-31',
      { tax_suffolk_1_penalty: 300_00 },
    ],
  ])('%s', (_name, closing, expected) => {
    expect(suffolk(closing)).toEqual(expected);
  });

  it('in a leap year, February 29 is in the Feb 11-Mar 10 step', () => {
    expect(suffolk('2028-02-29')).toEqual({ tax_suffolk_1_penalty: 120_00 });
    expect(suffolk('2028-03-10')).toEqual({ tax_suffolk_1_penalty: 120_00 });
    expect(suffolk('2028-03-11')).toEqual({ tax_suffolk_1_penalty: 180_00 });
  });

  it('says the months in words', () => {
    expect(penaltiesAt('Suffolk', { suffolk: bill(12_000) }, '2027-01-11')[0]?.why).toBe(
      'Payable without penalty until January 10, 2027; then 1% for each month or part of a month after it: 1 month to the closing, 1% of $6,000.00',
    );
  });

  it('charges nothing before January 10 or on a paid 1st half before June', () => {
    expect(suffolk('2026-12-15')).toEqual({});
    expect(suffolk('2027-04-01', true)).toEqual({});
  });
});

describe('Suffolk after May 31: the Comptroller, 5 % and 1 % a month or part from February 1 on both [SCT §13-a][B][HU]', () => {
  it.each([
    // $6,000 × 5 % = $300; June is the 5th month from Feb 1: 5 % of $6,300 = $315 (Huntington: "5%
    // penalty in addition to the compounded interest charge of 5%").
    ['Jun 1', '2027-06-01', 615_00],
    ['Jun 30', '2027-06-30', 615_00],
    ['Jul 1: 6 months', '2027-07-01', 678_00],
    ['Nov 30: 10 months', '2027-11-30', 930_00],
  ])('%s', (_name, closing, each) => {
    expect(suffolk(closing)).toEqual({ tax_suffolk_1_penalty: each, tax_suffolk_2_penalty: each });
    expect(suffolk(closing, true)).toEqual({ tax_suffolk_2_penalty: each });
  });

  it('rounds the penalty and the interest each to the cent, on the halves as printed', () => {
    // $12,345.67: halves $6,172.83 and $6,172.84. 2nd: 5 % = $308.642 → $308.64; 5 % of $6,481.48 =
    // $324.074 → $324.07; $632.71. 1st: $308.6415 → $308.64; 5 % of $6,481.47 = $324.0735 → $324.07.
    expect(suffolk('2027-06-15', false, false, 12_345.67)).toEqual({
      tax_suffolk_1_penalty: 632_71,
      tax_suffolk_2_penalty: 632_71,
    });
  });

  it('says who collects, the penalty and the interest', () => {
    const [penalty] = penaltiesAt('Suffolk', { suffolk: bill(12_000, true) }, '2027-06-15');
    expect(penalty).toMatchObject({
      label: 'Penalty on the overdue property tax, 2nd half',
      why: 'Unpaid after May 31, 2027, so payable to the Suffolk County Comptroller: 5% of $6,000.00 ($300.00), and 1% a month or part from February 1, 2027 on the tax and penalty: 5 months, $315.00',
    });
    // Sep 1 is the 8th month from Feb 1: 8 % of $6,300 = $504. §13-a(3): from September 1 the cost of advertising the land for sale is added; not published.
    const [late] = penaltiesAt('Suffolk', { suffolk: bill(12_000, true) }, '2027-09-01');
    expect(late?.why).toMatch(
      /8 months, \$504\.00; from September 1, 2027 also the cost of advertising the tax sale, not included$/,
    );
  });
});

describe('what is not charged', () => {
  it('a village bill (villages set their own dates and penalties: none sourced), or the other county', () => {
    expect(
      penaltiesAt('Nassau', { village: { annual: 500_000, fiscal_year_start_month: 6, paid: false } }, '2027-05-20'),
    ).toEqual([]);
    expect(penaltiesAt(undefined, { suffolk: bill(12_000) }, '2027-05-20')).toEqual([]);
  });

  it('leaves out a penalty that rounds to nothing (a $0.40 bill: 2 % of $0.20), warning and all', () => {
    expect(penaltiesAt('Nassau', { nassau_general: bill(0.4) }, '2028-02-11')).toEqual([]);
    expect(amounts(penaltiesAt('Nassau', { nassau_general: bill(0.4) }, '2028-05-01'))).toEqual({
      tax_nassau_general_1_penalty: 1, // 5 % of 20 cents
    });
  });

  it("keeps each rate in the site's rate table, sourced and dated, and charges the rate in force", () => {
    const rates = Object.values(LI_RATE_DEFAULTS).filter((rate) => rate.section === 'penalties');
    expect(rates).toHaveLength(4);
    for (const rate of rates) {
      expect(rate.source).toMatch(/^https:\/\//);
      expect(rate.checked).toBe('2026-11-26');
    }
    // An admin's correction of Nassau's monthly rate is what the sheet charges: 2 months at 1.5 %.
    const corrected = { ...FEES, penalty_nassau_monthly: { ...FEES.penalty_nassau_monthly, percent: 1.5 } };
    const [penalty] = taxPenalties('Nassau', { nassau_school: bill(12_000) }, '2026-11-11', corrected);
    expect(penalty?.amount_cents).toBe(18_000);
  });
});

describe('the warning on an overdue half', () => {
  it('says which half, until when it was free, and the penalty added', () => {
    const warnings = overdueTaxWarnings(
      penaltiesAt('Nassau', { nassau_school: bill(12_000, true), nassau_general: bill(12_000) }, '2027-06-15'),
    );
    expect(warnings).toEqual([
      {
        key: 'overdue_tax_nassau_school_2',
        field: 'property_taxes.nassau_school.second_half_paid',
        text: 'The 2nd half of the school tax is past due: it was payable without penalty until May 10, 2027, so the sheet adds the penalty owed at closing ($180.00). It is now paid to the Nassau County Treasurer, who may add a charge of its own: ask for its figure. If it has been paid, mark it paid.',
      },
      {
        key: 'overdue_tax_nassau_general_1',
        field: 'property_taxes.nassau_general.first_half_paid',
        text: 'The 1st half of the general tax is past due: it was payable without penalty until February 10, 2027, so the sheet adds the penalty owed at closing ($360.00). If it has been paid, mark it paid.',
      },
    ]);
  });
});
