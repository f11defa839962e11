import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode, type SubmitEvent } from 'react';
import * as z from 'zod/mini';
import { ApiError, getJson, sendJson } from '../../accounts/public/account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from '../../accounts/public/save-failure.ts';
import { Field } from '../../../ui/Field.tsx';
import { fieldErrorsOf } from '../../../ui/field-errors.ts';
import { Notice } from '../../../ui/Notice.tsx';
import { FEE_MESSAGES, feeTableAnswerSchema, feeTableSavedSchema } from '../fee-table.ts';
import { feeTableSchema, type FeeTable } from '../fee-table-schema.ts';
import { FEE_KEYS, LI_FEE_DEFAULTS, type FeeKey } from '../li-fees.ts';
import { LI_RATE_DEFAULTS, RATE_KEYS, type RateKey, type SiteRate } from '../li-rates.ts';
import '../fee-table.css';

const PATH = '/api/admin/net-sheet-fees';
const QUERY_KEY = ['net-sheet-fees'];

type Loaded = z.infer<typeof feeTableAnswerSchema>;

type EntryKey = FeeKey | RateKey;
const TABLE_KEYS: readonly EntryKey[] = [...FEE_KEYS, ...RATE_KEYS];
const isRate = (key: EntryKey): key is RateKey => key in LI_RATE_DEFAULTS;
/** The East End exemptions, shown with the rates they go with. */
const isPeconic = (key: FeeKey) => 'peconic' in LI_FEE_DEFAULTS[key];
const inSection = (key: RateKey, section: SiteRate['section']) => LI_RATE_DEFAULTS[key].section === section;

/** One entry as typed: the amount (dollars for a fee, a percent for a rate), the date checked and the source. */
interface DraftEntry {
  amount: string;
  checked: string;
  source: string;
}
type Draft = Record<EntryKey, DraftEntry>;

const amountText = (table: FeeTable, key: EntryKey): string => {
  if (isRate(key)) return String(table[key].percent);
  return (table[key].cents / 100).toFixed(2);
};
const toEntry = (table: FeeTable, key: EntryKey): DraftEntry => ({
  amount: amountText(table, key),
  checked: table[key].checked,
  source: table[key].source,
});
/** Checked by a schema rather than asserted: every fee and rate key has its entry. */
const draftSchema = z.record(
  z.enum([...FEE_KEYS, ...RATE_KEYS]),
  z.object({ amount: z.string(), checked: z.string(), source: z.string() }),
);
const toDraft = (table: FeeTable): Draft =>
  draftSchema.parse(Object.fromEntries(TABLE_KEYS.map((key) => [key, toEntry(table, key)])));

const DOLLARS = /^\d+(\.\d{1,2})?$/;
/** The typed dollars as whole cents (exact: no float arithmetic), or null when it is not an amount. */
const centsOf = (dollars: string): number | null => {
  const typed = dollars.trim();
  if (!DOLLARS.test(typed)) return null;
  const [whole = '0', fraction = ''] = typed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};
/** A typed percent ("2.5", "0.5%"): the schema checks its range and decimals; null when not a number. */
const percentOf = (typed: string): number | null => {
  const text = typed.trim().replace(/%$/, '').trim();
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;
};

/** The typed entry as the API takes it, with the amount's own message when it is not a number. */
function entryOf(key: EntryKey, entry: DraftEntry): { value: Record<string, unknown>; error?: [string, string] } {
  if (isRate(key)) {
    const percent = percentOf(entry.amount);
    return {
      value: { percent: percent ?? 0, checked: entry.checked, source: entry.source },
      ...(percent === null ? { error: [`${key}.percent`, 'Enter the rate as a percent, e.g. 2.5'] } : {}),
    };
  }
  const cents = centsOf(entry.amount);
  return {
    value: { cents: cents ?? 0, checked: entry.checked, source: entry.source },
    ...(cents === null ? { error: [`${key}.cents`, 'Enter the amount in dollars and cents, e.g. 270.00'] } : {}),
  };
}

const usd = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

const RATE_BASE_WORDS: Record<SiteRate['base'], string> = {
  price: 'Rate on the price',
  gain: 'Rate on the gain',
  overdue_half: 'Rate on the overdue half',
};

/** The label, the line under it and the researched default of one entry, as the table shows them. */
function describe(key: EntryKey, defaults: FeeTable): { label: string; meta: string; note?: string } {
  if (isRate(key)) {
    const rate: SiteRate = LI_RATE_DEFAULTS[key];
    return {
      label: rate.label,
      meta: `${RATE_BASE_WORDS[rate.base]} · researched default ${defaults[key].percent}%`,
      ...(rate.note === undefined ? {} : { note: rate.note }),
    };
  }
  const fee = LI_FEE_DEFAULTS[key];
  const where = 'county' in fee ? `${fee.county} only` : 'Nassau and Suffolk';
  const kind = 'peconic' in fee ? 'For the buyer’s East End tax' : `Per ${fee.per}`;
  return {
    label: fee.label,
    meta: `${kind} · ${where}${'coop' in fee ? ', co-op sales only' : ''} · researched default ${usd(defaults[key].cents)}`,
    ...('note' in fee ? { note: fee.note } : {}),
  };
}

