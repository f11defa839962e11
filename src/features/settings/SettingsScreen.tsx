import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import AccountFrame from '../accounts/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/account-query.ts';
import { Field } from '../../ui/Field.tsx';
import { fieldErrorsOf } from '../../ui/field-errors.ts';
import { Notice } from '../../ui/Notice.tsx';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import {
  agentDefaultsSchema,
  agentSettingsResponseSchema,
  agentSettingsSavedSchema,
  SETTINGS_MESSAGES,
  type AgentDefaults,
  type AgentSettings,
} from './agent-settings.ts';
import './settings.css';

/** /dashboard/settings: the calculator defaults. */
export default function SettingsScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/settings">
      {() => <SettingsBody />}
    </AccountFrame>
  );
}

const SETTINGS_KEY = ['agent-settings'];
const fetchSettings = async () => (await getJson('/api/agents/me/settings', agentSettingsResponseSchema)).settings;

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

/** The number fields of the form, as typed. */
type NumberKey = Exclude<keyof AgentDefaults, SwitchKey>;
type SwitchKey = 'default_title_closer_pickup' | 'default_payoff_bank_attorney' | 'default_rp5217_on_seller';
type Draft = Record<NumberKey, string>;
type Switches = Record<SwitchKey, boolean>;

const toDraft = (settings: AgentSettings): Draft => ({
  default_attorney_fee: String(settings.default_attorney_fee),
  default_recording_fee: String(settings.default_recording_fee),
  transfer_tax_rate_per_1000: settings.transfer_tax_rate_per_1000.toFixed(2),
  default_listing_percent: settings.default_listing_percent.toFixed(2),
  default_buyer_agent_percent: settings.default_buyer_agent_percent.toFixed(2),
  default_days_to_closing: String(settings.default_days_to_closing),
});

const toSwitches = (settings: AgentSettings): Switches => ({
  default_title_closer_pickup: settings.default_title_closer_pickup,
  default_payoff_bank_attorney: settings.default_payoff_bank_attorney,
  default_rp5217_on_seller: settings.default_rp5217_on_seller,
});

/** What the inputs hold, as the API takes it: an empty input is missing, anything else a number. */
const fromDraft = (draft: Draft) =>
  Object.fromEntries(
    Object.entries(draft).map(([key, value]) => [key, value.trim() === '' ? undefined : Number(value)]),
  );

/** The commission the quick estimate uses: the two sides added in hundredths (blank while one is not a number). */
const commissionOf = (draft: Draft) => {
  const listing = Number(draft.default_listing_percent);
  const buyerAgent = Number(draft.default_buyer_agent_percent);
  if (draft.default_listing_percent.trim() === '' || draft.default_buyer_agent_percent.trim() === '') return null;
  if (!Number.isFinite(listing) || !Number.isFinite(buyerAgent)) return null;
  return ((Math.round(listing * 100) + Math.round(buyerAgent * 100)) / 100).toFixed(2);
};

function SettingsForm({ saved }: { saved: AgentSettings }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [switches, setSwitches] = useState<Switches>(() => toSwitches(saved));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const save = useMutation({
    mutationFn: (body: AgentDefaults) => sendJson('PATCH', '/api/agents/me/settings', agentSettingsSavedSchema, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(SETTINGS_KEY, answer.settings);
      setDraft(toDraft(answer.settings));
      setSwitches(toSwitches(answer.settings));
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
    const parsed = agentDefaultsSchema.safeParse({ ...fromDraft(draft), ...switches });
    if (!parsed.success) {
      setFields(fieldErrorsOf(parsed.error));
      setOutcome({ tone: 'error', message: SETTINGS_MESSAGES.saveFailed });
      return;
    }
    setFields({});
    save.mutate(parsed.data);
  };

  const input = (name: NumberKey, label: string, step: string, placeholder: string, hint: string) => (
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
  const toggle = (name: SwitchKey, label: string, hint: string) => (
    <CheckboxField
      name={name}
      checked={switches[name]}
      hint={hint}
      error={fields[name]}
      onChange={(checked) => setSwitches({ ...switches, [name]: checked })}
    >
      {label}
    </CheckboxField>
  );
  const commission = commissionOf(draft);

  return (
    <form noValidate onSubmit={submit} className="settings-form">
      {input('default_attorney_fee', 'Attorney fee ($)', '1', '750', 'Whole dollars, up to $100,000.')}
      {input('default_recording_fee', 'Recording fee ($)', '1', '175', 'Whole dollars, up to $100,000.')}
      {input('transfer_tax_rate_per_1000', 'Transfer tax rate (per $1,000)', '0.01', '1.15', 'Between 0 and 20.')}
      <fieldset className="settings-group">
        <legend>Commission</legend>
        {input('default_listing_percent', 'Listing side (%)', '0.01', '3.00', 'Your brokerage’s share.')}
        {input('default_buyer_agent_percent', 'Buyer’s agent (%)', '0.01', '3.00', 'Offered to the buyer’s agent.')}
        <p className="settings-sum" aria-live="polite">
          Total commission: <strong>{commission === null ? '–' : `${commission} %`}</strong> (at most 20 %). The quick
          estimate on your page uses this total.
        </p>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Net sheet</legend>
        {input('default_days_to_closing', 'Days to closing', '1', '45', 'From contract to closing, 1 to 365 days.')}
        {toggle('default_title_closer_pickup', 'Title closer pick-up fee', 'Charged per lien paid off at closing.')}
        {toggle('default_payoff_bank_attorney', 'Payoff bank attorney fee', 'Charged by some lenders for each payoff.')}
        {toggle('default_rp5217_on_seller', 'RP-5217 filing paid by the seller', 'Who pays it varies by attorney.')}
      </fieldset>
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
