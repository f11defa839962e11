import type { Week } from './public/overview.ts';

/**
 * Horizontal positions are percentages of the chart's width and vertical ones pixels, so the bars
 * stretch to any screen while the axis text keeps its size (a scaled viewBox would shrink it to
 * nothing on a phone).
 */
const HEIGHT = 220;
const PAD = { top: 16, bottom: 36, left: 8, right: 2 };
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
const pct = (value: number) => `${value}%`;

/** "2026-11-16" → "Nov 16" (the date is New York's Monday; no time zone shift). */
export function weekLabel(weekStart: string): string {
  const [year = 0, month = 1, day = 1] = weekStart.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** A round top of the y axis, at least 1, with ticks at 0, half and top. */
const axisTop = (max: number) => (max <= 4 ? Math.max(1, max) : Math.ceil(max / 2) * 2);

/**
 * Estimates and leads per week as paired bars in SVG (styled by classes: the page's CSP forbids
 * inline styles). The same figures follow as a table for screen readers and anyone who prefers
 * numbers; the SVG itself is hidden from assistive technology.
 */
export function WeeklyChart({ weeks }: { weeks: Week[] }) {
  const top = axisTop(Math.max(0, ...weeks.map((week) => Math.max(week.estimates, week.leads))));
  const slot = (100 - PAD.left - PAD.right) / Math.max(1, weeks.length);
  const bar = slot * 0.36;
  const y = (value: number) => PAD.top + PLOT_H - (value / top) * PLOT_H;
  const ticks = [...new Set([0, Math.round(top / 2), top])];
  return (
    <figure className="weekly-chart">
      <figcaption>
        <span className="chart-key chart-key-estimates">Estimates</span>
        <span className="chart-key chart-key-leads">Leads</span>
        <span className="chart-note">per week (weeks start Monday)</span>
      </figcaption>
      <svg width="100%" height={HEIGHT} role="presentation" aria-hidden="true" focusable="false">
        {ticks.map((tick) => (
          <g key={tick}>
            <line className="chart-grid" x1={pct(PAD.left)} x2={pct(100 - PAD.right)} y1={y(tick)} y2={y(tick)} />
            <text className="chart-axis" x={pct(PAD.left - 1.5)} y={y(tick) + 4} textAnchor="end">
              {tick}
            </text>
          </g>
        ))}
        {weeks.map((week, index) => {
          const x = PAD.left + index * slot + slot / 2;
          return (
            <g key={week.week_start}>
              <rect
                className="chart-bar-estimates"
                x={pct(x - bar)}
                y={y(week.estimates)}
                width={pct(bar)}
                height={PAD.top + PLOT_H - y(week.estimates)}
              />
              <rect
                className="chart-bar-leads"
                x={pct(x)}
                y={y(week.leads)}
                width={pct(bar)}
                height={PAD.top + PLOT_H - y(week.leads)}
              />
              {index % 2 === weeks.length % 2 ? null : (
                <text className="chart-axis" x={pct(x)} y={HEIGHT - PAD.bottom + 18} textAnchor="middle">
                  {weekLabel(week.week_start)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details className="chart-table">
        <summary>Show the figures as a table</summary>
        <table>
          <caption className="visually-hidden">Estimates and leads per week, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              <th scope="col">Estimates</th>
              <th scope="col">Leads</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.week_start}>
                <th scope="row">{weekLabel(week.week_start)}</th>
                <td>{week.estimates}</td>
                <td>{week.leads}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
