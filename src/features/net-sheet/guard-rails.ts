/**
 * Bounds and warnings on a sheet's dates and amounts (issue 22, newcomer audit M5; decision 0038).
 * A value no sale can have is refused with the field to fix (a closing years away, concessions above
 * the price); a value that is legal but unusual (a closing already past, concessions over 10 % of the
 * price) is computed and WARNED about, in words a seller understands, on the sheet and in the answer.
 */
import type { FieldErrors } from '../../ui/field-errors.ts';
import { longDate } from './long-date.ts';
import { dayNumber, money } from './proration.ts';
import type { TaxPenalty } from './tax-penalties.ts';

/** A closing more than a year past is a typed year, not a sale to estimate (2019 for 2029). */
export const MAX_DAYS_PAST = 365;
/** Contracts close within months; two years covers a long new-construction or estate sale. */
export const MAX_DAYS_AHEAD = 2 * 365;
/** A payoff letter is good for weeks; one older than a year before closing is the wrong letter. */
export const MAX_PAYOFF_DAYS_BEFORE_CLOSING = 365;
/** Above this share of the price, concessions are unusual enough to say so (issue 22). */
export const CONCESSIONS_WARNING_PERCENT = 10;

export interface SheetWarning {
  key: string;
  /** The detail it is about, as the request names it ("closing_date", "seller_concessions"). */
  field: string;
  text: string;
}

/** Why a closing date cannot be estimated (undefined when it can). */
export function closingDateProblem(closingIso: string, todayIso: string): string | undefined {
  const days = dayNumber(closingIso) - dayNumber(todayIso);
  if (days < -MAX_DAYS_PAST) return 'Closing date is more than a year ago: check the year';
  if (days > MAX_DAYS_AHEAD) return 'Closing date must be within two years from today: check the year';
  return undefined;
}

interface GuardedDetails {
  closing_date?: string | undefined;
  liens?: { payoff_date?: string | undefined }[] | undefined;
}

/**
 * The fields of a request's details that no sheet can be computed on, by their path in the details
 * ("closing_date", "liens.0.payoff_date"). `closingIso` is the sheet's closing (the default when none
 * was given); `todayIso` the day the sheet is made.
 */
export function detailsProblems(details: GuardedDetails, closingIso: string, todayIso: string): FieldErrors {
  const problems: FieldErrors = {};
  const closing = details.closing_date ? closingDateProblem(details.closing_date, todayIso) : undefined;
  if (closing) problems.closing_date = closing;
  details.liens?.forEach((lien, index) => {
    if (lien.payoff_date && dayNumber(closingIso) - dayNumber(lien.payoff_date) > MAX_PAYOFF_DAYS_BEFORE_CLOSING)
      problems[`liens.${index}.payoff_date`] =
        'Payoff good-through date is more than a year before closing: use a current payoff letter';
  });
  return problems;
}

const percentOf = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/** What is legal but unusual on a sheet: said on the sheet, never refused. */
export function sheetWarnings(
  priceCents: number,
  concessionsCents: number,
  closingIso: string,
  todayIso: string,
): SheetWarning[] {
  const warnings: SheetWarning[] = [];
  if (dayNumber(closingIso) < dayNumber(todayIso))
    warnings.push({
      key: 'past_closing_date',
      field: 'closing_date',
      text: `The closing date, ${longDate(closingIso)}, has already passed. Taxes and interest are figured to that day: if the sale has not closed yet, change the date.`,
    });
  if (priceCents > 0 && concessionsCents * 100 > priceCents * CONCESSIONS_WARNING_PERCENT)
    warnings.push({
      key: 'large_concessions',
      field: 'seller_concessions',
      text: `Seller concessions are ${percentOf(concessionsCents, priceCents)}% of the price: more than ${CONCESSIONS_WARNING_PERCENT}% is unusual, and a buyer's lender may not allow it. Check the amount with your agent.`,
    });
  return warnings;
}

/**
 * An unpaid half past its penalty-free window at closing (decision 0043): the sheet charges its
 * penalty, and says so where the seller looks first, since a half marked unpaid by mistake costs them.
 */
export function overdueTaxWarnings(penalties: readonly TaxPenalty[]): SheetWarning[] {
  return penalties.map((penalty) => ({
    key: `overdue_${penalty.key.replace(/_penalty$/, '')}`,
    field: penalty.field,
    text:
      `${penalty.half_name} is past due: it was payable without penalty until ${longDate(penalty.last_free_iso)}, ` +
      `so the sheet adds the penalty owed at closing (${money(penalty.amount_cents)}).` +
      (penalty.collector_note === undefined ? '' : ` ${penalty.collector_note}`) +
      ' If it has been paid, mark it paid.',
  }));
}
