import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { sendJson } from '../accounts/public/account-query.ts';
import { useLeadExport } from '../leads/public/use-lead-export.ts';
import { ADMIN_AGENT_MESSAGES, adminAgentChangedSchema, agentLeadsCsv, type AdminAgent } from './admin-agents.ts';
import { AGENTS_KEY, messageOf } from './agents-query.ts';

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** Hard Delete's question: what goes with the agent, and their leads' CSV to keep first. */
export function AgentDeleteDialog(props: {
  agent: AdminAgent;
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const { agent, onClose, onDeleted } = props;
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => sendJson('DELETE', `/api/admin/agents/${agent.id}`, adminAgentChangedSchema),
    onSuccess: (answer) => onDeleted(answer.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: AGENTS_KEY }),
  });
  const name = `${agent.first_name} ${agent.last_name}`;
  const csv = agentLeadsCsv(agent.id);
  const leadsCsv = useLeadExport(csv.path);
  return (
    <ConfirmDialog
      open
      title={`Delete ${name}?`}
      confirmLabel="Delete agent"
      pendingLabel="Deleting…"
      tone="danger"
      pending={remove.isPending}
      error={leadsCsv.error ?? (remove.isError ? messageOf(remove.error, ADMIN_AGENT_MESSAGES.deleteFailed) : null)}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <p>
        {plural(agent.lead_count, 'lead')} and {plural(agent.estimate_count, 'estimate')} will be deleted with {name}.
        This cannot be undone.
      </p>
      {agent.lead_count > 0 ? (
        <p>
          <button
            type="button"
            className="link-button"
            disabled={leadsCsv.busy}
            onClick={() => leadsCsv.start(csv.filters)}
          >
            Download their leads (CSV) first
          </button>{' '}
          <span role="status">{leadsCsv.progress}</span>
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
