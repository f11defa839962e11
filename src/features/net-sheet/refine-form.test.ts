import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from '../../ui/field-errors.ts';
import { netSheetDetailsSchema } from './details.ts';
import { detailsFrom, dollarsText, draftFrom, emptyLien, formFieldKey } from './refine-form.ts';

const defaults = {
  listing_commission_percent: 3,
  buyer_agent_percent: 3,
  closing_date: '2027-01-07',
  title_closer_pickup: true,
  payoff_bank_attorney: false,
  seller_pays_rp5217: false,
};
const estimate = { mortgage_payoff: 450_000 };

describe('the refine form of a quick estimate', () => {
  // Issue 22 (newcomer audit M4a): the quick sheet has no title-closer pick-up, so the form starts
  // without it and says so; refining unchanged nets what the quick estimate nets.
  it('starts with the estimate’s payoff as the first lien and none of the fees it never had, and sends that', () => {
    const draft = draftFrom(estimate, null, defaults);
    expect(draft.liens).toEqual([{ label: 'Mortgage', payoff: '450,000', per_diem_interest: '', payoff_date: '' }]);
    expect(draft.switches).toEqual({
      title_closer_pickup: false,
      payoff_bank_attorney: false,
      seller_pays_rp5217: false,
    });
    expect(draft.listing_commission_percent).toBe('');
    expect(detailsFrom(draft, defaults)).toEqual({
      liens: [{ label: 'Mortgage', payoff: '450,000' }],
      title_closer_pickup: false,
    });
  });

  it('starts with no lien when the estimate has no payoff, and then sends only the switch it differs on', () => {
    const draft = draftFrom({ mortgage_payoff: 0 }, null, defaults);
    expect(draft.liens).toEqual([]);
    expect(detailsFrom(draft, defaults)).toEqual({ title_closer_pickup: false });
  });
});

