import { formatMoney } from '../../../ui/money.ts';
import { commissionLabel } from './estimate.ts';
import type { Estimate } from './estimate-request.ts';
import type { SheetLineAnswer } from './sheet-answer.ts';

export interface NetSheetLine {
  label: string;
  dollars: number;
  deduction: boolean;
  /** The section it is printed under, as on the web sheet (SHEET_GROUPS). */
  group: SheetLineAnswer['group'];
}

/**
 * Whose words label a detailed sheet's lines: `typed`, the visitor's own names of their liens and
 * other lines (the estimate page, the agent's notice); `product`, the product's numbered names in
 * their place ("Lien 1 payoff", "Other cost 2"), for whatever goes to an address that has not shown
 * it is the typist's: the estimate e-mail and its PDF (security audit 2026-11-26, finding 2).
 */
export type LineLabels = 'typed' | 'product';

// The default lien of a quick estimate's payoff is the product's own word.
const PRODUCT_LIEN_NAME = 'Mortgage';

/** A sheet line's label in the product's words: the lines a visitor named, by their number. */
export function productLabel(line: { key: string; label: string }): string {
  const lien = /^lien_(\d+)_(payoff|per_diem)$/.exec(line.key);
  if (lien) {
    const suffix = lien[2] === 'payoff' ? 'payoff' : 'interest to closing';
    return line.label === `${PRODUCT_LIEN_NAME} ${suffix}` ? line.label : `Lien ${lien[1]} ${suffix}`;
  }
  const other = /^other_(\d+)$/.exec(line.key);
  return other ? `Other cost ${other[1]}` : line.label;
}

/**
 * The lines a seller sees, in order; deductions with a zero amount are left out. A detailed
 * estimate's are its sheet's (credits, such as a paid tax half, count for the seller).
 */
export function netSheetLines(estimate: Estimate, labels: LineLabels = 'typed'): NetSheetLine[] {
  if (estimate.sheet) {
    return estimate.sheet.lines.map((line) => ({
      label: labels === 'product' ? productLabel(line) : line.label,
      dollars: Math.abs(line.amount),
      deduction: line.amount > 0,
      group: line.group,
    }));
  }
  const deductions: NetSheetLine[] = [
    { label: 'Mortgage Payoff', dollars: estimate.mortgage_payoff, deduction: true, group: 'payoff' },
    {
      label: commissionLabel(estimate.commission_percent),
      dollars: estimate.commission,
      deduction: true,
      group: 'commission',
    },
    { label: 'Transfer Tax', dollars: estimate.transfer_tax, deduction: true, group: 'tax' },
    { label: 'Attorney Fee', dollars: estimate.lawyer_fee, deduction: true, group: 'fee' },
    { label: 'Recording Fee', dollars: estimate.recording_fee, deduction: true, group: 'fee' },
  ];
  return [
    { label: 'Sale Price', dollars: estimate.sale_price, deduction: false, group: 'sale' },
    ...deductions.filter((line) => line.dollars > 0),
  ];
}

/**
 * A line's amount as the web sheet writes it: the sale price as it is, a cost with a minus, any
 * other credit with a plus and the word (a bare figure beside minus signs reads as a cost; newcomer
 * audit 2026-11-26, minor 14). `minus` is the medium's sign: "-" in text, "−" in HTML.
 */
export function lineAmount(line: NetSheetLine, minus = '-'): string {
  if (line.deduction) return `${minus}${formatMoney(line.dollars)}`;
  return line.group === 'sale' ? formatMoney(line.dollars) : `+${formatMoney(line.dollars)} credit`;
}