type SectionId = 'fees' | SiteRate['section'];

/** The table's sections, folded one at a time, each with its entries in the order the sheet lists them. */
const SECTIONS: readonly { id: SectionId; title: string; intro: ReactNode; keys: readonly EntryKey[] }[] = [
  {
    id: 'fees',
    title: 'County and filing fees',
    intro: null,
    keys: FEE_KEYS.filter((key) => !isPeconic(key)),
  },
  {
    id: 'east_end',
    title: 'East End: the buyer’s Peconic Bay tax',
    intro:
      'Rates on the price and the exemptions, kept like the fees. The buyer pays this tax: the net sheet states it in a note for sales in East Hampton, Riverhead, Shelter Island, Southampton and Southold, not as a seller cost.',
    keys: [...RATE_KEYS.filter((key) => inSection(key, 'east_end')), ...FEE_KEYS.filter(isPeconic)],
  },
  {
    id: 'withholding',
    title: 'Taxes withheld at closing and the seller’s mansion tax',
    intro:
      'FIRPTA and New York’s nonresident estimated tax, when the seller says they apply, and the mansion tax when the buyer is exempt. FIRPTA and IT-2663 are at most 15% and the mansion tax at most 1% (the reverse solve relies on it).',
    keys: RATE_KEYS.filter((key) => inSection(key, 'withholding')),
  },
  {
    id: 'penalties',
    title: 'Penalties on an overdue tax half',
    intro:
      'The Receivers’ and the Suffolk Comptroller’s published rates, charged when a half is unpaid past its penalty-free days at closing.',
    keys: RATE_KEYS.filter((key) => inSection(key, 'penalties')),
  },
];

/** The section holding the first entry with an error, to open after a refused save. */
const sectionWithError = (fields: Record<string, string>): SectionId | null =>
  SECTIONS.find((section) => section.keys.some((key) => Object.keys(fields).some((name) => name.startsWith(`${key}.`))))
    ?.id ?? null;

/** Today in the admin's own calendar, as the date input and the API write it. */
const today = () => new Date().toLocaleDateString('en-CA');

const isLink = (source: string) => /^https?:\/\//.test(source);

/** /admin/settings: the Long Island closing fees every net sheet uses, each with its source. */
export function FeeTableCard() {
  const fees = useQuery({ queryKey: QUERY_KEY, queryFn: async () => getJson(PATH, feeTableAnswerSchema) });
  return (
    <section className="card admin-settings-card fee-table-card" aria-labelledby="fee-table-title">
      <h2 id="fee-table-title">Closing fees (Long Island)</h2>
      <p>
        The county and filing fees every net sheet charges the seller, with the date each was checked and where. Change
        an amount and its date becomes today; set the date yourself if you checked it another day.
      </p>
      {fees.isPending ? <p aria-live="polite">Loading…</p> : null}
      {fees.isError ? (
        <>
          <Notice tone="error" message={FEE_MESSAGES.loadFailed} />
          <button type="button" className="button button-primary" onClick={() => void fees.refetch()}>
            Retry
          </button>
        </>
      ) : null}
      {fees.data ? <FeeTableForm loaded={fees.data} /> : null}
    </section>
  );
}

