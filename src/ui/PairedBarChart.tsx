import type { ReactNode } from 'react';

/** One slot of the chart: its label under the axis and its two bars. */
export interface BarPair {
  key: string;
  label: string;
  first: number;
  second: number;
}

/** A round top of the y axis, at least 1, with ticks at 0, half and top. */
const axisTop = (max: number) => (max <= 4 ? Math.max(1, max) : Math.ceil(max / 2) * 2);
const pct = (value: number) => `${value}%`;

/**
 * Two figures per slot as paired bars in SVG (the dashboard's weeks, the seller updates' months),
 * styled by classes: the page's CSP forbids inline styles. Horizontal positions are percentages of
 * the chart's width and vertical ones pixels, so the bars stretch to any screen while the axis text
 * keeps its size (a scaled viewBox would shrink it to nothing on a phone). The SVG is hidden from
 * assistive technology: the caller puts the same figures in a table (`children`, or beside it).
 */
export function PairedBarChart(props: {
  pairs: readonly BarPair[];
  /** The names of the first and second bars, in the key. */
  names: readonly [string, string];
  note: string;
  height: number;
  className?: string;
  children?: ReactNode;
}) {
  const { pairs, names, note, height, className, children } = props;
  const pad = { top: 16, bottom: 36, left: 8, right: 2 };
  const plot = height - pad.top - pad.bottom;
  const top = axisTop(Math.max(0, ...pairs.map((pair) => Math.max(pair.first, pair.second))));
  const slot = (100 - pad.left - pad.right) / Math.max(1, pairs.length);
  const bar = slot * 0.36;
  const y = (value: number) => pad.top + plot - (value / top) * plot;
  const ticks = [...new Set([0, Math.round(top / 2), top])];
  return (
    <figure className={className ? `weekly-chart ${className}` : 'weekly-chart'}>
      <figcaption>
        <span className="chart-key chart-key-estimates">{names[0]}</span>
        <span className="chart-key chart-key-leads">{names[1]}</span>
        <span className="chart-note">{note}</span>
      </figcaption>
      <svg width="100%" height={height} role="presentation" aria-hidden="true" focusable="false">
        {ticks.map((tick) => (
          <g key={tick}>
            <line className="chart-grid" x1={pct(pad.left)} x2={pct(100 - pad.right)} y1={y(tick)} y2={y(tick)} />
            <text className="chart-axis" x={pct(pad.left - 1.5)} y={y(tick) + 4} textAnchor="end">
              {tick}
            </text>
          </g>
        ))}
        {pairs.map((pair, index) => {
          const x = pad.left + index * slot + slot / 2;
          return (
            <g key={pair.key}>
              <rect
                className="chart-bar-estimates"
                x={pct(x - bar)}
                y={y(pair.first)}
                width={pct(bar)}
                height={pad.top + plot - y(pair.first)}
              />
              <rect
                className="chart-bar-leads"
                x={pct(x)}
                y={y(pair.second)}
                width={pct(bar)}
                height={pad.top + plot - y(pair.second)}
              />
              {index % 2 === pairs.length % 2 ? null : (
                <text className="chart-axis" x={pct(x)} y={height - pad.bottom + 18} textAnchor="middle">
                  {pair.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {children}
    </figure>
  );
}
