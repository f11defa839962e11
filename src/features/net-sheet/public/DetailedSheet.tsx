import { formatMoney } from '../../../ui/money.ts';
import { NetTotal } from './NetSheet.tsx';
import type { SheetAnswer, SheetLineAnswer } from './sheet-answer.ts';
import { SHEET_GROUPS } from '../sheet-groups.ts';
import { longDate } from '../long-date.ts';

export { longDate } from '../long-date.ts';

/** The sale price as it is; a cost taken from the proceeds with a minus; any other credit with a plus. */
function Amount({ line }: { line: SheetLineAnswer }) {
  if (line.group === 'sale') return <>{formatMoney(-line.amount)}</>;
  if (line.amount > 0) return <>−{formatMoney(line.amount)}</>;
  return (
    <>
      +{formatMoney(-line.amount)} <span className="sheet-credit">credit</span>
    </>
  );
}

/**
 * What is legal but unusual on a sheet (a closing already past, large concessions): said above the
 * figures, in the seller's words, so nobody relies on a typed slip (decision 0038).
 */
export function SheetWarnings({ warnings }: { warnings: SheetAnswer['warnings'] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="notice-warning sheet-warnings" role="note" aria-label="Please check">
      <p className="sheet-warnings-title">Please check</p>
      <ul>
        {warnings.map((warning) => (
          <li key={warning.key} data-warning={warning.key}>
            {warning.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A detailed net sheet (POST /api/estimates with details, GET /api/estimates/{uuid}/sheet): every line with its why. */
export function DetailedSheet({ sheet }: { sheet: SheetAnswer }) {
  const disclaimer = sheet.notes.find((note) => note.key === 'disclaimer');
  return (
    <div className="detailed-sheet">
      <p className="sheet-closing">
        Estimated closing: <strong>{longDate(sheet.closing_date)}</strong>
      </p>
      <SheetWarnings warnings={sheet.warnings} />
      <table className="net-sheet">
        <caption className="visually-hidden">Estimated net proceeds, line by line</caption>
        {SHEET_GROUPS.map(({ group, heading }) => {
          const lines = sheet.lines.filter((line) => line.group === group);
          if (lines.length === 0) return null;
          return (
            <tbody key={group}>
              {heading ? (
                <tr className="sheet-group">
                  <th colSpan={2} scope="rowgroup">
                    {heading}
                  </th>
                </tr>
              ) : null}
              {lines.map((line) => (
                <tr key={line.key} className={line.amount > 0 ? 'deduction' : undefined} data-line={line.key}>
                  <th scope="row">
                    {line.label}
                    <span className="sheet-why">{line.why}</span>
                  </th>
                  <td>
                    <Amount line={line} />
                  </td>
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
      <NetTotal net={sheet.net_to_seller} />
      <ul className="sheet-notes">
        {sheet.notes
          .filter((note) => note !== disclaimer)
          .map((note) => (
            <li key={note.key}>{note.text}</li>
          ))}
      </ul>
      {disclaimer ? <p className="note sheet-disclaimer">{disclaimer.text}</p> : null}
    </div>
  );
}
