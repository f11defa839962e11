import { formatPercent } from './estimate.ts';
import type { Estimate } from './estimate-request.ts';

export interface NetSheetLine {
  label: string;
  dollars: number;
  deduction: boolean;
}

/**
 * The lines a seller sees, in order; deductions with a zero amount are left out. A detailed
 * estimate's are its sheet's (credits, such as a paid tax half, count for the seller).
 */
export function netSheetLines(estimate: Estimate): NetSheetLine[] {
  if (estimate.sheet) {
    return estimate.sheet.lines.map((line) => ({
      label: line.label,
      dollars: Math.abs(line.amount),
      deduction: line.amount > 0,
    }));
  }
  const deductions: NetSheetLine[] = [
    { label: 'Mortgage Payoff', dollars: estimate.mortgage_payoff, deduction: true },
    {
      label: `Compensation (${formatPercent(estimate.commission_percent)})`,
      dollars: estimate.commission,
      deduction: true,
    },
    { label: 'Transfer Tax', dollars: estimate.transfer_tax, deduction: true },
    { label: 'Attorney Fee', dollars: estimate.lawyer_fee, deduction: true },
    { label: 'Recording Fee', dollars: estimate.recording_fee, deduction: true },
  ];
  return [
    { label: 'Sale Price', dollars: estimate.sale_price, deduction: false },
    ...deductions.filter((line) => line.dollars > 0),
  ];
}
