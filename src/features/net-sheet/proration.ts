/**
 * Property taxes prorated to the closing date on each levy's own calendar (research §4):
 * Nassau school tax Jul-Jun and general tax Jan-Dec, each billed in halves that each cover their own
 * six months (the Receivers list each half's "period levy covers"); Suffolk ONE Dec 1-Nov 30 levy,
 * paid in two instalments (Jan 10, May 31) that are not periods: it is prorated by days of the whole
 * fiscal year, less what was paid (decision 0038); a village bill for a year from its fiscal start month.
 * Halves are whole cents, as a bill prints them: the 1st half is the annual amount's half rounded
 * down and the 2nd half the rest, so an odd cent is on the 2nd half (decision 0038).
 * Convention: the closing day belongs to the BUYER, so the seller's days in a period are those
 * before the closing date. A paid period credits the seller for the buyer's days; an unpaid one
 * charges the seller for their own days. Each line is (amount × days ÷ days in the period),
 * rounded once, half-up on the magnitude.
 */
import { money } from './sheet-money.ts';
import { divideRoundHalfUp } from './public/estimate.ts';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date (UTC, so no time zone moves a day). */
export const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
export const dayOf = (year: number, month: number) => Date.UTC(year, month - 1, 1) / DAY_MS;

export interface Proration {
  key: string;
  label: string;
  /** Positive: the seller pays; negative: the seller is credited. */
  amount_cents: number;
  why: string;
}

interface Period {
  start: number;
  end: number;
}

function prorate(key: string, label: string, cents: number, paid: boolean, period: Period, closing: number): Proration {
  const length = period.end - period.start;
  const sellerDays = Math.min(Math.max(closing - period.start, 0), length);
  const buyerDays = length - sellerDays;
  const amount = paid ? -divideRoundHalfUp(cents * buyerDays, length) : divideRoundHalfUp(cents * sellerDays, length);
  const why = paid
    ? `Paid: the buyer repays the seller for ${buyerDays} of ${length} days`
    : `Unpaid: the seller owes ${sellerDays} of ${length} days`;
  return { key, label, amount_cents: amount, why };
}

/** The start year of the fiscal year (starting in `startMonth`) that holds the closing date. */
export function fiscalYear(closingIso: string, startMonth: number): number {
  const [year = 0, month = 0] = closingIso.split('-').map(Number);
  return month >= startMonth ? year : year - 1;
}

export interface Halves {
  annual: number;
  first_half_paid: boolean;
  second_half_paid: boolean;
}

/** A bill's two printed halves in whole cents: the odd cent of an odd annual amount on the 2nd. */
export function printedHalves(annualCents: number): [number, number] {
  const first = Math.floor(annualCents / 2);
  return [first, annualCents - first];
}

export { money };

/**
 * Suffolk's Dec 1-Nov 30 bill: the seller's share is the bill times their days (closing day to the
 * buyer) over the fiscal year's days; the line is that share less the halves paid. Worked examples
 * in proration.test.ts (the net-sheet audit's D09, D31, D32, D34, D35).
 */
function suffolkProration(bill: Halves, closingIso: string): Proration {
  const year = fiscalYear(closingIso, 12);
  const start = dayOf(year, 12);
  const length = dayOf(year + 1, 12) - start;
  const sellerDays = Math.min(Math.max(dayNumber(closingIso) - start, 0), length);
  const share = divideRoundHalfUp(bill.annual * sellerDays, length);
  const [first, second] = printedHalves(bill.annual);
  const paid = (bill.first_half_paid ? first : 0) + (bill.second_half_paid ? second : 0);
  const paidText =
    bill.first_half_paid && bill.second_half_paid
      ? `both halves paid (${money(paid)})`
      : bill.first_half_paid
        ? `1st half paid (${money(paid)})`
        : bill.second_half_paid
          ? `2nd half paid (${money(paid)})`
          : 'nothing paid yet';
  return {
    key: 'tax_suffolk',
    label: 'Property tax proration',
    amount_cents: share - paid,
    why: `One Dec 1–Nov 30 bill: the seller's ${sellerDays} of ${length} days are ${money(share)}; ${paidText}`,
  };
}

function halvesOf(key: string, label: string, bill: Halves, startMonth: number, closingIso: string): Proration[] {
  const year = fiscalYear(closingIso, startMonth);
  const middle = startMonth + 6 > 12 ? dayOf(year + 1, startMonth - 6) : dayOf(year, startMonth + 6);
  const closing = dayNumber(closingIso);
  const [first, second] = printedHalves(bill.annual);
  // Said where it shows: an odd annual amount's halves differ by the cent the 2nd half carries.
  const billed = (cents: number) =>
    first === second ? '' : ` (${money(cents)} as billed; the odd cent is on the 2nd half)`;
  const lines = [
    prorate(
      `${key}_1`,
      `${label}, 1st half`,
      first,
      bill.first_half_paid,
      { start: dayOf(year, startMonth), end: middle },
      closing,
    ),
    prorate(
      `${key}_2`,
      `${label}, 2nd half`,
      second,
      bill.second_half_paid,
      { start: middle, end: dayOf(year + 1, startMonth) },
      closing,
    ),
  ];
  return lines.map((line, index) => ({ ...line, why: line.why + billed(index === 0 ? first : second) }));
}

export interface PropertyTaxes {
  nassau_school?: Halves;
  nassau_general?: Halves;
  suffolk?: Halves;
  village?: { annual: number; fiscal_year_start_month: number; paid: boolean };
}

/** The proration lines of a sale closing on `closingIso` (zero lines left out). */
export function prorations(
  county: 'Nassau' | 'Suffolk' | undefined,
  taxes: PropertyTaxes,
  closingIso: string,
): Proration[] {
  const lines: Proration[] = [];
  if (county === 'Nassau' && taxes.nassau_school)
    lines.push(...halvesOf('tax_nassau_school', 'School tax proration', taxes.nassau_school, 7, closingIso));
  if (county === 'Nassau' && taxes.nassau_general)
    lines.push(...halvesOf('tax_nassau_general', 'General tax proration', taxes.nassau_general, 1, closingIso));
  if (county === 'Suffolk' && taxes.suffolk) lines.push(suffolkProration(taxes.suffolk, closingIso));
  if (taxes.village) {
    const start = taxes.village.fiscal_year_start_month;
    const year = fiscalYear(closingIso, start);
    lines.push(
      prorate(
        'tax_village',
        'Village tax proration',
        taxes.village.annual,
        taxes.village.paid,
        { start: dayOf(year, start), end: dayOf(year + 1, start) },
        dayNumber(closingIso),
      ),
    );
  }
  return lines.filter((line) => line.amount_cents !== 0);
}
