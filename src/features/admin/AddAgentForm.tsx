import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { fieldErrorsOf } from '../../ui/field-errors.ts';
import { Notice } from '../../ui/Notice.tsx';
import { ApiError, sendJson } from '../accounts/public/account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from '../accounts/public/save-failure.ts';
import { ADMIN_AGENT_MESSAGES, addAgentSchema, adminAgentAddedSchema } from './admin-agents.ts';
import { AGENTS_KEY, type Outcome } from './agents-query.ts';

const EMPTY = { first_name: '', last_name: '', email: '', slug: '', brokerage: '', phone: '' };
type Draft = typeof EMPTY;

/** Add New Agent: the new agent is invited by e-mail to choose a password. */
export function AddAgentForm() {
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
