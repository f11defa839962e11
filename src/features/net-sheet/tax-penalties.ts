/**
 * Penalties on a property-tax half left unpaid past its penalty-free window at the closing date
 * (issue 22; decision 0043; sources in docs/research/tax-penalties.md). The seller owes them: they
 * accrued on the seller's watch, and the half is paid at closing with its penalty out of the proceeds.
 *
 * Nassau (the towns' Receivers, then the County Treasurer): each half is due on the 1st of its month
 * and payable without penalty until the 10th of the next; after that 1 % for each calendar month from
 * the due month, the due month counted (Hempstead: school 1st half Nov 11-30 2 %, Dec 3 % … May 8 %).
 * Once the levy closes (school after May 31, general after Aug 31) the Treasurer adds an unpublished
 * charge: we keep counting 1 % a month and warn that the Treasurer's figure may be higher.
 *
 * Suffolk (Suffolk County Tax Act §13, §13-a, §13-c; the towns' Receivers): the 1st half is payable
 * without penalty until January 10, then 1 % for each month or part of a month after it (5 % May
 * 11-31); the 2nd half until May 31. After May 31 the unpaid tax goes to the County Comptroller: 5 %
 * penalty, plus interest of 1 % for each month or part from February 1 on the tax and the penalty.
 *
 * Villages set their own due dates and penalties: none is sourced, so no village penalty line.
 * Each amount is a percent of the half as printed, rounded once to the cent, half-up (no Receiver
 * publishes its rounding); the Suffolk Comptroller's penalty and interest are each rounded so.
 */
import { divideRoundHalfUp } from './public/estimate.ts';
import type { FeeTable } from './fee-table-schema.ts';
import { longDate } from './long-date.ts';
import { dayNumber, fiscalYear, money, printedHalves, type Halves, type PropertyTaxes } from './proration.ts';

/**
 * The rates these penalties read: the site's rate table in force (li-fees.ts, each with its source;
 * decision 0043), passed in with the fees like every other figure of the sheet.
 */
export type PenaltyRates = Pick<
  FeeTable,
  | 'penalty_nassau_monthly'
  | 'penalty_suffolk_first_half_monthly'
  | 'penalty_suffolk_comptroller_penalty'
  | 'penalty_suffolk_comptroller_monthly'
>;

interface MonthDay {
  month: number;
  day: number;
}

/** The day-of-month boundaries of each schedule, read from one place (sources as for the rates). */
export const TAX_PENALTY_DATES = {
  /** Nassau: due on the 1st of `due`; the last penalty-free day the 10th of the month after. */
  nassau_school: {
    first: { due: { month: 10, day: 1 }, last_free: { month: 11, day: 10 } },
    second: { due: { month: 4, day: 1 }, last_free: { month: 5, day: 10 } },
    /** The Receivers collect through this day; then the Nassau County Treasurer. */
    levy_closes: { month: 5, day: 31 },
  },
  nassau_general: {
    first: { due: { month: 1, day: 1 }, last_free: { month: 2, day: 10 } },
    second: { due: { month: 7, day: 1 }, last_free: { month: 8, day: 10 } },
    levy_closes: { month: 8, day: 31 },
  },
  suffolk: {
    first_last_free: { month: 1, day: 10 },
    /** Also the last day the town Receiver collects; then the County Comptroller. */
    second_last_free: { month: 5, day: 31 },
    comptroller_interest_from: { month: 2, day: 1 },
    /** §13-a(3): from this day the Comptroller also adds the cost of advertising the tax sale (unpublished). */
    advertising_from: { month: 9, day: 1 },
  },
} as const;

export interface TaxPenalty {
  key: string;
  label: string;
  amount_cents: number;
  why: string;
  /** The paid-box of the half it is about, as the request names it. */
  field: string;
  /** "The 1st half of the school tax", for the warning. */
  half_name: string;
  last_free_iso: string;
  /** Said in the warning when the town's Receiver no longer collects it: who does, and what we cannot know. */
  collector_note?: string;
}

