import { describe, expect, it } from 'vitest';
import { amount, fees, options, quick, withoutPrice } from '../../../tests/support/net-sheet-examples.ts';
import { computeDetailedSheet } from './detailed-sheet.ts';
import { netSheetDetailsSchema } from './details.ts';
import { defaultFeeTable } from './fee-table-schema.ts';
import { prorations } from './proration.ts';
import { sheetBasisSchema } from './stored-sheet.ts';
import { solveReverse } from './reverse.ts';

describe('computeDetailedSheet, worked examples', () => {
  it('itemises a Nassau sale with two liens and their per-diem interest', () => {
    const details = netSheetDetailsSchema.parse({
      listing_commission_percent: 3,
      buyer_agent_percent: 2.5,
      county: 'Nassau',
      closing_date: '2026-12-15',
      liens: [
        { label: 'Mortgage', payoff: '400,000', per_diem_interest: 55.25, payoff_date: '2026-11-30' },
        { label: 'HELOC', payoff: 20000, per_diem_interest: '3.10', payoff_date: '2026-12-01' },
      ],
    });
    const sheet = computeDetailedSheet(quick(780_200_00), details, fees, options);
    expect(Object.fromEntries(sheet.lines.map((line) => [line.key, line.amount_cents]))).toEqual({
      sale_price: -78_020_000,
      listing_commission: 2_340_600, // 3 % of $780,200 = $23,406
      buyer_agent_commission: 1_950_500, // 2.5 % = $19,505
      lien_1_payoff: 40_000_000, // replaces the quick estimate's $450,000
      lien_1_per_diem: 82_875, // Nov 30 (excl.) to Dec 15 (incl.) = 15 days × $55.25
      lien_2_payoff: 2_000_000,
      lien_2_per_diem: 4_340, // 14 days × $3.10
      transfer_tax: 312_200, // 780,200 / 500 = 1,560.4 -> 1,561 steps × $2 = $3,122
      attorney_fee: 75_000,
      nassau_satisfaction_recording: 10_100, // 2 × $50.50
      nassau_block_fee: 60_000, // 2 × $300
      nassau_tax_map_verification: 54_000, // 2 × $270
      tp584_filing: 500,
      title_closer_pickup: 50_000, // 2 × $250
    });
    // 78,020,000 - (4,291,100 + 42,087,215 + 312,200 + 75,000 + 124,100 + 500 + 50,000) = 31,079,885
    expect(sheet.net_cents).toBe(31_079_885);
    expect(sheet.lines.some((line) => line.key === 'recording_fee')).toBe(false);
  });

  it("charges the seller's own attorney fee when given, else the agent's usual fee", () => {
    // Research §4: no Long Island authority for the fee; NYC-metro firms quote "$2,000 and up"
    // (https://stevenrikerlaw.com/estimated-closing-costs-real-estate), so the seller's own figure must win.
    const own = computeDetailedSheet(
      quick(780_200_00),
      netSheetDetailsSchema.parse({ attorney_fee: '2,250' }),
      fees,
      options,
    );
    const agents = computeDetailedSheet(quick(780_200_00), netSheetDetailsSchema.parse({}), fees, options);
    expect(amount(own, 'attorney_fee')).toBe(2_250_00);
    expect(amount(agents, 'attorney_fee')).toBe(750_00);
    // $2,250 - $750 = $1,500 less to the seller, nothing else moves.
    expect(agents.net_cents - own.net_cents).toBe(1_500_00);
    expect(own.lines.find((line) => line.key === 'attorney_fee')?.why).toBe(
      "The seller's attorney, as the seller gave it",
    );
    expect(netSheetDetailsSchema.safeParse({ attorney_fee: -1 }).success).toBe(false);
    // The reverse solve carries it as a constant: the price it finds nets the target with the seller's fee.
    const target = 250_000_00;
    const solved = solveReverse(
      target,
      withoutPrice(quick(0)),
      netSheetDetailsSchema.parse({ attorney_fee: 2250 }),
      fees,
      options,
    );
    expect(solved.sheet.net_cents).toBeGreaterThanOrEqual(target);
    expect(amount(solved.sheet, 'attorney_fee')).toBe(2_250_00);
  });

  it("adds the seller's credits as credits and percent lines as a percent of the price", () => {
    // The NY standard residential contract (¶18, apportionments) has the buyer repay the heating oil left
    // in the tank, and the seller pay the final water bill: https://betenskylaw.com/part-19-what-are-apportionments-and-other-adjustments-in-a-residential-contract-of-sale/
    // ; https://mpmetzlaw.com/2019/02/24/selling-and-have-an-oil-tank-you-will-need-a-final-oil-reading/
    const details = netSheetDetailsSchema.parse({
      other_lines: [
        { name: 'Fuel oil in the tank', amount: '612.40', credit: true },
        { name: 'Final water bill', amount: 180.5 },
        { name: 'Flip tax', percent: 1.25 },
        { name: 'Builder rebate', percent: 0.5, credit: true },
      ],
    });
    const sheet = computeDetailedSheet(quick(780_201_00), details, fees, options);
    expect(sheet.lines.filter((line) => line.group === 'other').map((line) => [line.label, line.amount_cents])).toEqual(
      [
        ['Fuel oil in the tank', -612_40],
        ['Final water bill', 180_50],
        // 1.25 % of $780,201 = $9,752.5125 -> $9,752.51 (half-up to the cent, as the commissions).
        ['Flip tax (1.25%)', 975_251],
        // 0.5 % of $780,201 = $3,901.005 -> $3,901.01, a credit.
        ['Builder rebate (0.5%)', -390_101],
      ],
    );
    const plain = computeDetailedSheet(quick(780_201_00), netSheetDetailsSchema.parse({}), fees, options);
    // 612.40 - 180.50 - 9,752.51 + 3,901.01 = -5,419.60 against the same sheet without them.
    expect(sheet.net_cents - plain.net_cents).toBe(-5_419_60);
    expect(sheet.lines.find((line) => line.key === 'other_1')?.why).toBe(
      'Added by the seller: paid to the seller at closing',
    );
  });

  it('refuses a line with both or neither of an amount and a percent, and percent costs over 10% in all', () => {
    const errorOf = (other_lines: unknown) => {
      const parsed = netSheetDetailsSchema.safeParse({ other_lines });
      return parsed.success ? undefined : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
    };
    expect(errorOf([{ name: 'Flip tax', amount: 100, percent: 2 }])).toEqual([
      ['other_lines.0.amount', 'Give either an amount in dollars or a percent of the price'],
    ]);
    expect(errorOf([{ name: 'Flip tax' }])).toEqual([
      ['other_lines.0.amount', 'Give either an amount in dollars or a percent of the price'],
    ]);
    expect(errorOf([{ name: 'Flip tax', percent: 10.01 }])).toEqual([
      ['other_lines.0.percent', 'Percent must be at most 10% of the price'],
    ]);
    expect(errorOf([{ name: 'Flip tax', percent: 1.255 }])).toEqual([
      ['other_lines.0.percent', 'Percent can have at most two decimals'],
    ]);
    expect(
      errorOf([
        { name: 'Flip tax', percent: 6 },
        { name: 'Fee', percent: 4.01 },
      ]),
    ).toEqual([['other_lines', 'Percent-based costs can add up to at most 10% of the price']]);
    // Credits do not count against the bound (they only raise the net with the price).
    expect(
      errorOf([
        { name: 'Flip tax', percent: 6 },
        { name: 'Fee', percent: 4 },
        { name: 'Rebate', percent: 5, credit: true },
      ]),
    ).toBeUndefined();
    // Stored details from before credits read as costs.
    expect(netSheetDetailsSchema.parse({ other_lines: [{ name: 'Repair', amount: 1 }] }).other_lines).toEqual([
      { name: 'Repair', amount: 100, credit: false },
    ]);
  });

  it('charges Nassau tax map verification per lot and the block fee per block, for each satisfaction', () => {
    // The tax map fee verifies "each tax lot referenced in any document" (https://www.forchellilaw.com/announcements/supreme-court-judge-rules-nassau-county-tax-map-verification-fee-is-unconstitutional/;
    // "for each section, block and lot": https://www.abstractsinc.com/nassau-county-land-tax-map-verification-fee/);
    // the block fee is "$300 (per block reference)" (https://deeds.com/recorder/new-york/nassau).
    const details = netSheetDetailsSchema.parse({
      county: 'Nassau',
      closing_date: '2026-12-15',
      nassau_lots: 3,
      nassau_blocks: 2,
      liens: [
        { label: 'Mortgage', payoff: 300_000 },
        { label: 'HELOC', payoff: 20_000 },
      ],
    });
    const sheet = computeDetailedSheet(quick(900_000_00), details, fees, options);
    expect(amount(sheet, 'nassau_tax_map_verification')).toBe(1_620_00); // 2 liens × 3 lots × $270
    expect(amount(sheet, 'nassau_block_fee')).toBe(1_200_00); // 2 liens × 2 blocks × $300
    expect(amount(sheet, 'nassau_satisfaction_recording')).toBe(101_00); // 2 × $50.50, once per document
    expect(sheet.lines.find((line) => line.key === 'nassau_tax_map_verification')?.why).toBe('2 lien(s) × 3 lots');
    // One lot and one block unless given: today's sheet.
    const single = computeDetailedSheet(
      quick(900_000_00),
      netSheetDetailsSchema.parse({ ...details, nassau_lots: undefined, nassau_blocks: undefined }),
      fees,
      options,
    );
    expect(amount(single, 'nassau_tax_map_verification')).toBe(540_00);
    expect(amount(single, 'nassau_block_fee')).toBe(600_00);
    const refused = netSheetDetailsSchema.safeParse({ county: 'Nassau', nassau_lots: 2, nassau_blocks: 3 });
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['nassau_blocks', 'A property has no more blocks than lots'],
    ]);
  });

  it('sells a co-op with no recording: a UCC-3 per share loan, the co-op fees and its flip tax', () => {
    // A co-op transfer has no deed and no RP-5217 (tax.ny.gov RP-5217 Q&A: "co-op transfers" excluded);
    // UCC filing $40 (19 NYCRR 143-5.1); co-op attorney $500 (https://dmvequityrealestate.com/?page_id=200);
    // move-out deposit $500 and flip tax "1% to 3% of purchase price" (https://williamjfarmer.com/blog/2016/closing-costs-co-ops);
    // flip tax as a percent of the price, of the profit or per share (https://www.realestatelawqueens.com/first-priority/).
    const base = {
      property_type: 'coop',
      county: 'Nassau',
      closing_date: '2027-01-15',
      liens: [{ label: 'Share loan', payoff: 200_000 }],
    } as const;
    const sheetWith = (flip_tax: unknown) =>
      computeDetailedSheet(quick(600_000_00), netSheetDetailsSchema.parse({ ...base, flip_tax }), fees, options);
    const byPrice = sheetWith({ basis: 'price', percent: 2 });
    const keys = byPrice.lines.map((line) => line.key);
    for (const recorded of ['nassau_satisfaction_recording', 'nassau_block_fee', 'nassau_tax_map_verification'])
      expect(keys).not.toContain(recorded);
    for (const deed of ['recording_fee', 'rp5217_filing', 'tp584_filing']) expect(keys).not.toContain(deed);
    expect(amount(byPrice, 'coop_ucc3_filing')).toBe(40_00);
    expect(amount(byPrice, 'coop_transfer_agent')).toBe(500_00);
    expect(amount(byPrice, 'coop_move_out_deposit')).toBe(500_00);
    expect(amount(byPrice, 'flip_tax')).toBe(12_000_00); // 2 % of $600,000
    expect(amount(byPrice, 'transfer_tax')).toBe(2_400_00); // the NYS transfer tax still applies: 1,200 × $2
    // 2 % of the $200,000 profit over a $400,000 purchase; $5 × 1,200 shares.
    expect(amount(sheetWith({ basis: 'profit', percent: 2, purchase_price: '400,000' }), 'flip_tax')).toBe(4_000_00);
    expect(amount(sheetWith({ basis: 'profit', percent: 2, purchase_price: 700_000 }), 'flip_tax')).toBeUndefined();
    expect(amount(sheetWith({ basis: 'shares', dollars_per_share: 5, shares: 1_200 }), 'flip_tax')).toBe(6_000_00);
    // A condo keeps a house's lines.
    const condo = computeDetailedSheet(
      quick(600_000_00),
      netSheetDetailsSchema.parse({ ...base, property_type: 'condo', seller_pays_rp5217: true }),
      fees,
      options,
    );
    expect(amount(condo, 'nassau_tax_map_verification')).toBe(270_00);
    expect(amount(condo, 'rp5217_filing')).toBe(125_00);
    // The reverse solve carries a percent flip tax as the price moves.
    const details = netSheetDetailsSchema.parse({
      ...base,
      flip_tax: { basis: 'profit', percent: 3, purchase_price: 1 },
    });
    const solved = solveReverse(byPrice.net_cents, withoutPrice(quick(0)), details, fees, options);
    expect(solved.sheet.net_cents).toBeGreaterThanOrEqual(byPrice.net_cents);
    const issues = (raw: unknown) =>
      netSheetDetailsSchema.safeParse(raw).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ flip_tax: { basis: 'price', percent: 2 } })).toEqual([
      ['flip_tax', 'A flip tax applies to a co-op sale only'],
    ]);
    expect(issues({ property_type: 'coop', flip_tax: { basis: 'profit', percent: 2 } })).toEqual([
      ['flip_tax.purchase_price', 'Give what you paid, to figure the profit'],
    ]);
    expect(issues({ property_type: 'coop', nassau_lots: 2 })).toEqual([
      ['nassau_lots', 'A co-op records no satisfaction: no lots to verify'],
    ]);
    expect(issues({ property_type: 'coop', flip_tax: { basis: 'shares' } })).toEqual([
      ['flip_tax.dollars_per_share', 'Give the dollars per share'],
      ['flip_tax.shares', 'Give the number of shares'],
    ]);
  });

  it('reads a sheet basis stored before the co-op fees existed, with their defaults', () => {
    const older = Object.fromEntries(Object.entries(defaultFeeTable()).filter(([key]) => !key.startsWith('coop_')));
    const defaults = {
      listing_commission_percent: 3,
      buyer_agent_percent: 3,
      days_to_closing: 45,
      title_closer_pickup: true,
      payoff_bank_attorney: false,
      seller_pays_rp5217: false,
    };
    const basis = sheetBasisSchema.parse({ today: '2026-11-01', defaults, fees: older });
    expect(basis.fees.coop_ucc3_filing.cents).toBe(40_00);
    expect(basis.fees.nassau_block_fee).toEqual(defaultFeeTable().nassau_block_fee);
  });

  it('charges the final water bill the seller gives', () => {
    // The seller pays the bill of the final meter reading (NY contract ¶18:
    // https://betenskylaw.com/part-19-what-are-apportionments-and-other-adjustments-in-a-residential-contract-of-sale/;
    // the district reads the day before closing: https://www.jerichowater.org/information/final-readings/).
    const sheet = computeDetailedSheet(
      quick(780_200_00),
      netSheetDetailsSchema.parse({ final_water_bill: '184.37' }),
      fees,
      options,
    );
    const plain = computeDetailedSheet(quick(780_200_00), netSheetDetailsSchema.parse({}), fees, options);
    expect(amount(sheet, 'final_water_bill')).toBe(184_37);
    expect(plain.net_cents - sheet.net_cents).toBe(184_37);
    expect(netSheetDetailsSchema.safeParse({ final_water_bill: -5 }).success).toBe(false);
  });

  it('prorates a Suffolk bill by days of its whole Dec-Nov year, less the halves paid (decision 0038)', () => {
    const bill = { annual: 12_000_00, first_half_paid: true, second_half_paid: false };
    // Dec 1 2026 - Dec 1 2027 = 365 days; closing Mar 1: the seller's 90 days (closing day to the buyer).
    // $12,000 × 90 / 365 = $2,958.904 -> 295,890; less the 1st half paid, 600,000: -304,110 credited.
    expect(prorations('Suffolk', { suffolk: bill }, '2027-03-01')).toEqual([
      expect.objectContaining({ key: 'tax_suffolk', amount_cents: -304_110 }),
    ]);
    // Closing Aug 15 2027, nothing paid: the seller's 257 days, $12,000 × 257 / 365 = $8,449.315 -> 844,932.
    const unpaid = { ...bill, first_half_paid: false };
    expect(prorations('Suffolk', { suffolk: unpaid }, '2027-08-15').map((line) => line.amount_cents)).toEqual([
      844_932,
    ]);
    const details = netSheetDetailsSchema.parse({
      county: 'Suffolk',
      suffolk_lots: 2,
      closing_date: '2027-03-01',
      property_taxes: { suffolk: { annual: 12000, first_half_paid: true } },
    });
    const sheet = computeDetailedSheet(quick(600_000_00), details, fees, options);
    expect(amount(sheet, 'tax_suffolk')).toBe(-304_110);
    expect(amount(sheet, 'suffolk_mortgage_verification')).toBe(300_00);
    expect(amount(sheet, 'suffolk_satisfaction_recording')).toBe(60_00);
    expect(amount(sheet, 'suffolk_lot_verification')).toBe(400_00); // 1 lien × 2 lots × $200
  });

  it('refuses oversized amounts and lists, and keeps cents exact for amounts like 0.1 + 0.2', () => {
    expect(netSheetDetailsSchema.safeParse({ seller_concessions: 100_000_001 }).success).toBe(false);
    expect(netSheetDetailsSchema.safeParse({ other_lines: Array(21).fill({ name: 'x', amount: 1 }) }).success).toBe(
      false,
    );
    expect(netSheetDetailsSchema.safeParse({ liens: Array(5).fill({ label: 'x', payoff: 1 }) }).success).toBe(false);
    expect(netSheetDetailsSchema.safeParse({ buyer_agent_percent: 2.555 }).success).toBe(false);
    const details = netSheetDetailsSchema.parse({
      other_lines: [
        { name: 'Water', amount: 0.1 },
        { name: 'Cure', amount: 0.2 },
      ],
    });
    const sheet = computeDetailedSheet(quick(300_000_00), details, fees, options);
    expect([amount(sheet, 'other_1'), amount(sheet, 'other_2')]).toEqual([10, 20]);
  });
});
