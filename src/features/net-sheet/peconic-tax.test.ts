import { describe, expect, it } from 'vitest';
import { computeDetailedSheet } from './detailed-sheet.ts';
import { netSheetDetailsSchema } from './details.ts';
import { feeTableOf } from './fee-table.ts';
import { defaultFeeTable, rateEntrySchema } from './fee-table-schema.ts';
import { LI_RATE_DEFAULTS } from './li-rates.ts';
import { peconicTax, peconicTownOf, placeKey } from './peconic-tax.ts';
import { allTowns } from '../towns/public/town-data.ts';

const fees = defaultFeeTable();

describe('peconicTax, worked examples (docs/research/east-end-peconic-bay-tax.md)', () => {
  it('taxes improved property in Southampton above the $400,000 exemption at 2% + 0.5%', () => {
    // Suffolk County Clerk's allowances from April 1, 2023 (cbtitlegroup.com explainer): Southampton
    // $400,000 improved; rates 2% CPF (southamptontownny.gov FAQ 338) + 0.5% CHF (ehamptonny.gov/838).
    // (1,500,000 - 400,000) × 2.5% = 27,500: 22,000 to the CPF and 5,500 to the CHF.
    const tax = peconicTax(1_500_000_00, 'Southampton', false, fees);
    expect(tax).toMatchObject({
      town: 'Southampton',
      exemptionCents: 400_000_00,
      taxableCents: 1_100_000_00,
      preservationCents: 22_000_00,
      housingCents: 5_500_00,
      totalCents: 27_500_00,
      noExemption: false,
    });
  });

  it('taxes the whole price above $2,000,000 in the housing-fund towns, and keeps the exemption at $2,000,000', () => {
    // "No exemption on conveyances greater than $2,000,000" (Suffolk County Clerk, via cbtitlegroup.com);
    // "for properties of $2 million or less" (southamptontownnypolice.gov FAQ 575): 2,500,000 × 2.5% = 62,500.
    expect(peconicTax(2_500_000_00, 'East Hampton', false, fees)).toMatchObject({
      exemptionCents: 0,
      totalCents: 62_500_00,
      noExemption: true,
    });
    // At exactly $2,000,000: (2,000,000 - 400,000) × 2.5% = 40,000.
    expect(peconicTax(2_000_000_00, 'Shelter Island', false, fees)?.totalCents).toBe(40_000_00);
  });

  it("keeps Riverhead's own $150,000 / $75,000 exemptions at 2% and no housing fund tax, at every price", () => {
    // Riverhead did not adopt the CHF (easthamptonstar.com 2023-09-28); its allowances stay $150,000
    // improved and $75,000 vacant (Suffolk County Clerk). (600,000 - 150,000) × 2% = 9,000.
    expect(peconicTax(600_000_00, 'Riverhead', false, fees)).toMatchObject({
      exemptionCents: 150_000_00,
      preservationCents: 9_000_00,
      housingCents: 0,
      totalCents: 9_000_00,
    });
    // (600,000 - 75,000) × 2% = 10,500 for vacant land; $3,000,000: (3,000,000 - 150,000) × 2% = 57,000.
    expect(peconicTax(600_000_00, 'Riverhead', true, fees)?.totalCents).toBe(10_500_00);
    expect(peconicTax(3_000_000_00, 'Riverhead', false, fees)?.totalCents).toBe(57_000_00);
  });

  it("uses Southold's own $200,000 (improved) and $75,000 (vacant) exemptions", () => {
    // southoldtownny.gov FAQ 156: "For unimproved property $75,000 is exempt ... For improved property
    // $200,000 is exempt." (700,000 - 200,000) × 2.5% = 12,500; vacant (200,000 - 75,000) × 2.5% = 3,125
    // (the town's own example is $2,500 at the 2% it then charged).
    expect(peconicTax(700_000_00, 'Southold', false, fees)?.totalCents).toBe(12_500_00);
    expect(peconicTax(200_000_00, 'Southold', true, fees)?.totalCents).toBe(3_125_00);
    // Advantage Title bulletin 2023-02: in Southold the tax is the same under the old rules (2% over
    // $150,000) and the new (2.5% over $200,000) at $400,000: 5,000.
    expect(peconicTax(400_000_00, 'Southold', false, fees)?.totalCents).toBe(5_000_00);
  });

  it('charges nothing below the exemption and nothing outside the five towns', () => {
    expect(peconicTax(350_000_00, 'Southampton', false, fees)?.totalCents).toBe(0);
    expect(peconicTax(900_000_00, 'Islip', false, fees)).toBeUndefined();
    expect(peconicTax(900_000_00, 'Manorville', false, fees)).toBeUndefined();
    expect(peconicTax(900_000_00, undefined, false, fees)).toBeUndefined();
  });

  it("reads the rates and exemptions in force: an admin's correction changes the amount", () => {
    const corrected = feeTableOf({
      peconic_chf_rate: { percent: 0.75, checked: '2026-11-26', source: 'https://example.test/chf' },
      peconic_exemption_improved_south_fork: { cents: 500_000_00, checked: '2026-11-26', source: 'x' },
    });
    // (1,500,000 - 500,000) × (2% + 0.75%) = 27,500.
    expect(peconicTax(1_500_000_00, 'Southampton', false, corrected)?.totalCents).toBe(27_500_00);
  });
});