describe('the details the form sends', () => {
  it('leave out blank rows, unchanged switches and the other county’s taxes', () => {
    const draft = draftFrom(estimate, null, defaults);
    draft.liens.push(emptyLien());
    draft.other_lines.push(
      { name: '', amount: ' ', unit: 'dollars', credit: false },
      { name: 'Roof repair', amount: '2,500', unit: 'dollars', credit: false },
      { name: 'Fuel oil in the tank', amount: '612.40', unit: 'dollars', credit: true },
      { name: 'Flip tax', amount: '2', unit: 'percent', credit: false },
    );
    draft.county = 'Nassau';
    draft.suffolk.annual = '9,000';
    draft.suffolk_lots = '2';
    draft.nassau_lots = '3';
    draft.nassau_school = { annual: '10,000', first_half_paid: true, second_half_paid: false };
    draft.switches.payoff_bank_attorney = true;
    draft.switches.title_closer_pickup = true;
    draft.listing_commission_percent = '2.5';
    draft.attorney_fee = ' 1,800 ';
    // A flip tax typed, then the type changed back: not sent (only a co-op has one).
    draft.flip_tax = { basis: 'price', percent: '2', purchase_price: '', dollars_per_share: '', shares: '' };
    expect(detailsFrom(draft, defaults)).toEqual({
      listing_commission_percent: 2.5,
      attorney_fee: '1,800',
      liens: [{ label: 'Mortgage', payoff: '450,000' }],
      county: 'Nassau',
      nassau_lots: 3,
      payoff_bank_attorney: true,
      property_taxes: { nassau_school: { annual: '10,000', first_half_paid: true, second_half_paid: false } },
      other_lines: [
        { name: 'Roof repair', amount: '2,500' },
        { name: 'Fuel oil in the tank', amount: '612.40', credit: true },
        { name: 'Flip tax', percent: 2 },
      ],
    });
  });

  it('come back as the same form from the stored details', () => {
    const sent = {
      listing_commission_percent: 2.75,
      buyer_agent_percent: 2.25,
      seller_concessions: '5,000',
      attorney_fee: '2,250',
      liens: [
        { label: 'First mortgage', payoff: '312,456.78', per_diem_interest: '41.10', payoff_date: '2026-12-01' },
        { label: 'Home equity line', payoff: '40,000' },
      ],
      closing_date: '2027-02-15',
      county: 'Suffolk',
      town: 'Southampton',
      suffolk_lots: 2,
      seller_pays_rp5217: true,
      title_closer_pickup: false,
      property_taxes: {
        suffolk: { annual: '12,001', first_half_paid: true, second_half_paid: false },
        village: { annual: '3,000', fiscal_year_start_month: 3, paid: true },
      },
      property_type: 'condo',
      final_water_bill: '212.90',
      other_lines: [
        { name: 'Final water bill', amount: '180.50' },
        { name: 'Fuel oil in the tank', amount: '612.40', credit: true },
        { name: 'Flip tax', percent: 2.5 },
      ],
    };
    const draft = draftFrom(estimate, sent, defaults);
    expect(draft.liens[0]).toEqual({
      label: 'First mortgage',
      payoff: '312,456.78',
      per_diem_interest: '41.10',
      payoff_date: '2026-12-01',
    });
    expect(draft.switches).toEqual({
      title_closer_pickup: false,
      payoff_bank_attorney: false,
      seller_pays_rp5217: true,
    });
    expect(netSheetDetailsSchema.parse(detailsFrom(draft, defaults))).toEqual(netSheetDetailsSchema.parse(sent));
  });

  it('come back as the same form for a co-op with its flip tax, and leave out its lots', () => {
    const sent = {
      property_type: 'coop',
      county: 'Nassau',
      flip_tax: { basis: 'profit', percent: 2, purchase_price: '300,000' },
    };
    const draft = draftFrom(estimate, sent, defaults);
    expect(draft.flip_tax).toMatchObject({ basis: 'profit', percent: '2', purchase_price: '300,000' });
    draft.nassau_lots = '2';
    expect(netSheetDetailsSchema.parse(detailsFrom(draft, defaults))).toEqual(
      netSheetDetailsSchema.parse({ ...sent, liens: [{ label: 'Mortgage', payoff: '450,000' }] }),
    );
  });

  it('send the taxes withheld at closing only when ticked, and come back as the same form', () => {
    const empty = draftFrom(estimate, null, defaults);
    expect(detailsFrom(empty, defaults)).not.toHaveProperty('foreign_seller');
    const draft = {
      ...empty,
      withholding: {
        foreign_seller: true,
        buyer_residence: true,
        nonresident_seller: true,
        cost_basis: '412,500',
        principal_residence: false,
        buyer_exempt_from_mansion_tax: true,
      },
    };
    const sent = detailsFrom(draft, defaults);
    expect(sent).toMatchObject({
      foreign_seller: { buyer_residence: true },
      nonresident_seller: { cost_basis: '412,500', principal_residence: false },
      buyer_exempt_from_mansion_tax: true,
    });
    expect(draftFrom(estimate, sent, defaults).withholding).toEqual(draft.withholding);
    expect(netSheetDetailsSchema.parse(sent).nonresident_seller?.cost_basis).toBe(412_500_00);
    // A principal residence sends no cost basis: the sheet would not use it (and the API refuses both).
    const residence = { ...draft, withholding: { ...draft.withholding, principal_residence: true } };
    expect(detailsFrom(residence, defaults).nonresident_seller).toEqual({ principal_residence: true });
  });

  // Issue 22, part F: a co-op owner gets no tax bill (the co-op pays it from the maintenance), yet a
  // co-op's Nassau or Suffolk taxes were prorated as if the seller paid them; its Suffolk lots were
  // accepted and ignored. The form sends neither, and the API refuses both with what to do.
  it('send no property taxes, lots or RP-5217 for a co-op, whatever was typed before the type was chosen', () => {
    const draft = draftFrom(estimate, { county: 'Suffolk' }, defaults);
    draft.suffolk.annual = '12,000';
    draft.suffolk_lots = '3';
    draft.village.annual = '2,000';
    draft.switches.seller_pays_rp5217 = true;
    draft.property_type = 'coop';
    const sent = detailsFrom(draft, defaults);
    expect(sent).not.toHaveProperty('property_taxes');
    expect(sent).not.toHaveProperty('suffolk_lots');
    expect(sent).not.toHaveProperty('seller_pays_rp5217');
    expect(netSheetDetailsSchema.safeParse(sent).success).toBe(true);
  });

  it('are refused for a co-op by the API, each with what to do', () => {
    const parsed = netSheetDetailsSchema.safeParse({
      property_type: 'coop',
      county: 'Suffolk',
      suffolk_lots: 3,
      seller_pays_rp5217: true,
      property_taxes: { suffolk: { annual: 12000 }, village: { annual: 2000, fiscal_year_start_month: 6 } },
    });
    expect(parsed.success).toBe(false);
    const coopTaxes =
      'A co-op owner gets no property tax bill: the co-op pays it from the maintenance. Leave property taxes empty for a co-op';
    expect(parsed.error && fieldErrorsOf(parsed.error)).toEqual({
      'property_taxes.suffolk.annual': coopTaxes,
      'property_taxes.village.annual': coopTaxes,
      suffolk_lots: 'A co-op records no satisfaction: no lots to verify',
      seller_pays_rp5217: 'A co-op has no deed and no RP-5217: leave it off for a co-op',
    });
    const nassau = netSheetDetailsSchema.safeParse({
      property_type: 'coop',
      county: 'Nassau',
      property_taxes: { nassau_school: { annual: 9000 }, nassau_general: { annual: 3000 } },
    });
    expect(nassau.error && Object.keys(fieldErrorsOf(nassau.error))).toEqual([
      'property_taxes.nassau_school.annual',
      'property_taxes.nassau_general.annual',
    ]);
  });

  it('name each wrong field by the path the form shows its error under', () => {
    const draft = draftFrom(estimate, null, defaults);
    draft.liens.push({ label: 'HELOC', payoff: 'lots', per_diem_interest: '', payoff_date: '' });
    draft.listing_commission_percent = 'three';
    draft.other_lines.push({ name: '', amount: '900', unit: 'dollars', credit: false });
    draft.other_lines.push({ name: 'Flip tax', amount: '', unit: 'percent', credit: false });
    const parsed = netSheetDetailsSchema.safeParse(detailsFrom(draft, defaults));
    expect(parsed.success).toBe(false);
    expect(parsed.error && fieldErrorsOf(parsed.error)).toEqual({
      listing_commission_percent: 'Listing commission must be a number',
      'liens.1.payoff': 'Payoff must be a dollar amount, like 450,000',
      'other_lines.0.name': 'Line name is required',
      'other_lines.1.amount': 'Give either an amount in dollars or a percent of the price',
    });
    expect(formFieldKey('details.liens.1.payoff')).toBe('liens.1.payoff');
  });
});