function FeeTableForm({ loaded }: { loaded: Loaded }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(loaded.fees);
  // The version this form edits: a save sends it back, and is refused when another save came between.
  const [version, setVersion] = useState(loaded.version);
  const [draft, setDraft] = useState<Draft>(() => toDraft(loaded.fees));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const [openSection, setOpenSection] = useState<SectionId | null>(null);
  /** Field errors, with their section opened so the admin sees them. */
  const showErrors = (errors: Record<string, string>) => {
    setFields(errors);
    const withError = sectionWithError(errors);
    if (withError) setOpenSection(withError);
  };
  const save = useMutation({
    mutationFn: (table: FeeTable) => sendJson('PUT', PATH, feeTableSavedSchema, { ...table, version }),
    onSuccess: (answer) => {
      queryClient.setQueryData<Loaded>(QUERY_KEY, {
        success: true,
        fees: answer.fees,
        version: answer.version,
        defaults: answer.defaults,
      });
      setSaved(answer.fees);
      setVersion(answer.version);
      setDraft(toDraft(answer.fees));
      setOutcome({ tone: 'success', message: answer.message });
    },
    onError: (error) => {
      showErrors(error instanceof ApiError ? error.fields : {});
      setOutcome({
        tone: 'error',
        message: saveFailureMessage(error, { failed: FEE_MESSAGES.saveFailed, unreachable: FEE_MESSAGES.saveError }),
      });
    },
  });

  /** An edit; a success notice no longer describes the form once it is edited again (minor 26). */
  const edit = (key: EntryKey, change: Partial<DraftEntry>) => {
    setDraft({ ...draft, [key]: { ...draft[key], ...change } });
    setOutcome((shown) => (shown?.tone === 'success' ? null : shown));
  };

  /**
   * A changed amount or rate is a fresh check: while the date still reads as saved, it becomes today,
   * in the field where the admin sees it and can set another day before saving.
   */
  const editAmount = (key: EntryKey, amount: string) =>
    edit(key, draft[key].checked === saved[key].checked ? { amount, checked: today() } : { amount });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    const amountErrors: Record<string, string> = {};
    const table = Object.fromEntries(
      TABLE_KEYS.map((key) => {
        const { value, error } = entryOf(key, draft[key]);
        if (error) amountErrors[error[0]] = error[1];
        return [key, value];
      }),
    );
    const parsed = feeTableSchema.safeParse(table);
    const errors = { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)), ...amountErrors };
    if (!parsed.success || Object.keys(amountErrors).length > 0) {
      showErrors(errors);
      setOutcome({ tone: 'error', message: CHECK_FIELDS });
      return;
    }
    setFields({});
    save.mutate(parsed.data);
  };

  const row = (key: EntryKey) => (
    <EntryRow
      key={key}
      entryKey={key}
      entry={draft[key]}
      described={describe(key, loaded.defaults)}
      atDefault={sameAsDefault(key, draft[key], loaded.defaults)}
      fields={fields}
      onEdit={(change) => edit(key, change)}
      onEditAmount={(amount) => editAmount(key, amount)}
      onReset={() => edit(key, toEntry(loaded.defaults, key))}
    />
  );

  /** A section of the table, folded (minor 35: the open table was ~11,600 px): one open at a time. */
  const section = (id: SectionId, title: string, intro: ReactNode, keys: readonly EntryKey[]) => {
    const errors = keys.filter((key) => Object.keys(fields).some((name) => name.startsWith(`${key}.`))).length;
    return (
      <details
        className="fee-section"
        open={openSection === id}
        onToggle={(event) => {
          if (event.currentTarget.open) setOpenSection(id);
          else if (openSection === id) setOpenSection(null);
        }}
      >
        <summary>
          <span className="fee-section-title">{title}</span>{' '}
          <span className="fee-meta">
            {keys.length} {keys.length === 1 ? 'entry' : 'entries'}
            {errors > 0 ? ` · ${errors} to correct` : ''}
          </span>
        </summary>
        <div className="fee-section-body">
          {intro ? <p className="fee-meta">{intro}</p> : null}
          {keys.map(row)}
        </div>
      </details>
    );
  };

  return (
    <form noValidate onSubmit={submit} className="admin-settings-form fee-table">
      {SECTIONS.map(({ id, title, intro, keys }) => section(id, title, intro, keys))}
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save closing fees'}
      </button>
    </form>
  );
}

/** The typed entry reads as its researched default (a reset would change nothing). */
function sameAsDefault(key: EntryKey, entry: DraftEntry, defaults: FeeTable): boolean {
  const amount = isRate(key)
    ? percentOf(entry.amount) === defaults[key].percent
    : centsOf(entry.amount) === defaults[key].cents;
  return amount && entry.checked === defaults[key].checked && entry.source === defaults[key].source;
}

interface EntryRowProps {
  entryKey: EntryKey;
  entry: DraftEntry;
  described: { label: string; meta: string; note?: string };
  atDefault: boolean;
  fields: Record<string, string>;
  onEdit: (change: Partial<DraftEntry>) => void;
  onEditAmount: (amount: string) => void;
  onReset: () => void;
}

/** One fee or rate: its amount (dollars or percent), the date checked, the source and a reset. */
function EntryRow({ entryKey, entry, described, atDefault, fields, onEdit, onEditAmount, onReset }: EntryRowProps) {
  const amountName = isRate(entryKey) ? `${entryKey}.percent` : `${entryKey}.cents`;
  return (
    <fieldset className="fee-row">
      <legend>{described.label}</legend>
      <p className="fee-meta">{described.meta}</p>
      {described.note ? <p className="fee-meta fee-note">{described.note}</p> : null}
      <div className="fee-fields">
        <Field
          label={isRate(entryKey) ? 'Rate (%)' : 'Amount ($)'}
          name={amountName}
          inputMode="decimal"
          value={entry.amount}
          error={fields[amountName]}
          onChange={(event) => onEditAmount(event.target.value)}
        />
        <Field
          label="Date checked"
          name={`${entryKey}.checked`}
          type="date"
          value={entry.checked}
          error={fields[`${entryKey}.checked`]}
          onChange={(event) => onEdit({ checked: event.target.value })}
        />
      </div>
      <Field
        label="Source"
        name={`${entryKey}.source`}
        maxLength={500}
        value={entry.source}
        error={fields[`${entryKey}.source`]}
        hint={
          isLink(entry.source) ? (
            <a href={entry.source} target="_blank" rel="noopener noreferrer">
              Open the source<span className="visually-hidden"> for {described.label} (opens in a new tab)</span>
            </a>
          ) : undefined
        }
        onChange={(event) => onEdit({ source: event.target.value })}
      />
      <button type="button" className="button button-secondary fee-reset" disabled={atDefault} onClick={onReset}>
        Reset to researched default
      </button>
    </fieldset>
  );
}
