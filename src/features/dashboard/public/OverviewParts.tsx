/**
 * The pieces of an overview screen, shared by the agent's dashboard (/dashboard) and the admin's
 * (/admin): figures as stat cards, the 12-week chart, the recent activity list and quick actions.
 * Each takes its data and words as props.
 */
import type { ReactNode } from 'react';
import { OVERVIEW_TIME_ZONE, type Activity, type Week } from './overview.ts';
import { WeeklyChart } from '../WeeklyChart.tsx';

const count = new Intl.NumberFormat('en-US');

/** A count as the cards show it (1,234). */
export const formatCount = (value: number): string => count.format(value);

/** A conversion rate as the cards show it: one decimal, or a dash without estimates. */
export const formatConversion = (percent: number | null): string => (percent === null ? '—' : `${percent.toFixed(1)}%`);

export function StatCards({ label, stats }: { label: string; stats: { label: string; value: string }[] }) {
  return (
    <ul className="plain-list stat-cards" aria-label={label}>
      {stats.map((stat) => (
        <li key={stat.label} className="card">
          <span className="stat-label">{stat.label}</span>
          <span className="stat-figure">{stat.value}</span>
        </li>
      ))}
    </ul>
  );
}

export function WeeklySection({ weeks }: { weeks: Week[] }) {
  return (
    <section className="card overview-section" aria-labelledby="weekly-title">
      <h2 id="weekly-title">Last 12 weeks</h2>
      <WeeklyChart weeks={weeks} />
    </section>
  );
}

const when = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: OVERVIEW_TIME_ZONE,
});

/** The recent activity card: `children` stands in for the list while it loads or failed to. */
export function ActivitySection({ activities, children }: { activities?: Activity[]; children?: ReactNode }) {
  return (
    <section className="card overview-section" aria-labelledby="activity-title">
      <h2 id="activity-title">Recent activity</h2>
      {activities ? <ActivityList activities={activities} /> : children}
    </section>
  );
}

function ActivityList({ activities }: { activities: Activity[] }) {
  if (activities.length === 0) return <p className="empty-state">No recent activity</p>;
  return (
    <ol className="plain-list activity-list">
      {activities.map((activity, index) => (
        <li key={`${activity.timestamp}-${index}`} className={`activity activity-${activity.type}`}>
          <span className="activity-type">{activity.label}</span>
          <span className="activity-message">{activity.message}</span>
          <time dateTime={activity.timestamp}>{when.format(new Date(activity.timestamp))}</time>
        </li>
      ))}
    </ol>
  );
}

/** Links to the area's screens; the first is the primary one. */
export function QuickActions({ links }: { links: { href: string; label: string }[] }) {
  return (
    <nav className="card overview-section" aria-labelledby="quick-actions-title">
      <h2 id="quick-actions-title">Quick actions</h2>
      <ul className="plain-list quick-actions">
        {links.map((link, index) => (
          <li key={link.href}>
            <a className={`button ${index === 0 ? 'button-primary' : 'button-secondary'}`} href={link.href}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