const iso = (year: number, { month, day }: MonthDay) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
const parts = (isoDate: string): [number, number, number] => {
  const [year = 0, month = 0, day = 0] = isoDate.split('-').map(Number);
  return [year, month, day];
};
const percentText = (percent: number) => `${Number(percent.toFixed(4))}%`;
const monthsText = (months: number) => `${months} ${months === 1 ? 'month' : 'months'}`;

/** Calendar months from the month of `from` to the month of `to`, both counted (Oct 1 → Nov 11: 2). */
function calendarMonthsCounted(fromIso: string, toIso: string): number {
  const [fromYear, fromMonth] = parts(fromIso);
  const [toYear, toMonth] = parts(toIso);
  return (toYear - fromYear) * 12 + (toMonth - fromMonth) + 1;
}

/** Months or parts of a month after `fromIso` up to `toIso` (after Jan 10: Jan 11 → 1, Feb 11 → 2). */
function monthsOrPartAfter(fromIso: string, toIso: string): number {
  const [fromYear, fromMonth, fromDay] = parts(fromIso);
  const [toYear, toMonth, toDay] = parts(toIso);
  return (toYear - fromYear) * 12 + (toMonth - fromMonth) + (toDay > fromDay ? 1 : 0);
}

/** `percent` × `times` of `cents`, rounded once to the cent, half-up. */
const percentOf = (cents: number, percent: number, times = 1) =>
  divideRoundHalfUp(cents * Math.round(percent * 10_000) * times, 100 * 10_000);

const ORDINAL = ['1st', '2nd'] as const;

function nassauPenalties(
  levy: 'nassau_school' | 'nassau_general',
  bill: Halves,
  closingIso: string,
  rates: PenaltyRates,
): TaxPenalty[] {
  const schedule = TAX_PENALTY_DATES[levy];
  const startMonth = levy === 'nassau_school' ? 7 : 1;
  const year = fiscalYear(closingIso, startMonth);
  const yearOf = (month: number) => (month >= startMonth ? year : year + 1);
  const levyName = levy === 'nassau_school' ? 'school tax' : 'general tax';
  const rate = rates.penalty_nassau_monthly.percent;
  const halves = printedHalves(bill.annual);
  const closing = dayNumber(closingIso);
  return ([schedule.first, schedule.second] as const).flatMap((half, index) => {
    const paid = index === 0 ? bill.first_half_paid : bill.second_half_paid;
    const dueIso = iso(yearOf(half.due.month), half.due);
    const lastFreeIso = iso(yearOf(half.last_free.month), half.last_free);
    if (paid || closing <= dayNumber(lastFreeIso)) return [];
    const cents = halves[index] ?? 0;
    const months = calendarMonthsCounted(dueIso, closingIso);
    const closesIso = iso(yearOf(schedule.levy_closes.month), schedule.levy_closes);
    const closed = closing > dayNumber(closesIso);
    const ordinal = ORDINAL[index] ?? '';
    return [
      {
        key: `tax_${levy}_${index + 1}_penalty`,
        label: `Penalty on the overdue ${levyName}, ${ordinal} half`,
        amount_cents: percentOf(cents, rate, months),
        why:
          `Payable without penalty until ${longDate(lastFreeIso)}; then ${percentText(rate)} a month from ` +
          `${longDate(dueIso)}, the due date: ${monthsText(months)} to the closing, ${percentText(rate * months)} of ${money(cents)}` +
          (closed
            ? `. The levy closed ${longDate(closesIso)}: the Nassau County Treasurer collects it and may add a charge not included here`
            : ''),
        field: `property_taxes.${levy}.${index === 0 ? 'first' : 'second'}_half_paid`,
        half_name: `The ${ordinal} half of the ${levyName}`,
        last_free_iso: lastFreeIso,
        ...(closed
          ? {
              collector_note:
                'It is now paid to the Nassau County Treasurer, who may add a charge of its own: ask for its figure.',
            }
          : {}),
      },
    ];
  });
}

