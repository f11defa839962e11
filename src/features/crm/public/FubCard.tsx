import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { CheckboxField } from '../../../ui/CheckboxField.tsx';
import { Field } from '../../../ui/Field.tsx';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { ApiError, sendJson } from '../../accounts/public/account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from '../../accounts/public/save-failure.ts';
import { FUB_MESSAGES, type FubIntegration, type FubSave } from './fub-integration.ts';
import { fubChangeSchema } from './fub-integration.ts';
import { FUB_PATH, FUB_QUERY_KEY, useFubIntegration } from './fub-query.ts';

type Outcome = { tone: 'success' | 'error'; message: string } | null;

/** The Follow Up Boss card of /dashboard/integrations: its states, the form and Disconnect. */
export function FubCard() {
  const integration = useFubIntegration();
  return (
    <section className="card fub-card" aria-labelledby="fub-title">
      <h2 id="fub-title">Follow Up Boss</h2>
      <p>
        Connected with your Follow Up Boss API key, every new lead from your calculator page is sent to your Follow Up
        Boss account as a person with their estimate, and you can send earlier leads from the Leads page.
      </p>
      {integration.isPending ? <p aria-live="polite">Loading…</p> : null}
      {integration.isError ? (
        <>
          <Notice tone="error" message="Failed to load your Follow Up Boss settings" />
          <button type="button" className="button button-primary" onClick={() => void integration.refetch()}>
            Retry
          </button>
        </>
      ) : null}
      {integration.data ? <FubSettings integration={integration.data} /> : null}
    </section>
  );
}

const LEAD_COUNTS = [
  ['synced', 'synced'],
  ['waiting', 'waiting to be sent'],
  ['stopped', 'stopped until a working key is saved'],
  ['ignored', 'ignored by Follow Up Boss (lead flow archived)'],
  ['rejected', 'refused by Follow Up Boss'],
] as const;

