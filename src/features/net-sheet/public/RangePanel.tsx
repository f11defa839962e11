import { useEffect, useId, useState } from 'react';
import { callApi } from '../../../ui/api-client.ts';
import { formatMoney, formatPrice, formatPriceShort } from '../../../ui/money.ts';
import { Notice } from '../../../ui/Notice.tsx';
import {
  CHART,
  chartGeometry,
  currentPointIndex,
  FIRST_RANGE_PERCENT,
  phoneRowIndexes,
  RANGE_PERCENTS,
  type RangePercent,
  type RangePoint,
} from '../range-view.ts';
import { rangeQuerySchema } from './requests.ts';
import { rangeAnswerSchema } from './sheet-answer.ts';

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; percent: RangePercent; points: RangePoint[] };

const FAILED = 'We could not load the prices around yours just now. Please try again in a moment.';

/** "+$1,234.00", "−$1,234.00", or "—" for the seller's own price. */
const difference = (dollars: number) =>
  dollars === 0 ? '—' : `${dollars > 0 ? '+' : '−'}${formatMoney(Math.abs(dollars))}`;

/**
 * /estimate/{uuid}: the net at prices around the estimate's (GET /api/estimates/{uuid}/range, on the
 * estimate's stored sheet), as a small chart and, the accessible data, a table.
 */
