/**
 * The sheet's general notes: the buyer's mansion tax and its cliff, the East End's Peconic Bay tax,
 * what may be withheld, and the disclaimer. Said beside the lines, never charged to the seller.
 */
import { divideRoundHalfUp } from './public/estimate.ts';
import type { NetSheetDetails } from './details.ts';
import type { FeeTable } from './fee-table-schema.ts';
import { peconicTax } from './peconic-tax.ts';
import { dollarsText } from './sheet-money.ts';

/** A note of the sheet, keyed so that a line or a more precise note can replace it. */
export interface SheetNote {
  key: string;
  text: string;
}

const MANSION_TAX_THRESHOLD_CENTS = 1_000_000_00;
/** A cliff note from 2 % below $1,000,000. */
const CLIFF_WINDOW_CENTS = 20_000_00;

const percentText = (percent: number) => `${percent.toLocaleString('en-US', { maximumFractionDigits: 4 })}%`;

/**
 * The East End note: the buyer's Peconic Bay tax as an amount (decision 0041). The buyer pays it, so
 * it is no line of the seller's; it is said because it weighs in negotiations.
 */
function peconicNote(price: number, details: NetSheetDetails | undefined, fees: FeeTable): string | undefined {
  const vacant = details?.vacant_land === true;
  const tax = peconicTax(price, details?.town, vacant, fees);
  if (!tax) return undefined;
  const place = details?.town?.trim() ?? tax.town;
  const where = place.toLowerCase() === tax.town.toLowerCase() ? `In ${tax.town}` : `In ${place} (Town of ${tax.town})`;
  const rates =
    tax.housingPercent > 0
      ? `${percentText(tax.preservationPercent)} Community Preservation Fund + ${percentText(tax.housingPercent)} Community Housing Fund`
      : `${percentText(tax.preservationPercent)} Community Preservation Fund (Riverhead has no housing fund tax)`;
  const base = tax.noExemption
    ? `the whole price, since above ${dollarsText(fees.peconic_exemption_ceiling.cents)} there is no exemption`
    : `${dollarsText(tax.taxableCents)}, the price less the ${dollarsText(tax.exemptionCents)} exemption for ${vacant ? 'vacant land' : 'improved property'}`;
  const firstTime =
    tax.town === 'Riverhead'
      ? ''
      : ' A first-time homebuyer within the income and price limits may be exempt (not figured here).';
  return (
    `${where} the buyer pays the Peconic Bay tax: ${rates} on ${base}, about ${dollarsText(tax.totalCents)}. ` +
    `Not a seller cost, but it weighs in negotiations.${firstTime}${tax.caveat ? ` ${tax.caveat}` : ''}`
  );
}

export function notesFor(price: number, details: NetSheetDetails | undefined, fees: FeeTable): SheetNote[] {
  const notes: SheetNote[] = [];
  if (price >= MANSION_TAX_THRESHOLD_CENTS) {
    notes.push({
      key: 'mansion_tax',
      text: `The buyer pays New York's 1% mansion tax (${dollarsText(divideRoundHalfUp(price, 100))}) at $1,000,000 or more; at $999,999 they would pay none.`,
    });
  } else if (price >= MANSION_TAX_THRESHOLD_CENTS - CLIFF_WINDOW_CENTS) {
    notes.push({
      key: 'mansion_tax_cliff',
      text: 'At $1,000,000 the buyer would owe the 1% mansion tax ($10,000 more than at $999,999): buyers often stop just below it.',
    });
  }
  const eastEnd = peconicNote(price, details, fees);
  if (eastEnd) notes.push({ key: 'east_end', text: eastEnd });
  notes.push(
    { key: 'firpta', text: 'A foreign seller may have up to 15% withheld by the buyer under FIRPTA.' },
    {
      key: 'it2663',
      text: 'A seller who is not a New York resident pays estimated tax on the gain (form IT-2663) at closing.',
    },
    { key: 'disclaimer', text: 'An estimate, not legal or tax advice: your attorney will confirm each figure.' },
  );
  return notes;
}
