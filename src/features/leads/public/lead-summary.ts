import { formatMoney } from '../../../ui/money.ts';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';

/** The plain-text summary that goes with an agent-page lead (the lead's email_body). */
export function estimateSummary(estimate: Estimate): string {
  const net =
    estimate.net_to_seller < 0
      ? `Amount to bring to closing: ${formatMoney(-estimate.net_to_seller)}`
      : `Estimated net proceeds: ${formatMoney(estimate.net_to_seller)}`;
  return [
    `Sale price: ${formatMoney(estimate.sale_price)}`,
    `Mortgage payoff: ${formatMoney(estimate.mortgage_payoff)}`,
    net,
  ].join('\n');
}

/** Phone as typed in the unlock form: digits only, shown as (XXX) XXX-XXXX once complete. */
export const phoneDigits = (typed: string): string => typed.replace(/\D/g, '').slice(0, 11);
