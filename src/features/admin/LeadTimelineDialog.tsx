import { useQuery } from '@tanstack/react-query';
import { Modal } from '../../ui/Modal.tsx';
import { getJson } from '../accounts/public/account-query.ts';
import type { AdminLeadRow } from '../leads/public/lead-list.ts';
import { LEAD_TIME_ZONE } from '../leads/public/lead-time-zone.ts';
import { leadTimelineResponseSchema, type TimelineEvent } from './lead-timeline.ts';

const eventTime = new Intl.DateTimeFormat('en-US', {
  timeZone: LEAD_TIME_ZONE,
  dateStyle: 'medium',
  timeStyle: 'medium',
});

const EVENT_WORDS: Record<TimelineEvent['kind'], string> = {
  created: 'Lead received',
  email_queued: 'E-mail queued',
  email_sent: 'E-mail sent',
  email_failed: 'E-mail failed',
  email_suppressed: 'E-mail not sent (unsubscribed)',
  crm_attempt: 'Follow Up Boss call',
};

/** A lead's timeline (read when opened): received, its e-mails and its CRM calls, oldest first. */
export function LeadTimelineDialog({ lead, onClose }: { lead: AdminLeadRow | null; onClose: () => void }) {
  const timeline = useQuery({
    queryKey: ['admin-leads', 'timeline', lead?.id],
    queryFn: () => getJson(`/api/admin/leads/${lead?.id ?? 0}/timeline`, leadTimelineResponseSchema),
    enabled: lead !== null,
    staleTime: 0,
  });
  const name = lead ? [lead.first_name, lead.last_name].filter(Boolean).join(' ') : '';
  return (
    <Modal open={lead !== null} title={`Timeline: ${name}`} onClose={onClose}>
      {lead ? <p>Lead of {lead.agent_name}, oldest first.</p> : null}
      {timeline.isPending ? <p aria-live="polite">Loading…</p> : null}
      {timeline.isError ? <p role="alert">Failed to load the timeline.</p> : null}
      {timeline.isSuccess ? (
        <ol className="lead-timeline">
          {timeline.data.events.map((event, index) => (
            <li key={`${event.kind}-${event.at ?? ''}-${index}`}>
              <strong>{EVENT_WORDS[event.kind]}</strong>{' '}
              {event.at ? (
                <time dateTime={event.at}>{eventTime.format(new Date(event.at))}</time>
              ) : (
                <span>(time not recorded)</span>
              )}
              {event.detail ? <div>{event.detail}</div> : null}
              {event.error ? <div className="lead-timeline-error">Error: {event.error}</div> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </Modal>
  );
}
