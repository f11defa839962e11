import type { Week } from './public/overview.ts';
import { PairedBarChart } from '../../ui/PairedBarChart.tsx';

/** "2026-11-16" → "Nov 16" (the date is New York's Monday; no time zone shift). */
export function weekLabel(weekStart: string): string {
  const [year = 0, month = 1, day = 1] = weekStart.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * Estimates and leads per week as paired bars; the same figures follow as a table for screen
 * readers and anyone who prefers numbers.
 */
export function WeeklyChart({ weeks }: { weeks: Week[] }) {
  const pairs = weeks.map((week) => ({
    key: week.week_start,
    label: weekLabel(week.week_start),
    first: week.estimates,
    second: week.leads,
  }));
  return (
    <PairedBarChart pairs={pairs} names={['Estimates', 'Leads']} note="per week (weeks start Monday)" height={220}>
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
    </PairedBarChart>
  );
}
