import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, useId, useState } from 'react';
import { DialogOnDemand } from '../../ui/DialogOnDemand.tsx';
import { sendJson } from '../accounts/public/account-query.ts';
import { LEAD_TIME_ZONE } from '../leads/public/lead-time-zone.ts';
import { ADMIN_AGENT_MESSAGES, AGENT_STATUSES, adminAgentChangedSchema, type AdminAgent } from './admin-agents.ts';
import { AGENTS_KEY, messageOf, nameOf, type Outcome, type StatusChange } from './agents-query.ts';

// Loaded when a status is first changed: the first paint carries the list.
const AgentStatusDialog = lazy(() =>
  import('./AgentStatusDialog.tsx').then((module) => ({ default: module.AgentStatusDialog })),
);

const STATUS_TONE: Record<AdminAgent['status'], string> = {
  active: 'badge-on',
  inactive: 'badge-off',
  pending: 'badge-wait',
};

const signInTime = new Intl.DateTimeFormat('en-US', {
  timeZone: LEAD_TIME_ZONE,
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** A status change waiting for the admin's yes (minor 25: it used to apply as the select changed). */

/** The agents, one row each: status (asked first), their page, Resend invitation and Hard Delete. */
export function AgentTable(props: {
  agents: AdminAgent[];
  myId: number;
  onOutcome: (outcome: Outcome) => void;
  onDelete: (agent: AdminAgent) => void;
}) {
  const { agents, myId, onOutcome, onDelete } = props;
  const captionId = useId();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<StatusChange | null>(null);
  const changeStatus = useMutation({
    mutationFn: ({ agent, status }: StatusChange) =>
      sendJson('PATCH', `/api/admin/agents/${agent.id}`, adminAgentChangedSchema, { status }),
    onMutate: () => onOutcome(null),
    onSuccess: (answer) => {
      setAsking(null);
      onOutcome({ tone: 'success', message: answer.message });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: AGENTS_KEY }),
  });
  const ask = (change: StatusChange | null) => {
    changeStatus.reset();
    setAsking(change);
  };
  const resend = useMutation({
    mutationFn: (agent: AdminAgent) =>
      sendJson('POST', `/api/admin/agents/${agent.id}/invitation`, adminAgentChangedSchema),
    onSuccess: (answer, agent) =>
      onOutcome({ tone: 'success', message: `${answer.message} It went to ${agent.email}.` }),
    onError: (error) => onOutcome({ tone: 'error', message: messageOf(error, ADMIN_AGENT_MESSAGES.invitationFailed) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: AGENTS_KEY }),
  });
  return (
    <>
      {/* On a phone each agent is a block of labelled lines (.leads-table in global.css). */}
      <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="leads-table">
          <caption id={captionId}>
            {agents.length} {agents.length === 1 ? 'agent' : 'agents'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Slug</th>
              <th scope="col">Brokerage</th>
              <th scope="col">Leads</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {agents.map((agent) => {
              const name = nameOf(agent);
              // Your own status and the featured agent's are not yours to change here (the server refuses too).
              const fixedStatus = agent.id === myId || agent.featured;
              return (
                <tr key={agent.id}>
                  <th scope="row">
                    {name}
                    {agent.is_admin ? (
                      <>
                        {' '}
                        <span className="badge badge-admin">Admin</span>
                      </>
                    ) : null}
                    {agent.featured ? (
                      <>
                        {' '}
                        <span className="badge badge-admin">Featured</span>
                      </>
                    ) : null}
                  </th>
                  <td data-label="Email" className="leads-email">
                    {agent.email}
                  </td>
                  <td data-label="Slug">{agent.slug}</td>
                  <td data-label="Brokerage">{agent.brokerage ?? 'N/A'}</td>
                  <td data-label="Leads">{agent.lead_count}</td>
                  <td data-label="Last sign-in">
                    {agent.last_sign_in_at ? signInTime.format(new Date(agent.last_sign_in_at)) : 'Never'}
                  </td>
                  <td data-label="Status" className="nowrap">
                    {fixedStatus ? (
                      <span className={`badge ${STATUS_TONE[agent.status]}`}>{agent.status}</span>
                    ) : (
                      <div className="agent-status">
                        <label className="visually-hidden" htmlFor={`status-${agent.id}`}>
                          Status of {name}
                        </label>
                        <select
                          id={`status-${agent.id}`}
                          value={agent.status}
                          disabled={changeStatus.isPending}
                          onChange={(event) => {
                            const status = AGENT_STATUSES.find((value) => value === event.target.value);
                            if (status && status !== agent.status) ask({ agent, status });
                          }}
                        >
                          {AGENT_STATUSES.map((status) => (
                            <option key={status} value={status}>
                              {status}
                            </option>
                          ))}
                        </select>
                      </div>
                    )}
                  </td>
                  <td data-label="Actions">
                    <div className="agent-actions">
                      <a className="button button-secondary" href={`/r/${agent.slug}`} target="_blank" rel="noopener">
                        View Page<span className="visually-hidden"> of {name} (opens in a new tab)</span>
                      </a>
                      {agent.invitation_open && agent.id !== myId ? (
                        <button
                          type="button"
                          className="button button-secondary"
                          disabled={resend.isPending}
                          onClick={() => resend.mutate(agent)}
                        >
                          Resend invitation<span className="visually-hidden"> to {name}</span>
                        </button>
                      ) : null}
                      {fixedStatus ? null : (
                        <button type="button" className="button button-danger" onClick={() => onDelete(agent)}>
                          Hard Delete<span className="visually-hidden"> {name}</span>
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {asking ? (
        <DialogOnDemand>
          <AgentStatusDialog
            change={asking}
            pending={changeStatus.isPending}
            error={changeStatus.isError ? messageOf(changeStatus.error, 'Failed to update status') : null}
            onConfirm={() => changeStatus.mutate(asking)}
            onCancel={() => ask(null)}
          />
        </DialogOnDemand>
      ) : null}
    </>
  );
}
