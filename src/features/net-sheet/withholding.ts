/**
 * Taxes taken from the seller's proceeds at closing when the seller says they apply (issue 22,
 * decision 0042; research: docs/research/withholding-and-mansion-tax.md):
 * - FIRPTA: the buyer withholds for the IRS from a foreign seller (IRC §1445);
 * - IT-2663 (IT-2664 for a co-op): a New York nonresident seller's estimated tax on the gain (Tax Law §663);
 * - the mansion tax (Tax Law §1402-a), which the seller pays when the buyer is exempt from it.
 * FIRPTA and IT-2663 are prepayments of the seller's income tax, credited on their returns: costs at
 * closing all the same. Each is a step function of the price (reverse.ts splits the price axis there).
 */
import { dollarsText } from './sheet-money.ts';
import type { FeeTable } from './fee-table-schema.ts';
import { divideRoundHalfUp } from './public/estimate.ts';
import type { NetSheetDetails } from './details.ts';
import type { SheetLine } from './sheet-line.ts';

const CHECKED = '2026-11-26';

/**
 * The rates these lines read: the site's rate table in force (li-fees.ts, editable by the admin,
 * each with its source), passed in with the fees like every other figure of the sheet.
 */
export type WithholdingRates = Pick<
  FeeTable,
  'firpta_rate' | 'firpta_residence_rate' | 'nys_nonresident_estimated_tax_rate' | 'mansion_tax_rate'
>;

/** Dollar thresholds set by statute (not settings: the reverse solve splits the price axis at them). */
export const WITHHOLDING_THRESHOLDS = {
  firpta_residence_exempt_up_to: {
    label: "No FIRPTA withholding on a buyer's residence up to",
    cents: 300_000_00,
    checked: CHECKED,
    source: 'https://www.irs.gov/individuals/international-taxpayers/exceptions-from-firpta-withholding',
  },
  firpta_residence_reduced_up_to: {
    label: "FIRPTA at the reduced rate on a buyer's residence up to",
    cents: 1_000_000_00,
    checked: CHECKED,
    source: 'https://www.irs.gov/individuals/international-taxpayers/firpta-withholding',
  },
  mansion_tax_from: {
    label: 'Mansion tax from a consideration of',
    cents: 1_000_000_00,
    checked: CHECKED,
    source: 'https://www.nysenate.gov/legislation/laws/TAX/1402-A',
  },
} as const;

/** cents × percent (up to 4 decimals), rounded half-up once. */
const percentOf = (cents: number, percent: number) =>
  divideRoundHalfUp(cents * Math.round(percent * 10_000), 100 * 10_000);

/**
 * Whole-dollar prices where a line of this module changes its rate: each is the LAST price of its
 * side (FIRPTA's 0 % covers "not more than $300,000", its 10 % "not more than $1,000,000"; the
 * mansion tax starts AT $1,000,000, so $999,999 is the last price without it). The reverse solve
 * searches the intervals between them one after the other (reverse.ts).
 */
export const STEP_LAST_DOLLARS: readonly number[] = [
  WITHHOLDING_THRESHOLDS.firpta_residence_exempt_up_to.cents / 100,
  WITHHOLDING_THRESHOLDS.mansion_tax_from.cents / 100 - 1,
  WITHHOLDING_THRESHOLDS.firpta_residence_reduced_up_to.cents / 100,
];

/** The mansion tax the SELLER pays: only when the buyer is exempt (§1402-a(b)), at $1,000,000 or more. */
export function sellerMansionTaxCents(
  priceCents: number,
  details: NetSheetDetails | undefined,
  rates: WithholdingRates,
): number {
  if (details?.buyer_exempt_from_mansion_tax !== true) return 0;
  if (priceCents < WITHHOLDING_THRESHOLDS.mansion_tax_from.cents) return 0;
  return percentOf(priceCents, rates.mansion_tax_rate.percent);
}

/** FIRPTA's rate at a price, in percent (0 when the seller is not foreign). */
export function firptaPercent(
  priceCents: number,
  details: NetSheetDetails | undefined,
  rates: WithholdingRates,
): number {
  const foreign = details?.foreign_seller;
  if (!foreign) return 0;
  if (!foreign.buyer_residence) return rates.firpta_rate.percent;
  if (priceCents <= WITHHOLDING_THRESHOLDS.firpta_residence_exempt_up_to.cents) return 0;
  if (priceCents <= WITHHOLDING_THRESHOLDS.firpta_residence_reduced_up_to.cents)
    return rates.firpta_residence_rate.percent;
  return rates.firpta_rate.percent;
}

/** The buyer's FIRPTA withholding, of the amount realized (the price). */
export const firptaCents = (
  priceCents: number,
  details: NetSheetDetails | undefined,
  rates: WithholdingRates,
): number => percentOf(priceCents, firptaPercent(priceCents, details, rates));

/**
 * The gain as the form's worksheet figures it: line 15 (sale price less selling expenses) less line
 * 16 (adjusted basis; 0 when the seller gave none, decision 0042), and 0 for a loss (line 17).
 */
export function nonresidentGainCents(
  priceCents: number,
  sellingExpensesCents: number,
  details: NetSheetDetails | undefined,
): number {
  const basis = details?.nonresident_seller?.cost_basis ?? 0;
  return Math.max(priceCents - sellingExpensesCents - basis, 0);
}