function suffolkPenalties(bill: Halves, closingIso: string, rates: PenaltyRates): TaxPenalty[] {
  const dates = TAX_PENALTY_DATES.suffolk;
  // The fiscal year starts December 1 of `year`; its deadlines fall in the year after.
  const year = fiscalYear(closingIso, 12) + 1;
  const closing = dayNumber(closingIso);
  const secondLastFreeIso = iso(year, dates.second_last_free);
  const comptroller = closing > dayNumber(secondLastFreeIso);
  const halves = printedHalves(bill.annual);
  return ([bill.first_half_paid, bill.second_half_paid] as const).flatMap((paid, index) => {
    const lastFreeIso = index === 0 ? iso(year, dates.first_last_free) : secondLastFreeIso;
    if (paid || closing <= dayNumber(lastFreeIso)) return [];
    const cents = halves[index] ?? 0;
    const ordinal = ORDINAL[index] ?? '';
    const common = {
      key: `tax_suffolk_${index + 1}_penalty`,
      label: `Penalty on the overdue property tax, ${ordinal} half`,
      field: `property_taxes.suffolk.${index === 0 ? 'first' : 'second'}_half_paid`,
      half_name: `The ${ordinal} half of the property tax`,
      last_free_iso: lastFreeIso,
    };
    if (!comptroller) {
      const rate = rates.penalty_suffolk_first_half_monthly.percent;
      const months = monthsOrPartAfter(lastFreeIso, closingIso);
      return [
        {
          ...common,
          amount_cents: percentOf(cents, rate, months),
          why:
            `Payable without penalty until ${longDate(lastFreeIso)}; then ${percentText(rate)} for each month or part ` +
            `of a month after it: ${monthsText(months)} to the closing, ${percentText(rate * months)} of ${money(cents)}`,
        },
      ];
    }
    const penaltyRate = rates.penalty_suffolk_comptroller_penalty.percent;
    const interestRate = rates.penalty_suffolk_comptroller_monthly.percent;
    const interestFromIso = iso(year, dates.comptroller_interest_from);
    const months = calendarMonthsCounted(interestFromIso, closingIso);
    const penalty = percentOf(cents, penaltyRate);
    const interest = percentOf(cents + penalty, interestRate, months);
    return [
      {
        ...common,
        amount_cents: penalty + interest,
        why:
          `Unpaid after ${longDate(secondLastFreeIso)}, so payable to the Suffolk County Comptroller: ` +
          `${percentText(penaltyRate)} of ${money(cents)} (${money(penalty)}), and ${percentText(interestRate)} a month or part ` +
          `from ${longDate(interestFromIso)} on the tax and penalty: ${monthsText(months)}, ${money(interest)}` +
          (closing >= dayNumber(iso(year, dates.advertising_from))
            ? `; from ${longDate(iso(year, dates.advertising_from))} also the cost of advertising the tax sale, not included`
            : ''),
        collector_note: 'It is now paid to the Suffolk County Comptroller.',
      },
    ];
  });
}

/** The penalty on each unpaid half past its penalty-free window at `closingIso` (a zero one left out, warning and all). */
export function taxPenalties(
  county: 'Nassau' | 'Suffolk' | undefined,
  taxes: PropertyTaxes,
  closingIso: string,
  rates: PenaltyRates,
): TaxPenalty[] {
  const penalties: TaxPenalty[] = [];
  if (county === 'Nassau' && taxes.nassau_school)
    penalties.push(...nassauPenalties('nassau_school', taxes.nassau_school, closingIso, rates));
  if (county === 'Nassau' && taxes.nassau_general)
    penalties.push(...nassauPenalties('nassau_general', taxes.nassau_general, closingIso, rates));
  if (county === 'Suffolk' && taxes.suffolk) penalties.push(...suffolkPenalties(taxes.suffolk, closingIso, rates));
  return penalties.filter((penalty) => penalty.amount_cents !== 0);
}
