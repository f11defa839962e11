import type { LeadRow } from './public/lead-list.ts';

/** A lead's sync in the list's words, and the badge's tone. */
export function syncStateOf(lead: Pick<LeadRow, 'synced_to_fub' | 'crm_status'>): {
  words: string;
  tone: 'on' | 'off' | 'wait' | 'bad';
} {
  if (lead.synced_to_fub === 1 || lead.crm_status === 'synced') return { words: 'Synced', tone: 'on' };
  switch (lead.crm_status) {
    case 'queued':
    case 'sending':
      return { words: 'Waiting', tone: 'wait' };
    case 'stopped':
    case 'rejected':
      return { words: 'Needs attention', tone: 'bad' };
    case 'ignored':
      return { words: 'Ignored (lead flow archived)', tone: 'wait' };
    default:
      return { words: 'Not synced', tone: 'off' };
  }
}

export function SyncBadge({ lead }: { lead: Pick<LeadRow, 'synced_to_fub' | 'crm_status'> }) {
  const state = syncStateOf(lead);
  return <span className={`badge badge-${state.tone}`}>{state.words}</span>;
}