/** The estimated tax (worksheet line 20: the gain × the rate of line 19); none for a principal residence. */
export function nonresidentTaxCents(
  priceCents: number,
  sellingExpensesCents: number,
  details: NetSheetDetails | undefined,
  rates: WithholdingRates,
): number {
  const seller = details?.nonresident_seller;
  if (!seller || seller.principal_residence) return 0;
  return percentOf(
    nonresidentGainCents(priceCents, sellingExpensesCents, details),
    rates.nys_nonresident_estimated_tax_rate.percent,
  );
}

/** Lines that are selling expenses on the form's line 15; a co-op's refundable move-out deposit is not one. */
const NOT_SELLING_EXPENSES = new Set(['coop_move_out_deposit']);

/**
 * The selling expenses of a sheet's lines: commissions, transfer taxes, the attorney's and the
 * closing fees (a flip tax included) and the concessions, which lower what the seller realizes.
 * Payoffs, prorations, the water bill and the seller's other lines are not costs of selling.
 */
export function sellingExpensesCents(lines: readonly SheetLine[]): number {
  return lines
    .filter(
      (line) =>
        ((line.group === 'commission' || line.group === 'tax' || line.group === 'fee') &&
          !NOT_SELLING_EXPENSES.has(line.key)) ||
        line.key === 'seller_concessions',
    )
    .reduce((sum, line) => sum + line.amount_cents, 0);
}

/** The seller's mansion-tax line (in the tax group, beside the transfer tax), if any. */
export function mansionTaxLine(
  priceCents: number,
  details: NetSheetDetails | undefined,
  rates: WithholdingRates,
): SheetLine[] {
  const cents = sellerMansionTaxCents(priceCents, details, rates);
  if (cents === 0) return [];
  return [
    {
      key: 'mansion_tax',
      label: `Mansion tax (${rates.mansion_tax_rate.percent}%)`,
      amount_cents: cents,
      why: '1% of the price at $1,000,000 or more: the buyer is exempt, so the seller pays it (Tax Law §1402-a(b))',
      group: 'tax',
    },
  ];
}

/** The withholding group's lines at a price, given the sheet's selling expenses there. */
export function withholdingLines(
  priceCents: number,
  sellingExpenses: number,
  details: NetSheetDetails | undefined,
  rates: WithholdingRates,
): SheetLine[] {
  const lines: SheetLine[] = [];
  const firpta = firptaPercent(priceCents, details, rates);
  if (firpta > 0)
    lines.push({
      key: 'firpta_withholding',
      label: `FIRPTA withholding (${firpta}%)`,
      amount_cents: firptaCents(priceCents, details, rates),
      why: `The buyer withholds ${firpta}% of the price for the IRS (Form 8288): a prepayment credited on the seller's US return; an IRS withholding certificate can lower it`,
      group: 'withholding',
    });
  const seller = details?.nonresident_seller;
  if (seller && !seller.principal_residence) {
    const gain = nonresidentGainCents(priceCents, sellingExpenses, details);
    const rate = rates.nys_nonresident_estimated_tax_rate.percent;
    const form = details?.property_type === 'coop' ? 'IT-2664' : 'IT-2663';
    const basis =
      seller.cost_basis === undefined
        ? 'a cost basis of $0 (none given: give what you paid plus improvements to lower it)'
        : `the cost basis ${dollarsText(seller.cost_basis)}`;
    lines.push({
      key: 'nys_estimated_tax',
      label: `NY nonresident estimated tax (${form}, ${rate}%)`,
      amount_cents: nonresidentTaxCents(priceCents, sellingExpenses, details, rates),
      why: `${rate}% of the gain ${dollarsText(gain)}: the price less selling expenses (${dollarsText(sellingExpenses)}) less ${basis}; paid when the deed is recorded, credited on the seller's NY return`,
      group: 'withholding',
    });
  }
  return lines;
}

/** What the sheet says in words about these lines (a zero line is left off the sheet, so its reason is a note). */
export function withholdingNotes(
  priceCents: number,
  sellingExpenses: number,
  details: NetSheetDetails | undefined,
  rates: WithholdingRates,
): { key: string; text: string }[] {
  const notes: { key: string; text: string }[] = [];
  if (details?.foreign_seller && firptaPercent(priceCents, details, rates) === 0)
    notes.push({
      key: 'firpta',
      text: 'No FIRPTA withholding: the buyer will live in the home and the price is $300,000 or less (the buyer signs a statement that they will).',
    });
  const seller = details?.nonresident_seller;
  if (seller?.principal_residence)
    notes.push({
      key: 'it2663',
      text: "No New York estimated tax: the home fully qualifies as the seller's principal residence (IRC §121), certified on the nonresident form at closing.",
    });
  else if (seller && nonresidentGainCents(priceCents, sellingExpenses, details) === 0)
    notes.push({
      key: 'it2663',
      text: 'No New York estimated tax: the price less selling expenses does not exceed the cost basis (the nonresident form is still filed).',
    });
  if (details?.buyer_exempt_from_mansion_tax && priceCents < WITHHOLDING_THRESHOLDS.mansion_tax_from.cents)
    notes.push({
      key: 'mansion_tax_cliff',
      text: 'The buyer is exempt from the mansion tax, so at $1,000,000 or more the seller would pay its 1% ($10,000 at $1,000,000); below it there is none.',
    });
  return notes;
}
