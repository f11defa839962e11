import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as z from 'zod/mini';
import { Field } from '../../../ui/Field.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { ApiError, getJson, sendJson } from '../../accounts/public/account-query.ts';
import { useSettingsForm, type Outcome, type OutcomeState } from '../../accounts/public/use-settings-form.ts';
import {
  EMAIL_SETTINGS_MESSAGES,
  mailgunSaveSchema,
  mailgunViewSchema,
  testEmailAnswerSchema,
  type MailgunSave,
  type MailgunView,
} from '../email-settings.ts';

const PATH = '/api/agents/me/integrations/mailgun';
const QUERY_KEY = ['mailgun-settings'];
const answerSchema = z.object({ success: z.literal(true), settings: mailgunViewSchema });
const savedSchema = z.extend(answerSchema, { message: z.string() });

/** The admin's e-mail sending card: the Mailgun settings (key write-only) and a test e-mail. */
export function EmailSettingsCard() {
  const settings = useQuery({
    queryKey: QUERY_KEY,
    queryFn: async () => (await getJson(PATH, answerSchema)).settings,
  });
  // The card's one notice (minor 26, decision 0048): the latest outcome of a save or a test e-mail,
  // else why the settings could not be loaded.
  const outcomeState = useState<Outcome>(null);
  const [outcome, setOutcome] = outcomeState;
  const shown: Outcome =
    outcome ?? (settings.isError ? { tone: 'error', message: EMAIL_SETTINGS_MESSAGES.loadFailed } : null);
  return (
    <section className="card admin-settings-card" aria-labelledby="email-settings-title">
      <h2 id="email-settings-title">E-mail sending</h2>
      <p>
        With all four Mailgun settings filled in, the site sends its e-mail (estimates, new-lead notices, account
        e-mails) through Mailgun from the sender named here. Until then it sends through Resend when the server has a
        Resend API key, and otherwise keeps each e-mail in its outbox unsent.
      </p>
      {settings.isPending ? (
        // The form's own shape, empty and disabled, while the settings come: the cards below it
        // stay where they are when it fills in (a "Loading…" line pushed them down: CLS 0.059).
        <fieldset disabled aria-busy="true" className="plain-fieldset">
          <legend className="visually-hidden">Loading the e-mail settings…</legend>
          <MailgunForm key="loading" saved={EMPTY_VIEW} outcomeState={outcomeState} />
        </fieldset>
      ) : null}
      {settings.isError ? (
        <button type="button" className="button button-primary" onClick={() => void settings.refetch()}>
          Retry
        </button>
      ) : null}
      {settings.data ? <MailgunForm key="loaded" saved={settings.data} outcomeState={outcomeState} /> : null}
      <TestEmail onOutcome={setOutcome} />
      <Notice tone={shown?.tone ?? 'success'} message={shown?.message ?? null} />
    </section>
  );
}

/** What the form shows while the settings come (nothing set). */
const EMPTY_VIEW: MailgunView = {
  mailgun_domain: null,
  mailgun_from_name: null,
  mailgun_from_email: null,
  mailgun_api_key_masked: '',
  complete: false,
};

const toDraft = (saved: MailgunView) => ({
  mailgun_domain: saved.mailgun_domain ?? '',
  mailgun_api_key: '',
  mailgun_from_name: saved.mailgun_from_name ?? '',
  mailgun_from_email: saved.mailgun_from_email ?? '',
});

function MailgunForm({ saved, outcomeState }: { saved: MailgunView; outcomeState: OutcomeState }) {
  // The key is write-only: its input starts empty, and an empty one keeps the stored key.
  const { submit, input, pending } = useSettingsForm({
    saved,
    toDraft,
    schema: mailgunSaveSchema,
    save: (body: MailgunSave) => sendJson('PATCH', PATH, savedSchema, body),
    queryKey: QUERY_KEY,
    messages: EMAIL_SETTINGS_MESSAGES,
    outcomeState,
  });

  return (
    <form noValidate onSubmit={submit} className="admin-settings-form">
      <p className="admin-settings-status">
        <span className={`badge ${saved.complete ? 'badge-on' : 'badge-off'}`}>
          {saved.complete ? 'Sending through Mailgun' : 'Mailgun not set up'}
        </span>
      </p>
      <Field
        label="Mailgun domain"
        autoComplete="off"
        spellCheck={false}
        placeholder="mg.example.com"
        {...input('mailgun_domain')}
      />
      <Field
        label="Mailgun API key"
        type="password"
        // Another service's key, never this person's own password: browsers ignore "off" on a
        // password field and would offer the login password; "new-password" keeps it out.
        autoComplete="new-password"
        spellCheck={false}
        placeholder={saved.mailgun_api_key_masked || undefined}
        hint={
          saved.mailgun_api_key_masked
            ? `Saved key ${saved.mailgun_api_key_masked}. Leave blank to keep it.`
            : 'In Mailgun: Sending → Domain settings → Sending API keys.'
        }
        {...input('mailgun_api_key')}
      />
      <Field label="Sender name" autoComplete="off" {...input('mailgun_from_name')} />
      <Field
        label="Sender e-mail address"
        type="email"
        autoComplete="off"
        spellCheck={false}
        hint="An address at the Mailgun domain."
        {...input('mailgun_from_email')}
      />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? 'Saving…' : 'Save e-mail settings'}
      </button>
    </form>
  );
}

/** Sends a test e-mail to the signed-in admin, through whichever provider the site uses now. */
function TestEmail({ onOutcome }: { onOutcome: (outcome: Outcome) => void }) {
  const test = useMutation({
    mutationFn: () => sendJson('POST', '/api/admin/email/test', testEmailAnswerSchema),
    onMutate: () => onOutcome(null),
    onSuccess: (answer) => onOutcome({ tone: 'success', message: answer.message }),
    onError: (error) =>
      onOutcome({
        tone: 'error',
        message: error instanceof ApiError ? error.message : EMAIL_SETTINGS_MESSAGES.testFailed,
      }),
  });
  return (
    <div className="admin-settings-test">
      <h3>Test e-mail</h3>
      <p>Sends a short e-mail to your own address, through the provider the site would use right now.</p>
      <button type="button" className="button button-secondary" disabled={test.isPending} onClick={() => test.mutate()}>
        {test.isPending ? 'Sending…' : 'Send a test e-mail'}
      </button>
    </div>
  );
}
