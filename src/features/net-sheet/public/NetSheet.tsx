import { formatMoney } from '../../../ui/money.ts';
import type { Estimate } from './estimate-request.ts';
import { netSheetLines } from './net-sheet.ts';

/** The estimate's lines and, largest, the net proceeds (or what the seller brings to closing). */
export function NetSheet({ estimate }: { estimate: Estimate }) {
  return (
    <div>
      <table className="net-sheet">
        <caption className="visually-hidden">Estimated net proceeds</caption>
        <tbody>
          {netSheetLines(estimate).map((line) => (
            <tr key={line.label} className={line.deduction ? 'deduction' : undefined}>
              <th scope="row">{line.label}</th>
              <td>{line.deduction ? `−${formatMoney(line.dollars)}` : formatMoney(line.dollars)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <NetTotal net={estimate.net_to_seller} />
    </div>
  );
}

/** The net proceeds, largest; a negative net as what the seller would bring to closing. */
export function NetTotal({ net }: { net: number }) {
  const negative = net < 0;
  return (
    <p className={`net-total${negative ? ' is-negative' : ''}`} data-testid="net-proceeds">
      <span className="net-total-label">{negative ? 'Amount you would bring to closing' : 'Your Net Proceeds'}</span>
      <span className="net-total-amount">{formatMoney(Math.abs(net))}</span>
    </p>
  );
}
