import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, sendJson } from '../accounts/public/account-query.ts';
import { canSync } from '../crm/public/fub-integration.ts';
import { FUB_QUERY_KEY, useFubIntegration } from '../crm/public/fub-query.ts';
import { leadSyncAnswerSchema, syncMessage, type LeadSyncResult } from '../crm/public/lead-sync.ts';
import type { LeadRow } from './public/lead-list.ts';
import type { LeadsSource } from './public/leads-source.ts';

export type Outcome = { tone: 'success' | 'error'; message: string } | null;

/** The sync controls' state for a table of the caller's own leads (null for any other scope). */
export interface LeadSyncControls {
  /** The integration is active and has a key (the spec): the Sync buttons and selection show. */
  canSync: boolean;
  selected: ReadonlySet<number>;
  select: (leadId: number, selected: boolean) => void;
  sync: (leadIds: number[]) => void;
  syncing: boolean;
  /** The leads of the request in flight. */
  sending: ReadonlySet<number>;
  outcome: Outcome;
  history: LeadRow | null;
  showHistory: (lead: LeadRow | null) => void;
}

/** Only leads still to send: a synced one is never sent again, one being sent is on its way. */
export const canSend = (lead: LeadRow) =>
  lead.synced_to_fub === 0 && lead.crm_status !== 'synced' && lead.crm_status !== 'sending';

/** The spec's message, and for a failure why: the leads left waiting are retried on their own. */
function syncOutcome(requested: number, synced: number, results: LeadSyncResult[]): Outcome {
  const message = syncMessage(requested, synced);
  if (message.ok) return { tone: 'success', message: message.text };
  const waiting = results.filter((result) => result.status === 'waiting').length;
  const reasons = [
    ...(synced > 0 ? [`${synced} of ${requested} synced`] : []),
    ...(waiting > 0 ? [`${waiting} waiting, retried automatically`] : []),
    ...new Set(results.flatMap((result) => (result.status !== 'synced' && result.error ? [result.error] : []))),
  ];
  return { tone: 'error', message: reasons.length > 0 ? `${message.text}: ${reasons.join('; ')}` : message.text };
}

export function useLeadSync(source: LeadsSource): LeadSyncControls | null {
  const integration = useFubIntegration(source.crm === true);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [history, showHistory] = useState<LeadRow | null>(null);
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: (leadIds: number[]) =>
      sendJson('POST', '/api/leads/sync-fub', leadSyncAnswerSchema, { lead_ids: leadIds }),
    onMutate: () => setOutcome(null),
    onSuccess: (answer, leadIds) => {
      setOutcome(syncOutcome(leadIds.length, answer.synced, answer.results));
      setSelected(new Set());
    },
    onError: (error, leadIds) =>
      setOutcome({
        tone: 'error',
        message:
          error instanceof ApiError
            ? `${syncMessage(leadIds.length, 0).text}: ${error.message}`
            : 'Error syncing to Follow Up Boss',
      }),
    // The rows' sync state and the integration's counts have changed.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: source.queryKey }),
        queryClient.invalidateQueries({ queryKey: FUB_QUERY_KEY }),
      ]),
  });
  if (!source.crm) return null;
  return {
    canSync: canSync(integration.data),
    selected,
    select: (leadId, on) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(leadId);
        else next.delete(leadId);
        return next;
      }),
    sync: (leadIds) => send.mutate(leadIds),
    syncing: send.isPending,
    sending: new Set(send.isPending ? send.variables : []),
    outcome,
    history,
    showHistory,
  };
}
