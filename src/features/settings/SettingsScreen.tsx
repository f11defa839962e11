import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import AccountFrame from '../accounts/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/account-query.ts';
import { Field } from '../../ui/Field.tsx';
import { fieldErrorsOf } from '../../ui/field-errors.ts';
import { Notice } from '../../ui/Notice.tsx';
import {
  calculatorSettingsSchema,
  SETTINGS_MESSAGES,
  settingsResponseSchema,
  type CalculatorSettings,
} from './agent-settings.ts';

/** /dashboard/settings: the calculator defaults. */
export default function SettingsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/settings">
      {() => <SettingsBody />}
    </AccountFrame>
  );
}

const SETTINGS_KEY = ['agent-settings'];
const fetchSettings = async () => (await getJson('/api/agents/me/settings', settingsResponseSchema)).settings;

function SettingsBody() {
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: fetchSettings });
  return (
    <section className="account-card settings-card" aria-labelledby="settings-title">
      <h1 id="settings-title">Calculator settings</h1>
      <p>
        The figures a new estimate on your calculator page starts with. Estimates already made keep the figures they
        were made with.
      </p>
      {settings.isPending ? <p aria-live="polite">Loading…</p> : null}
      {settings.isError ? (
        <>
          <Notice tone="error" message={SETTINGS_MESSAGES.loadFailed} />
          <button type="button" className="button button-primary" onClick={() => void settings.refetch()}>
            Retry
          </button>
        </>
      ) : null}
      {settings.data ? <SettingsForm saved={settings.data} /> : null}
    </section>
  );
}

type Draft = Record<keyof CalculatorSettings, string>;

const toDraft = (settings: CalculatorSettings): Draft => ({
  default_attorney_fee: String(settings.default_attorney_fee),
  default_recording_fee: String(settings.default_recording_fee),
  transfer_tax_rate_per_1000: settings.transfer_tax_rate_per_1000.toFixed(2),
  default_commission_percent: settings.default_commission_percent.toFixed(2),
});

/** What the inputs hold, as the API takes it: an empty input is missing, anything else a number. */
const fromDraft = (draft: Draft) =>
  Object.fromEntries(
    Object.entries(draft).map(([key, value]) => [key, value.trim() === '' ? undefined : Number(value)]),
  );

function SettingsForm({ saved }: { saved: CalculatorSettings }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const save = useMutation({
    mutationFn: (body: CalculatorSettings) =>
      sendJson('PATCH', '/api/agents/me/settings', settingsResponseSchema, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(SETTINGS_KEY, answer.settings);
      setDraft(toDraft(answer.settings));
      setOutcome({ tone: 'success', message: SETTINGS_MESSAGES.saved });
    },
    onError: (error) => {
      setFields(error instanceof ApiError ? error.fields : {});
      setOutcome({
        tone: 'error',
        message: error instanceof ApiError && error.status < 500 ? error.message : SETTINGS_MESSAGES.saveFailed,
      });
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    const parsed = calculatorSettingsSchema.safeParse(fromDraft(draft));
    if (!parsed.success) {
      setFields(fieldErrorsOf(parsed.error));
      setOutcome({ tone: 'error', message: SETTINGS_MESSAGES.saveFailed });
      return;
    }
    setFields({});
    save.mutate(parsed.data);
  };

  const input = (name: keyof Draft, label: string, step: string, placeholder: string, hint: string) => (
    <Field
      label={label}
      name={name}
      type="number"
      inputMode="decimal"
      min={0}
      step={step}
      placeholder={placeholder}
      hint={hint}
      value={draft[name]}
      error={fields[name]}
      onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
    />
  );

  return (
    <form noValidate onSubmit={submit} className="settings-form">
      {input('default_attorney_fee', 'Attorney fee ($)', '1', '750', 'Whole dollars, up to $100,000.')}
      {input('default_recording_fee', 'Recording fee ($)', '1', '175', 'Whole dollars, up to $100,000.')}
      {input('transfer_tax_rate_per_1000', 'Transfer tax rate (per $1,000)', '0.01', '1.15', 'Between 0 and 20.')}
      {input('default_commission_percent', 'Commission (%)', '0.01', '6.00', 'Between 0 and 20.')}
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