export function RangePanel({
  uuid,
  salePrice,
  firstPoints,
}: {
  uuid: string;
  salePrice: number;
  /** The first range's points, when the page was rendered with them: not asked for again. */
  firstPoints?: RangePoint[] | undefined;
}) {
  const [percent, setPercent] = useState<RangePercent>(FIRST_RANGE_PERCENT);
  const [fetched, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const loaded: Loaded =
    firstPoints && percent === FIRST_RANGE_PERCENT ? { kind: 'ready', percent, points: firstPoints } : fetched;
  const [showAll, setShowAll] = useState(false);
  const headingId = useId();
  const tableId = useId();
  const captionId = useId();

  useEffect(() => {
    if (firstPoints && percent === FIRST_RANGE_PERCENT) return;
    // A later pick wins: an answer for a range the seller already left is dropped.
    let current = true;
    const query = rangeQuerySchema.parse({ percent });
    const search = new URLSearchParams({ percent: String(query.percent), points: String(query.points) });
    callApi(`/api/estimates/${uuid}/range?${search.toString()}`, rangeAnswerSchema)
      .then((result) => {
        if (!current) return;
        if (result.ok) setLoaded({ kind: 'ready', percent, points: result.data.points });
        else setLoaded({ kind: 'failed' });
      })
      .catch((error: unknown) => {
        console.warn('Could not load the price range', error);
        if (current) setLoaded({ kind: 'failed' });
      });
    return () => {
      current = false;
    };
  }, [uuid, percent, firstPoints]);

  const points = loaded.kind === 'ready' ? loaded.points : [];
  const busy = loaded.kind === 'loading' || (loaded.kind === 'ready' && loaded.percent !== percent);
  const current = currentPointIndex(points, salePrice);
  const currentNet = points[current]?.net_to_seller ?? 0;
  const phoneRows = phoneRowIndexes(points.length, current);

  return (
    // id="range": the agent page's result links here (newcomer audit 2026-11-26, minor 22).
    <section id="range" className="range-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Your net at other prices</h2>
      <fieldset className="range-choice">
        <legend>Prices around yours</legend>
        {RANGE_PERCENTS.map((choice) => (
          <label key={choice} className="range-choice-option">
            <input
              type="radio"
              name="range-percent"
              value={choice}
              checked={percent === choice}
              onChange={() => setPercent(choice)}
            />
            ±{choice}%
          </label>
        ))}
      </fieldset>
      <Notice tone="error" message={loaded.kind === 'failed' ? FAILED : null} />
      {points.length > 0 ? (
        <div className="range-body" aria-busy={busy}>
          <RangeChart points={points} current={current} />
          {/* Scrolls sideways if a screen is narrower still: focusable, so keys scroll it too. */}
          <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
            <table id={tableId} className={`range-table${showAll ? ' is-expanded' : ''}`}>
              <caption id={captionId} className="visually-hidden">
                Your net proceeds at prices from {formatPrice(points[0]?.sale_price ?? 0)} to{' '}
                {formatPrice(points.at(-1)?.sale_price ?? 0)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Sale price</th>
                  <th scope="col">Your net</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {points.map((point, index) => {
                  const classes = [index === current ? 'is-current' : '', phoneRows.has(index) ? '' : 'range-row-more'];
                  return (
                    <tr
                      key={point.sale_price}
                      className={classes.filter(Boolean).join(' ') || undefined}
                      aria-current={index === current ? 'true' : undefined}
                    >
                      <th scope="row">
                        {formatPrice(point.sale_price)}
                        {index === current ? <span className="range-current-tag"> your price</span> : null}
                      </th>
                      <td>{formatMoney(point.net_to_seller)}</td>
                      <td>{difference(Math.round((point.net_to_seller - currentNet) * 100) / 100)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <button
            type="button"
            className="button button-secondary button-block range-toggle"
            aria-expanded={showAll}
            aria-controls={tableId}
            onClick={() => setShowAll(!showAll)}
          >
            {showAll ? 'Show fewer prices' : `Show all ${points.length} prices`}
          </button>
        </div>
      ) : loaded.kind === 'loading' ? (
        <div className="skeleton-sheet" aria-hidden="true" />
      ) : null}
    </section>
  );
}

interface AxisLabel {
  index: number;
  anchor: 'start' | 'middle' | 'end';
}

/**
 * Net against price as SVG, styled by classes (the CSP forbids inline styles). Horizontal positions
 * are percentages and vertical ones pixels, so it fills any width while its text keeps its size; the
 * line lives in a nested SVG stretched to the plot. One image for screen readers, summed up in its
 * label: the table beside it holds the figures.
 */
function RangeChart({ points, current }: { points: RangePoint[]; current: number }) {
  const chart = chartGeometry(points);
  const first = points[0];
  const last = points.at(-1);
  const here = points[current];
  if (!first || !last || !here) return null;
  const pct = (value: number) => `${value}%`;
  const bottom = CHART.height - CHART.bottom;
  // The seller's price is labelled under its mark, unless it is one of the ends (labelled anyway).
  const xLabels: AxisLabel[] = [{ index: 0, anchor: 'start' }];
  if (current > 0 && current < points.length - 1) xLabels.push({ index: current, anchor: 'middle' });
  xLabels.push({ index: points.length - 1, anchor: 'end' });
  const label =
    `Chart of your net proceeds: ${formatMoney(first.net_to_seller)} at ${formatPrice(first.sale_price)}, ` +
    `${formatMoney(here.net_to_seller)} at your price of ${formatPrice(here.sale_price)}, ` +
    `${formatMoney(last.net_to_seller)} at ${formatPrice(last.sale_price)}.`;
  return (
    <svg className="range-chart" width="100%" height={CHART.height} role="img" aria-label={label}>
      {[...new Set([chart.highNet, chart.lowNet])].map((net) => (
        <g key={net}>
          <line
            className="chart-grid"
            x1={pct(CHART.left)}
            x2={pct(100 - CHART.right)}
            y1={chart.y(net)}
            y2={chart.y(net)}
          />
          <text className="chart-axis" x={pct(CHART.left - 1)} y={chart.y(net) + 4} textAnchor="end">
            {formatPriceShort(net)}
          </text>
        </g>
      ))}
      <line
        className="range-chart-current"
        x1={pct(chart.x(current))}
        x2={pct(chart.x(current))}
        y1={CHART.top}
        y2={bottom}
      />
      <svg
        x={pct(chart.plot.x)}
        y={chart.plot.y}
        width={pct(chart.plot.width)}
        height={chart.plot.height}
        viewBox={`0 0 100 ${chart.plot.height}`}
        preserveAspectRatio="none"
        overflow="visible"
      >
        <polyline className="range-chart-line" points={chart.line} vectorEffect="non-scaling-stroke" />
      </svg>
      <circle className="range-chart-dot" cx={pct(chart.x(current))} cy={chart.y(here.net_to_seller)} r="5" />
      {xLabels.map(({ index, anchor }) => (
        <text key={index} className="chart-axis" x={pct(chart.x(index))} y={bottom + 20} textAnchor={anchor}>
          {formatPriceShort(points[index]?.sale_price ?? 0)}
        </text>
      ))}
    </svg>
  );
}
