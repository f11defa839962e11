import { SUBSCRIBER_STATE_LABELS, type LeadUpdates } from './subscriber-state.ts';
import { LONG_ISLAND_TIME_ZONE } from '../../../ui/long-island-time.ts';

const activeDay = new Intl.DateTimeFormat('en-US', { timeZone: LONG_ISLAND_TIME_ZONE, month: 'short', day: 'numeric' });

/** "Active" and the day the seller became active (within the last 30 days). */
export function ActiveBadge({ at }: { at: string }) {
  return (
    <span className="badge badge-active">
      Active <time dateTime={at}>{activeDay.format(new Date(at))}</time>
    </span>
  );
}

/**
 * A lead's seller updates in one cell (/dashboard/leads, /admin/leads): "Active" with its day when
 * the seller became active within 30 days, else the subscription's state, or a dash without one.
 */
export function UpdatesBadge({ updates }: { updates: LeadUpdates | null }) {
  if (!updates) return <>—</>;
  if (updates.active_at) return <ActiveBadge at={updates.active_at} />;
  const tone = updates.state === 'monthly' || updates.state === 'quarterly' ? 'on' : 'off';
  return <span className={`badge badge-${tone}`}>{SUBSCRIBER_STATE_LABELS[updates.state]}</span>;
}
