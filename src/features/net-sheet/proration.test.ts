import { describe, expect, it } from 'vitest';
import { printedHalves, prorations } from './proration.ts';

const suffolk = (annualDollars: number, first: boolean, second: boolean, closing: string) =>
  prorations(
    'Suffolk',
    { suffolk: { annual: annualDollars * 100, first_half_paid: first, second_half_paid: second } },
    closing,
  );

describe('Suffolk proration: one Dec 1-Nov 30 levy, by days of the whole fiscal year (decision 0038)', () => {
  // The oracle: ../shared/audits/net-sheet-2026-11-26.md, M2, scenarios D09, D31, D32, D34, D35
  // (sources there: Suffolk Comptroller FAQ, "December 1st through November 30th"; Islip Receiver,
  // two instalments Jan 10 / May 31; NY Residential Contract of Sale ¶18(a), "the fiscal period").
  it.each([
    ['D09', 9_000, true, true, '2027-11-30', -24_66],
    ['D31', 20_000, true, false, '2027-03-01', -5_068_49],
    ['D32', 12_000, true, false, '2027-08-02', 2_021_92],
    ['D34', 12_000, true, false, '2027-05-31', -49_32],
    ['D35', 12_000, true, true, '2027-06-01', -6_016_44],
  ])('%s matches the audit oracle to the cent', (_id, annual, first, second, closing, cents) => {
    expect(suffolk(annual, first, second, closing)).toEqual([
      expect.objectContaining({ key: 'tax_suffolk', label: 'Property tax proration', amount_cents: cents }),
    ]);
  });

  it('says the basis: the seller days of the fiscal year, their share and what was paid (D31)', () => {
    // $20,000 × 90 / 365 = $4,931.51 is the seller's; the 1st half, $10,000, was paid.
    const [line] = suffolk(20_000, true, false, '2027-03-01');
    expect(line?.why).toBe(
      "One Dec 1–Nov 30 bill: the seller's 90 of 365 days are $4,931.51; 1st half paid ($10,000.00)",
    );
  });

  it('in a 366-day fiscal year gives what two 183-day halves gave (the audit: D10-D12, D33 agree)', () => {
    // Dec 1 2027 - Mar 1 2028 = 91 days of 366: $12,000 × 91 / 366 = $2,983.607 less $6,000 paid.
    // Two halves: $6,000 × 92 / 183 = $3,016.393 credited. Both -301,639.
    expect(suffolk(12_000, true, false, '2028-03-01')[0]?.amount_cents).toBe(-3_016_39);
  });

  it('charges the seller their days when nothing is paid, and nothing at the start of the year', () => {
    // Closing Dec 1 2026: the buyer owns every day of the bill, the seller none.
    expect(suffolk(12_000, false, false, '2026-12-01')).toEqual([]);
    // Closing Jan 1 2027: 31 of 365 days, $12,000 × 31 / 365 = $1,019.178 -> $1,019.18.
    expect(suffolk(12_000, false, false, '2027-01-01')[0]?.amount_cents).toBe(1_019_18);
  });
});

describe('odd-cent halves: whole cents as a bill prints them, the odd cent on the 2nd half (decision 0038)', () => {
  it('splits an odd annual amount into two printed halves', () => {
    expect(printedHalves(12_345_67)).toEqual([6_172_83, 6_172_84]);
    expect(printedHalves(12_000_00)).toEqual([6_000_00, 6_000_00]);
  });

  it('prorates the printed half and says so (the audit D45: $12,345.67, 1st half paid, closing 2027-09-15)', () => {
    // School 1st half Jul 1-Dec 31 2027 (184 days), paid; the buyer's 108 days from Sep 15:
    // $6,172.83 × 108 / 184 = $3,623.18 credited (the audit's exact half, 6,172.835, gives 3,623.19).
    const lines = prorations(
      'Nassau',
      { nassau_school: { annual: 12_345_67, first_half_paid: true, second_half_paid: false } },
      '2027-09-15',
    );
    expect(lines).toEqual([
      expect.objectContaining({
        key: 'tax_nassau_school_1',
        amount_cents: -3_623_18,
        why: 'Paid: the buyer repays the seller for 108 of 184 days ($6,172.83 as billed; the odd cent is on the 2nd half)',
      }),
    ]);
  });

  it('says nothing of cents when the halves are equal', () => {
    const [line] = prorations(
      'Nassau',
      { nassau_school: { annual: 12_000_00, first_half_paid: true, second_half_paid: false } },
      '2027-09-15',
    );
    expect(line?.why).toBe('Paid: the buyer repays the seller for 108 of 184 days');
  });
});
