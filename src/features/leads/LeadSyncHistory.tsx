import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import * as z from 'zod/mini';
import { Modal } from '../../ui/Modal.tsx';
import { getJson } from '../accounts/public/account-query.ts';
import type { LeadRow } from './public/lead-list.ts';
import { LEAD_TIME_ZONE } from './public/lead-time-zone.ts';
import { leadSyncSchema, type LeadSync } from '../crm/public/lead-sync.ts';

const attemptTime = new Intl.DateTimeFormat('en-US', {
  timeZone: LEAD_TIME_ZONE,
  dateStyle: 'medium',
  timeStyle: 'medium',
});

const OUTCOME_WORDS: Record<string, string> = {
  created: 'Created a person',
  updated: 'Updated the person',
  found: 'Found already in Follow Up Boss',
  archived: 'Ignored (lead flow archived)',
  'rate-limited': 'Rate-limited, retried later',
  refused: 'API key refused',
  rejected: 'Lead refused',
  unavailable: 'Follow Up Boss unavailable',
};

/** The CRM note for the agent (never the visitor: issue 8): where the lead stands, in words. */
function crmNote(sync: LeadSync | null): string {
  if (sync === null) return 'Not synced to CRM - this lead has not been sent to Follow Up Boss.';
  switch (sync.status) {
    case 'synced':
      return sync.person_id === null
        ? 'Synced to Follow Up Boss'
        : `Synced to Follow Up Boss (person ${sync.person_id})`;
    case 'ignored':
      return 'Accepted but ignored by Follow Up Boss (lead flow archived)';
    case 'stopped':
    case 'rejected':
      return `Not synced to CRM - sync failed${sync.last_error ? `: ${sync.last_error}` : '.'}`;
    default:
      return `Waiting to be sent to Follow Up Boss; next try ${attemptTime.format(new Date(sync.next_attempt_at))}${sync.last_error ? ` (last error: ${sync.last_error})` : ''}.`;
  }
}

const crmAnswerSchema = z.object({ success: z.literal(true), sync: z.nullable(leadSyncSchema) });

/** Each call made to Follow Up Boss for `lead` (read when opened), and the CRM note. */
export function LeadSyncHistoryDialog({ lead, onClose }: { lead: LeadRow | null; onClose: () => void }) {
  const history = useQuery({
    queryKey: ['leads', 'crm', lead?.id],
    queryFn: async () => (await getJson(`/api/leads/${lead?.id ?? 0}/crm`, crmAnswerSchema)).sync,
    enabled: lead !== null,
    staleTime: 0,
  });
  const captionId = useId();
  const name = lead ? [lead.first_name, lead.last_name].filter(Boolean).join(' ') : '';
  return (
    <Modal open={lead !== null} title={`Follow Up Boss sync: ${name}`} onClose={onClose}>
      {history.isPending ? <p aria-live="polite">Loading…</p> : null}
      {history.isError ? <p role="alert">Failed to load the sync history.</p> : null}
      {history.isSuccess ? (
        <>
          <p className="crm-note">{crmNote(history.data)}</p>
          {history.data && history.data.history.length > 0 ? (
            // Scrolls sideways on a narrow screen: focusable, so keys scroll it too.
            <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
              <table className="leads-table crm-attempts">
                <caption id={captionId}>
                  {history.data.history.length === 1 ? '1 attempt' : `${history.data.history.length} attempts`}, newest
                  first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">HTTP status</th>
                    <th scope="col">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {history.data.history.map((attempt, index) => (
                    <tr key={`${attempt.at}-${index}`}>
                      <td data-label="Time" className="nowrap">
                        <time dateTime={attempt.at}>{attemptTime.format(new Date(attempt.at))}</time>
                      </td>
                      <td data-label="Outcome">{OUTCOME_WORDS[attempt.outcome] ?? attempt.outcome}</td>
                      <td data-label="HTTP status">{attempt.http_status ?? 'No answer'}</td>
                      <td data-label="Error">{attempt.error ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p>No attempt yet.</p>
          )}
        </>
      ) : null}
    </Modal>
  );
}