describe('the East End places', () => {
  it('finds the town of a village or hamlet, whatever the case, spacing or ", NY"', () => {
    expect(peconicTownOf('Montauk')).toBe('East Hampton');
    expect(peconicTownOf('  montauk,  ny ')).toBe('East Hampton');
    expect(peconicTownOf('MONTAUK NY 11954')).toBe('East Hampton');
    expect(peconicTownOf('Sag Harbor')).toBe('Southampton');
    expect(peconicTownOf('Greenport')).toBe('Southold');
    expect(peconicTownOf('Westhampton Beach, New York')).toBe('Southampton');
    expect(peconicTownOf('Wading River')).toBe('Riverhead');
    expect(peconicTownOf('Town of Southold')).toBe('Southold');
    expect(peconicTownOf('Shelter Island Heights')).toBe('Shelter Island');
    expect(peconicTownOf('Huntington')).toBeUndefined();
    expect(placeKey(' East   Hampton , NY ')).toBe('east hampton');
  });

  it("matches every East End page of the site's town list, and no page west of the five towns", () => {
    const matched = allTowns()
      .filter((town) => peconicTownOf(town.name) !== undefined)
      .map((town) => town.name);
    expect(matched).toEqual(
      expect.arrayContaining(['Amagansett', 'Bridgehampton', 'East Quogue', 'Greenport', 'Hampton Bays', 'Mattituck']),
    );
    expect(matched).toEqual(expect.arrayContaining(['Montauk', 'Sag Harbor', 'Wading River', 'Westhampton Beach']));
    // Every Hamptons-tagged page is in a Peconic town; nothing in Nassau is.
    for (const town of allTowns().filter((candidate) => candidate.region === 'Hamptons')) {
      expect(peconicTownOf(town.name), town.name).toBeDefined();
    }
    expect(allTowns().filter((town) => town.county === 'Nassau' && peconicTownOf(town.name))).toEqual([]);
    expect(matched).not.toContain('Manorville');
  });

  it('puts the amount, the rates, the exemption and the negotiation in the sheet note for a hamlet', () => {
    const quick = {
      salePriceCents: 1_500_000_00,
      mortgagePayoffCents: 0,
      commissionPercent: 5,
      transferTaxRatePer1000: 4,
      attorneyFeeCents: 1_500_00,
      recordingFeeCents: 175_00,
    };
    const details = netSheetDetailsSchema.parse({ county: 'Suffolk', town: 'Montauk, NY', closing_date: '2027-01-15' });
    const sheet = computeDetailedSheet(quick, details, fees, { today: '2026-11-26' });
    const note = sheet.notes.find((entry) => entry.key === 'east_end')?.text ?? '';
    expect(note).toContain('In Montauk, NY (Town of East Hampton) the buyer pays the Peconic Bay tax');
    expect(note).toContain('2% Community Preservation Fund + 0.5% Community Housing Fund');
    expect(note).toContain('$1,100,000, the price less the $400,000 exemption for improved property');
    expect(note).toContain('about $27,500');
    expect(note).toContain('weighs in negotiations');
    expect(note).toContain('first-time homebuyer');
    // The buyer's tax is no line of the seller's.
    const without = computeDetailedSheet(quick, { ...details, town: 'Islip' }, fees, { today: '2026-11-26' });
    expect(sheet.net_cents).toBe(without.net_cents);
    const vacant = computeDetailedSheet(quick, { ...details, vacant_land: true }, fees, { today: '2026-11-26' });
    // (1,500,000 - 100,000) × 2.5% = 35,000.
    expect(vacant.notes.find((entry) => entry.key === 'east_end')?.text).toContain('about $35,000');
  });
});

describe('the rate entries', () => {
  it('refuses a rate out of range or with more than 4 decimals, with a message', () => {
    const base = { checked: '2026-11-26', source: 'https://example.test' };
    expect(rateEntrySchema.safeParse({ ...base, percent: 2.12345 }).error?.issues[0]?.message).toBe(
      'The rate can have at most 4 decimals',
    );
    expect(rateEntrySchema.safeParse({ ...base, percent: 101 }).error?.issues[0]?.message).toBe(
      'The rate must be at most 100%',
    );
    expect(rateEntrySchema.safeParse({ ...base, percent: -1 }).error?.issues[0]?.message).toBe(
      'The rate cannot be negative',
    );
    expect(rateEntrySchema.safeParse({ ...base, percent: 2.1234 }).success).toBe(true);
  });

  it('has a date checked and a source for every researched rate', () => {
    for (const rate of Object.values(LI_RATE_DEFAULTS)) {
      expect(rate.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(rate.source).toMatch(/^https:\/\//);
    }
  });

  it('ignores a stored rate that no longer parses, as for fees', () => {
    const table = feeTableOf({ peconic_cpf_rate: { percent: 'two', checked: 'x', source: '' } });
    expect(table.peconic_cpf_rate).toEqual(defaultFeeTable().peconic_cpf_rate);
  });
});