describe('dollarsText', () => {
  it('shows whole dollars without cents and cents with two digits', () => {
    expect(dollarsText(450_000_00)).toBe('450,000');
    expect(dollarsText(1_234_50)).toBe('1,234.50');
    expect(dollarsText(7)).toBe('0.07');
  });
});

describe('the East End vacant-land choice', () => {
  it('is sent only for a place in the five Peconic towns, and read back from stored details', () => {
    const draft = draftFrom(estimate, null, defaults);
    expect(detailsFrom({ ...draft, town: 'Montauk', vacant_land: true }, defaults)).toMatchObject({
      town: 'Montauk',
      vacant_land: true,
    });
    expect(detailsFrom({ ...draft, town: 'Islip', vacant_land: true }, defaults)).not.toHaveProperty('vacant_land');
    expect(draftFrom(estimate, { town: 'Orient', vacant_land: true }, defaults).vacant_land).toBe(true);
  });
});

describe('the town an estimate link carries from a town page', () => {
  it('fills the town and its county when it is a town of the list, and nothing otherwise', async () => {
    const { placeFromLink } = await import('./county.ts');
    expect(placeFromLink('?town=Montauk')).toEqual({ town: 'Montauk', county: 'Suffolk' });
    expect(placeFromLink('?town=Westhampton%20Beach')).toEqual({ town: 'Westhampton Beach', county: 'Suffolk' });
    expect(placeFromLink('?town=Atlantis')).toBeUndefined();
    expect(placeFromLink('')).toBeUndefined();
  });
});
