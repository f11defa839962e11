import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import AccountFrame from '../accounts/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from '../accounts/save-failure.ts';
import { Field } from '../../ui/Field.tsx';
import { fieldErrorsOf } from '../../ui/field-errors.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Notice } from '../../ui/Notice.tsx';
import {
  ADMIN_AGENT_MESSAGES,
  AGENT_STATUSES,
  addAgentSchema,
  adminAgentAddedSchema,
  adminAgentChangedSchema,
  adminAgentListSchema,
  agentLeadsCsv,
  statusChangeQuestion,
  type AdminAgent,
  type AgentStatus,
} from './admin-agents.ts';
import { LEAD_TIME_ZONE } from '../leads/lead-list.ts';
import { useLeadExport } from '../leads/use-lead-export.ts';

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

const AGENTS_KEY = ['admin-agents'];
const fetchAgents = async () => (await getJson('/api/admin/agents', adminAgentListSchema)).agents;

/** The server's words for a refusal it explains (4xx), else the screen's own. */
const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status < 500 ? error.message : fallback;

type Outcome = { tone: 'success' | 'error'; message: string } | null;

/** `myId` null while the session is checked: the list waits for it (it marks the admin's own row). */
function AgentsBody({ myId }: { myId: number | null }) {
  const agents = useQuery({ queryKey: AGENTS_KEY, queryFn: fetchAgents });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [deleting, setDeleting] = useState<AdminAgent | null>(null);
  return (
    <div className="admin-agents">
      <section className="account-card" aria-labelledby="agents-title">
        <h1 id="agents-title">Agents</h1>
        <p>Every agent on the site. Change one’s status, send a new invitation, or add an agent below.</p>
        <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
        {agents.isPending || (agents.data && myId === null) ? <p aria-live="polite">Loading…</p> : null}
        {agents.isError ? (
          <>
            <Notice tone="error" message={ADMIN_AGENT_MESSAGES.loadFailed} />
            <button type="button" className="button button-primary" onClick={() => void agents.refetch()}>
              Retry
            </button>
          </>
        ) : null}
        {agents.data?.length === 0 ? <p>No agents found. Add your first agent to get started.</p> : null}
        {agents.data && agents.data.length > 0 && myId !== null ? (
          <AgentTable agents={agents.data} myId={myId} onOutcome={setOutcome} onDelete={setDeleting} />
        ) : null}
      </section>
      {/* Below the list, shown once the list has come: drawn earlier, it was pushed down (a layout shift). */}
      {agents.isPending || myId === null ? null : <AddAgentForm />}
      {deleting ? (
        <DeleteDialog
          agent={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(message) => {
            setDeleting(null);
            setOutcome({ tone: 'success', message });
          }}
        />
      ) : null}
    </div>
  );
}

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
type StatusChange = { agent: AdminAgent; status: AgentStatus };

function AgentTable(props: {
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
  const question = asking ? statusChangeQuestion(nameOf(asking.agent), asking.status) : null;
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
      <ConfirmDialog
        open={asking !== null}
        title={question?.title ?? ''}
        confirmLabel={asking ? `Make ${asking.status}` : ''}
        pendingLabel="Saving…"
        tone={asking?.status === 'active' ? 'primary' : 'danger'}
        pending={changeStatus.isPending}
        error={changeStatus.isError ? messageOf(changeStatus.error, 'Failed to update status') : null}
        onConfirm={() => asking && changeStatus.mutate(asking)}
        onCancel={() => ask(null)}
      >
        <p>{question?.consequence}</p>
      </ConfirmDialog>
    </>
  );
}

const nameOf = (agent: AdminAgent) => `${agent.first_name} ${agent.last_name}`;

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

function DeleteDialog(props: { agent: AdminAgent; onClose: () => void; onDeleted: (message: string) => void }) {
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

const EMPTY = { first_name: '', last_name: '', email: '', slug: '', brokerage: '', phone: '' };
type Draft = typeof EMPTY;

function AddAgentForm() {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const add = useMutation({
    mutationFn: (body: unknown) => sendJson('POST', '/api/admin/agents', adminAgentAddedSchema, body),
    onSuccess: () => {
      setDraft(EMPTY);
      setOutcome({ tone: 'success', message: ADMIN_AGENT_MESSAGES.added });
      void queryClient.invalidateQueries({ queryKey: AGENTS_KEY });
    },
    onError: (error) => {
      const fieldErrors = error instanceof ApiError ? error.fields : {};
      setFields(fieldErrors);
      // A refusal of a field ("Slug already taken") is said under that field, not a second time here (minor 26).
      const said = Object.keys(fieldErrors).length > 0;
      setOutcome(
        said ? null : { tone: 'error', message: saveFailureMessage(error, { failed: ADMIN_AGENT_MESSAGES.addFailed }) },
      );
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    // The phone goes as digits only, as the spec's form sends it.
    const body = { ...draft, phone: draft.phone.replace(/\D/g, '') };
    const parsed = addAgentSchema.safeParse(body);
    if (!parsed.success) {
      setFields(fieldErrorsOf(parsed.error));
      setOutcome({ tone: 'error', message: CHECK_FIELDS });
      return;
    }
    setFields({});
    add.mutate(body);
  };

  const input = (name: keyof Draft, label: string, extra: { type?: string; autoComplete?: string; hint?: string }) => (
    <Field
      label={label}
      name={name}
      type={extra.type ?? 'text'}
      autoComplete={extra.autoComplete ?? 'off'}
      hint={extra.hint}
      value={draft[name]}
      error={fields[name]}
      onChange={(event) => {
        const value = name === 'slug' ? event.target.value.toLowerCase().replace(/[^a-z0-9]/g, '') : event.target.value;
        setDraft({ ...draft, [name]: value });
      }}
    />
  );

  return (
    <section className="account-card" aria-labelledby="add-agent-title">
      <h2 id="add-agent-title">Add New Agent</h2>
      <p>The new agent gets an e-mail with a link to choose their password; following it activates the account.</p>
      <form noValidate onSubmit={submit} className="add-agent-form">
        {input('first_name', 'First name', {})}
        {input('last_name', 'Last name', {})}
        {input('email', 'Email', { type: 'email' })}
        {input('slug', 'Calculator address', { hint: 'Lowercase letters and numbers: their page is /r/{slug}.' })}
        {input('brokerage', 'Brokerage (optional)', {})}
        {input('phone', 'Phone (optional)', { type: 'tel' })}
        <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
        <button type="submit" className="button button-primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add Agent'}
        </button>
      </form>
    </section>
  );
}
