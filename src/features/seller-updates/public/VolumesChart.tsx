import type { DigestMonth } from './updates-screen.ts';

const HEIGHT = 140;
const PAD = { top: 12, bottom: 28, left: 6, right: 2 };
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
const pct = (value: number) => `${value}%`;
const shortMonth = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });

/**
 * Updates sent and clicked per month as paired bars, in the dashboard's chart style (SVG styled by
 * classes: the CSP forbids inline styles). Hidden from assistive technology: the table below it
 * has the same figures.
 */
export function VolumesChart({ months }: { months: DigestMonth[] }) {
  const top = Math.max(1, ...months.map((month) => month.sent));
  const slot = (100 - PAD.left - PAD.right) / Math.max(1, months.length);
  const bar = slot * 0.36;
  const y = (value: number) => PAD.top + PLOT_H - (value / top) * PLOT_H;
  return (
    <figure className="weekly-chart volumes-chart">
      <figcaption>
        <span className="chart-key chart-key-estimates">Sent</span>
        <span className="chart-key chart-key-leads">Clicked</span>
        <span className="chart-note">per month (most: {top})</span>
      </figcaption>
      <svg width="100%" height={HEIGHT} role="presentation" aria-hidden="true" focusable="false">
        <line className="chart-grid" x1={pct(PAD.left)} x2={pct(100 - PAD.right)} y1={y(0)} y2={y(0)} />
        {months.map((month, index) => {
          const x = PAD.left + index * slot + slot / 2;
          return (
            <g key={month.month}>
              <rect
                className="chart-bar-estimates"
                x={pct(x - bar)}
                y={y(month.sent)}
                width={pct(bar)}
                height={y(0) - y(month.sent)}
              />
              <rect
                className="chart-bar-leads"
                x={pct(x)}
                y={y(month.clicked)}
                width={pct(bar)}
                height={y(0) - y(month.clicked)}
              />
              {index % 2 === months.length % 2 ? null : (
                <text className="chart-axis" x={pct(x)} y={HEIGHT - PAD.bottom + 16} textAnchor="middle">
                  {shortMonth.format(new Date(`${month.month}-01T12:00:00Z`))}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
