import { formatMoney } from '../../ui/money.ts';
import { commissionLabel } from '../net-sheet/public/estimate.ts';

const SAMPLE = { price: 450000, commissionPercent: 6, commission: 27000, tax: 1800, fees: 925, net: 220275 };

/** A result not yet unlocked: a blurred sample sheet, and the button that opens the unlock form. */
export function LockedEstimate({ onUnlock, onStartOver }: { onUnlock: () => void; onStartOver: () => void }) {
  return (
    <section aria-labelledby="locked-estimate" className="locked">
      <h2 id="locked-estimate">Your estimate is ready</h2>
      <div className="blurred" aria-hidden="true">
        <table className="net-sheet">
          <tbody>
            <tr>
              <th>Sale Price</th>
              <td>{formatMoney(SAMPLE.price)}</td>
            </tr>
            <tr>
              <th>{commissionLabel(SAMPLE.commissionPercent)}</th>
              <td>−{formatMoney(SAMPLE.commission)}</td>
            </tr>
            <tr>
              <th>Transfer Tax</th>
              <td>−{formatMoney(SAMPLE.tax)}</td>
            </tr>
            <tr>
              <th>Attorney and recording fees</th>
              <td>−{formatMoney(SAMPLE.fees)}</td>
            </tr>
            <tr>
              <th>Your Net Proceeds</th>
              <td>{formatMoney(SAMPLE.net)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <button type="button" className="button button-primary button-block" onClick={onUnlock}>
        Unlock Your Estimate
      </button>
      <button type="button" className="button button-secondary button-block" onClick={onStartOver}>
        Start New Calculation
      </button>
    </section>
  );
}
