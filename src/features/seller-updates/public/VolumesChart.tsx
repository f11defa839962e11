import { PairedBarChart } from '../../../ui/PairedBarChart.tsx';
import type { DigestMonth } from './updates-screen.ts';

const shortMonth = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });

/** Updates sent and clicked per month as paired bars; the card's table below has the same figures. */
export function VolumesChart({ months }: { months: DigestMonth[] }) {
  const pairs = months.map((month) => ({
    key: month.month,
    label: shortMonth.format(new Date(`${month.month}-01T12:00:00Z`)),
    first: month.sent,
    second: month.clicked,
  }));
  return (
    <PairedBarChart pairs={pairs} names={['Sent', 'Clicked']} note="per month" height={160} className="volumes-chart" />
  );
}
