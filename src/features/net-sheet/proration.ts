/**
 * Property taxes prorated to the closing date on each levy's own calendar (research §4):
 * Nassau school tax Jul-Jun and general tax Jan-Dec, each billed in halves; Suffolk one Dec-Nov bill
 * in halves (Dec-May, Jun-Nov); a village bill for a year from its fiscal start month.
 * Convention: the closing day belongs to the BUYER, so the seller's days in a period are those
 * before the closing date. A paid period credits the seller for the buyer's days; an unpaid one
 * charges the seller for their own days. Each line is (amount × days ÷ days in the period),
 * rounded once, half-up on the magnitude.
 */
import { divideRoundHalfUp } from '../estimate/estimate.ts';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date (UTC, so no time zone moves a day). */
export const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const dayOf = (year: number, month: number) => Date.UTC(year, month - 1, 1) / DAY_MS;

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
function fiscalYear(closingIso: string, startMonth: number): number {
  const [year = 0, month = 0] = closingIso.split('-').map(Number);
  return month >= startMonth ? year : year - 1;
}

interface Halves {
  annual: number;
  first_half_paid: boolean;
  second_half_paid: boolean;
}

function halvesOf(key: string, label: string, bill: Halves, startMonth: number, closingIso: string): Proration[] {
  const year = fiscalYear(closingIso, startMonth);
  const middle = startMonth + 6 > 12 ? dayOf(year + 1, startMonth - 6) : dayOf(year, startMonth + 6);
  const closing = dayNumber(closingIso);
  // The second half gets the odd cent of an odd annual amount.
  const first = Math.floor(bill.annual / 2);
  return [
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
      bill.annual - first,
      bill.second_half_paid,
      { start: middle, end: dayOf(year + 1, startMonth) },
      closing,
    ),
  ];
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
  if (county === 'Suffolk' && taxes.suffolk)
    lines.push(...halvesOf('tax_suffolk', 'Property tax proration', taxes.suffolk, 12, closingIso));
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
