import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/public/account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from '../accounts/public/save-failure.ts';
import { Field } from '../../ui/Field.tsx';
import { fieldErrorsOf } from '../../ui/field-errors.ts';
import { Notice } from '../../ui/Notice.tsx';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import {
  agentDefaultsSchema,
  agentSettingsResponseSchema,
  agentSettingsSavedSchema,
  resplitCommission,
  type AgentDefaults,
  type AgentSettings,
} from '../net-sheet/public/agent-settings.ts';
import { SETTINGS_MESSAGES } from './settings-messages.ts';
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
type NumberKey = Exclude<keyof AgentDefaults, SwitchKey> | 'default_commission_percent';
type SwitchKey = 'default_title_closer_pickup' | 'default_payoff_bank_attorney' | 'default_rp5217_on_seller';
type Draft = Record<NumberKey, string>;
type Switches = Record<SwitchKey, boolean>;

const toDraft = (settings: AgentSettings): Draft => ({
  default_attorney_fee: String(settings.default_attorney_fee),
  default_recording_fee: String(settings.default_recording_fee),
  transfer_tax_rate_per_1000: settings.transfer_tax_rate_per_1000.toFixed(2),
  default_commission_percent: settings.default_commission_percent.toFixed(2),
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

const HUNDREDTHS = /^\d+(\.\d{1,2})?$/;

/** The two sides added in hundredths, or null while one of them is not an amount. */
const sumOfSides = (listing: string, buyerAgent: string) =>
  HUNDREDTHS.test(listing.trim()) && HUNDREDTHS.test(buyerAgent.trim())
    ? ((Math.round(Number(listing) * 100) + Math.round(Number(buyerAgent) * 100)) / 100).toFixed(2)
    : null;

/** The sides a new total is cut by: as the agent last set them (typed or saved). */
interface Sides {
  listing: number;
  buyerAgent: number;
}

const sidesOf = (draft: Draft): Sides | null =>
  HUNDREDTHS.test(draft.default_listing_percent.trim()) && HUNDREDTHS.test(draft.default_buyer_agent_percent.trim())
    ? { listing: Number(draft.default_listing_percent), buyerAgent: Number(draft.default_buyer_agent_percent) }
    : null;

/**
 * The commission and its two sides stay in step as the agent types, and a line under them says how
 * (newcomer audit minor 11: no silent change): a new total is cut in the proportion of the sides the
 * agent set (resplitCommission; 3 / 2 stays 60 / 40), a changed side makes the total their sum. Only
 * the sides are saved; the total is what the quick estimate uses.
 */
function editCommission(
  draft: Draft,
  name: NumberKey,
  value: string,
  basis: Sides,
): { draft: Draft; note: string | null } {
  const next = { ...draft, [name]: value };
  if (name === 'default_commission_percent') {
    if (!HUNDREDTHS.test(value.trim())) return { draft: next, note: null };
    const split = resplitCommission(Number(value), basis);
    const listing = split.listing.toFixed(2);
    const buyerAgent = split.buyerAgent.toFixed(2);
    return {
      draft: { ...next, default_listing_percent: listing, default_buyer_agent_percent: buyerAgent },
      note:
        basis.listing + basis.buyerAgent > 0
          ? `The sides keep your split in proportion: listing ${listing} % + buyer’s agent ${buyerAgent} %.`
          : `No split to follow yet, so the total is cut in half: listing ${listing} % + buyer’s agent ${buyerAgent} %.`,
    };
  }
  if (name !== 'default_listing_percent' && name !== 'default_buyer_agent_percent') return { draft: next, note: null };
  const sum = sumOfSides(next.default_listing_percent, next.default_buyer_agent_percent);
  return sum === null
    ? { draft: next, note: null }
    : {
        draft: { ...next, default_commission_percent: sum },
        note: `The commission is the two sides added up: ${sum} %.`,
      };
}

function SettingsForm({ saved }: { saved: AgentSettings }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [switches, setSwitches] = useState<Switches>(() => toSwitches(saved));
  // The split a new total follows: the sides as saved, then as the agent last typed them.
  const [basis, setBasis] = useState<Sides>(() => sidesOf(toDraft(saved)) ?? { listing: 0, buyerAgent: 0 });
  const [splitNote, setSplitNote] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const save = useMutation({
    mutationFn: (body: AgentDefaults) => sendJson('PATCH', '/api/agents/me/settings', agentSettingsSavedSchema, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(SETTINGS_KEY, answer.settings);
      setDraft(toDraft(answer.settings));
      setBasis(sidesOf(toDraft(answer.settings)) ?? { listing: 0, buyerAgent: 0 });
      setSplitNote(null);
      setSwitches(toSwitches(answer.settings));
      setOutcome({ tone: 'success', message: SETTINGS_MESSAGES.saved });
    },
    onError: (error) => {
      setFields(error instanceof ApiError ? error.fields : {});
      setOutcome({ tone: 'error', message: saveFailureMessage(error, { failed: SETTINGS_MESSAGES.saveFailed }) });
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    const parsed = agentDefaultsSchema.safeParse({ ...fromDraft(draft), ...switches });
    if (!parsed.success) {
      setFields(fieldErrorsOf(parsed.error));
      setOutcome({ tone: 'error', message: CHECK_FIELDS });
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
      onChange={(event) => {
        const edited = editCommission(draft, name, event.target.value, basis);
        setDraft(edited.draft);
        if (edited.note !== null || name === 'default_commission_percent') setSplitNote(edited.note);
        if (name === 'default_listing_percent' || name === 'default_buyer_agent_percent') {
          const sides = sidesOf(edited.draft);
          if (sides) setBasis(sides);
        }
      }}
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

  return (
    <form noValidate onSubmit={submit} className="settings-form">
      {input('default_attorney_fee', 'Attorney fee ($)', '1', '750', 'Whole dollars, up to $100,000.')}
      {input('default_recording_fee', 'Recording fee ($)', '1', '175', 'Whole dollars, up to $100,000.')}
      {input('transfer_tax_rate_per_1000', 'Transfer tax rate (per $1,000)', '0.01', '1.15', 'Between 0 and 20.')}
      <fieldset className="settings-group">
        <legend>Commission</legend>
        {input(
          'default_commission_percent',
          'Commission (%)',
          '0.01',
          '6.00',
          'Between 0 and 20: the two sides below added up. The quick estimate on your page uses this total.',
        )}
        {input('default_listing_percent', 'Listing side (%)', '0.01', '3.00', 'Your brokerage’s share.')}
        {input(
          'default_buyer_agent_percent',
          'Buyer’s agent side (%)',
          '0.01',
          '3.00',
          'Offered to the buyer’s agent.',
        )}
        {/* Always there, so that screen readers announce the change it describes. */}
        <p className="field-hint" aria-live="polite">
          {splitNote ?? ''}
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