function FubSettings({ integration }: { integration: FubIntegration }) {
  const queryClient = useQueryClient();
  // The keys are write-only: the inputs start empty and an empty one keeps the stored key.
  const [draft, setDraft] = useState({ api_key: '', system: integration.system ?? '', system_key: '' });
  const [active, setActive] = useState(integration.connected ? integration.active : true);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [confirming, setConfirming] = useState(false);

  const changed = (answer: { integration: FubIntegration }) => {
    queryClient.setQueryData(FUB_QUERY_KEY, answer.integration);
    // The leads list shows each lead's sync state, which a save or disconnect may change.
    void queryClient.invalidateQueries({ queryKey: ['leads'] });
  };

  const save = useMutation({
    mutationFn: (body: FubSave) => sendJson('PATCH', FUB_PATH, fubChangeSchema, body),
    onSuccess: (answer) => {
      changed(answer);
      setDraft({ api_key: '', system: answer.integration.system ?? '', system_key: '' });
      setActive(answer.integration.active);
      setOutcome({ tone: 'success', message: answer.message });
    },
    onError: (error) => {
      setFields(error instanceof ApiError ? error.fields : {});
      setOutcome({
        tone: 'error',
        message: saveFailureMessage(error, { failed: FUB_MESSAGES.saveFailed, unreachable: FUB_MESSAGES.saveError }),
      });
    },
  });

  const disconnect = useMutation({
    mutationFn: () => sendJson('DELETE', FUB_PATH, fubChangeSchema),
    onSuccess: (answer) => {
      setConfirming(false);
      changed(answer);
      setDraft({ api_key: '', system: '', system_key: '' });
      setActive(true);
      setOutcome({ tone: 'success', message: answer.message });
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    if (!integration.connected && !draft.api_key.trim()) {
      setFields({ api_key: 'Enter your Follow Up Boss API key' });
      setOutcome({ tone: 'error', message: CHECK_FIELDS });
      return;
    }
    setFields({});
    // The spec: empty optional values are left out; `active` is always sent.
    const body: FubSave = { active };
    const apiKey = draft.api_key.trim();
    const system = draft.system.trim();
    const systemKey = draft.system_key.trim();
    if (apiKey) body.api_key = apiKey;
    if (system) body.system = system;
    if (systemKey) body.system_key = systemKey;
    save.mutate(body);
  };

  const counts = LEAD_COUNTS.flatMap(([state, words]) => {
    const count = integration.leads[state];
    return count > 0 ? [`${count} ${count === 1 ? 'lead' : 'leads'} ${words}`] : [];
  });
  const account = integration.account;

  return (
    <div className="fub-settings">
      <p className="fub-status">
        <span className={`badge ${integration.connected ? 'badge-on' : 'badge-off'}`}>
          {integration.connected ? (integration.active ? 'Connected' : 'Connected, paused') : 'Not connected'}
        </span>
        {integration.connected && account ? (
          <span>
            Connected to {account.name ?? 'your account'}
            {account.domain ? ` (${account.domain})` : ''}
            {account.user_name || account.user_email
              ? ` as ${[account.user_name, account.user_email].filter(Boolean).join(', ')}`
              : ''}
          </span>
        ) : null}
      </p>
      {integration.attention ? (
        <div className="notice-warning fub-attention" role="alert">
          <p>
            <strong>Follow Up Boss needs attention.</strong> {integration.attention}
          </p>
          <p>
            New leads are not being sent. Save a working API key below (Follow Up Boss → Admin → API): the leads that
            waited are sent then.
          </p>
        </div>
      ) : null}
      {counts.length > 0 ? (
        <ul className="fub-counts" aria-label="Your leads in Follow Up Boss">
          {counts.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      <form
        noValidate
        onSubmit={submit}
        // Any edit of the form: a success notice no longer describes it (minor 26).
        onChange={() => setOutcome((shown) => (shown?.tone === 'success' ? null : shown))}
        className="fub-form"
      >
        <Field
          label="API key"
          name="api_key"
          type="password"
          // Another service's key, never this person's own password: browsers ignore "off" on a
          // password field and would offer the login password; "new-password" keeps it out.
          autoComplete="new-password"
          spellCheck={false}
          placeholder={integration.connected ? integration.api_key_masked : undefined}
          hint={
            integration.connected
              ? `Saved key ${integration.api_key_masked}. Leave blank to keep it.`
              : 'In Follow Up Boss: Admin → API → Create API Key.'
          }
          value={draft.api_key}
          error={fields.api_key}
          onChange={(event) => setDraft({ ...draft, api_key: event.target.value })}
        />
        <Field
          label="System (optional)"
          name="system"
          autoComplete="off"
          hint="The name your registered system uses in Follow Up Boss, if you have one."
          value={draft.system}
          error={fields.system}
          onChange={(event) => setDraft({ ...draft, system: event.target.value })}
        />
        <Field
          label="System key (optional)"
          name="system_key"
          type="password"
          // Another service's key, never this person's own password: browsers ignore "off" on a
          // password field and would offer the login password; "new-password" keeps it out.
          autoComplete="new-password"
          spellCheck={false}
          placeholder={integration.system_key_masked || undefined}
          hint={
            integration.system_key_masked
              ? `Saved key ${integration.system_key_masked}. Leave blank to keep it.`
              : 'Given with a registered system.'
          }
          value={draft.system_key}
          error={fields.system_key}
          onChange={(event) => setDraft({ ...draft, system_key: event.target.value })}
        />
        <CheckboxField
          name="active"
          checked={active}
          onChange={setActive}
          hint="Off: new leads are kept here and not sent until you turn it on."
        >
          Active: send new leads to Follow Up Boss
        </CheckboxField>
        <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
        <div className="nav-actions">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          {integration.connected ? (
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                setOutcome(null);
                disconnect.reset();
                setConfirming(true);
              }}
            >
              Disconnect
            </button>
          ) : null}
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title="Disconnect Follow Up Boss?"
        confirmLabel="Disconnect"
        pendingLabel="Disconnecting…"
        tone="danger"
        pending={disconnect.isPending}
        error={
          disconnect.isError
            ? disconnect.error instanceof ApiError
              ? disconnect.error.message
              : 'An error occurred while disconnecting Follow Up Boss'
            : null
        }
        onConfirm={() => disconnect.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Your API keys are removed and new leads are no longer sent to Follow Up Boss. Leads already there stay; leads
          still waiting are sent if you connect again.
        </p>
      </ConfirmDialog>
    </div>
  );
}
