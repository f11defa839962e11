import { lazy, useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DialogOnDemand } from '../../ui/DialogOnDemand.tsx';
import { Notice } from '../../ui/Notice.tsx';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { ADMIN_AGENT_MESSAGES, type AdminAgent } from './admin-agents.ts';
import { AddAgentForm } from './AddAgentForm.tsx';
import { AGENTS_KEY, fetchAgents, type Outcome } from './agents-query.ts';
import { AgentTable } from './AgentTable.tsx';

// Loaded when a Hard Delete is first asked for: the first paint carries the list and the form.
const AgentDeleteDialog = lazy(() =>
  import('./AgentDeleteDialog.tsx').then((module) => ({ default: module.AgentDeleteDialog })),
);

/**
 * /admin/agents: every agent with their leads and last sign-in, Add New Agent, status changes (asked
 * first), Resend invitation and Hard Delete (never for oneself or the featured agent).
 */
export default function AgentsScreen() {
  return (
    <AccountFrame area="admin" current="/admin/agents">
      {(me) => <AgentsBody myId={me?.id ?? null} />}
    </AccountFrame>
  );
}

/** `myId` null while the session is checked: the list waits for it (it marks the admin's own row). */
function AgentsBody({ myId }: { myId: number | null }) {
  const agents = useQuery({ queryKey: AGENTS_KEY, queryFn: fetchAgents });
  // The table as drawn: drawn in a transition (useDeferredValue), which yields to the browser every
  // few milliseconds rather than blocking it in one long task (issue 23: total blocking time).
  const shown = useDeferredValue(agents.data);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [deleting, setDeleting] = useState<AdminAgent | null>(null);
  return (
    <div className="admin-agents">
      <section className="account-card" aria-labelledby="agents-title">
        <h1 id="agents-title">Agents</h1>
        <p>Every agent on the site. Change one’s status, send a new invitation, or add an agent below.</p>
        <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
        {agents.isPending || (agents.data && (myId === null || shown === undefined)) ? (
          <p aria-live="polite">Loading…</p>
        ) : null}
        {agents.isError ? (
          <>
            <Notice tone="error" message={ADMIN_AGENT_MESSAGES.loadFailed} />
            <button type="button" className="button button-primary" onClick={() => void agents.refetch()}>
              Retry
            </button>
          </>
        ) : null}
        {shown?.length === 0 ? <p>No agents found. Add your first agent to get started.</p> : null}
        {shown && shown.length > 0 && myId !== null ? (
          <AgentTable agents={shown} myId={myId} onOutcome={setOutcome} onDelete={setDeleting} />
        ) : null}
      </section>
      {/* Below the list, shown once the list has come: drawn earlier, it was pushed down (a layout shift). */}
      {agents.isPending || myId === null || (agents.data && shown === undefined) ? null : <AddAgentForm />}
      {deleting ? (
        <DialogOnDemand>
          <AgentDeleteDialog
            agent={deleting}
            onClose={() => setDeleting(null)}
            onDeleted={(message) => {
              setDeleting(null);
              setOutcome({ tone: 'success', message });
            }}
          />
        </DialogOnDemand>
      ) : null}
    </div>
  );
}
