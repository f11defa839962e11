import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import * as z from 'zod';
import { ApiError, getJson, sendJson } from '../accounts/account-query.ts';
import { Field } from '../../ui/Field.tsx';
import { fieldErrorsOf } from '../../ui/field-errors.ts';
import { Notice } from '../../ui/Notice.tsx';
import { FEE_MESSAGES, feeTableAnswerSchema, feeTableSavedSchema } from './fee-table.ts';
import { FEE_KEYS, feeTableSchema, LI_FEE_DEFAULTS, type FeeEntry, type FeeKey, type FeeTable } from './li-fees.ts';
import './fee-table.css';

const PATH = '/api/admin/net-sheet-fees';
const QUERY_KEY = ['net-sheet-fees'];

interface Loaded {
  fees: FeeTable;
  defaults: FeeTable;
}

/** One fee as typed: the amount in dollars, the date checked and the source. */
interface DraftEntry {
  dollars: string;
  checked: string;
  source: string;
}
type Draft = Record<FeeKey, DraftEntry>;

const toEntry = (fee: FeeEntry): DraftEntry => ({
  dollars: (fee.cents / 100).toFixed(2),
  checked: fee.checked,
  source: fee.source,
});
/** Checked by a schema rather than asserted: every fee key has its entry. */
const draftSchema = z.record(
  z.enum(FEE_KEYS),
  z.object({ dollars: z.string(), checked: z.string(), source: z.string() }),
);
const toDraft = (fees: FeeTable): Draft =>
  draftSchema.parse(Object.fromEntries(FEE_KEYS.map((key) => [key, toEntry(fees[key])])));

const DOLLARS = /^\d+(\.\d{1,2})?$/;
/** The typed dollars as whole cents (exact: no float arithmetic), or null when it is not an amount. */
const centsOf = (dollars: string): number | null => {
  const typed = dollars.trim();
  if (!DOLLARS.test(typed)) return null;
  const [whole = '0', fraction = ''] = typed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};

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
  const [draft, setDraft] = useState<Draft>(() => toDraft(loaded.fees));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const save = useMutation({
    mutationFn: (table: FeeTable) => sendJson('PUT', PATH, feeTableSavedSchema, table),
    onSuccess: (answer) => {
      queryClient.setQueryData(QUERY_KEY, { success: true, fees: answer.fees, defaults: answer.defaults });
      setSaved(answer.fees);
      setDraft(toDraft(answer.fees));
      setOutcome({ tone: 'success', message: answer.message });
    },
    onError: (error) => {
      setFields(error instanceof ApiError ? error.fields : {});
      const message =
        error instanceof ApiError
          ? error.status < 500
            ? error.message
            : FEE_MESSAGES.saveFailed
          : FEE_MESSAGES.saveError;
      setOutcome({ tone: 'error', message });
    },
  });

  const edit = (key: FeeKey, change: Partial<DraftEntry>) =>
    setDraft({ ...draft, [key]: { ...draft[key], ...change } });

  /**
   * A changed amount is a fresh check: while the date still reads as saved, it becomes today, in
   * the field where the admin sees it and can set another day before saving.
   */
  const editAmount = (key: FeeKey, dollars: string) =>
    edit(key, draft[key].checked === saved[key].checked ? { dollars, checked: today() } : { dollars });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    const amountErrors: Record<string, string> = {};
    const table = Object.fromEntries(
      FEE_KEYS.map((key) => {
        const cents = centsOf(draft[key].dollars);
        if (cents === null) amountErrors[`${key}.cents`] = 'Enter the amount in dollars and cents, e.g. 270.00';
        return [key, { cents: cents ?? 0, checked: draft[key].checked, source: draft[key].source }];
      }),
    );
    const parsed = feeTableSchema.safeParse(table);
    const errors = { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)), ...amountErrors };
    if (!parsed.success || Object.keys(amountErrors).length > 0) {
      setFields(errors);
      setOutcome({ tone: 'error', message: FEE_MESSAGES.saveFailed });
      return;
    }
    setFields({});
    save.mutate(parsed.data);
  };

  return (
    <form noValidate onSubmit={submit} className="admin-settings-form fee-table">
      {FEE_KEYS.map((key) => {
        const fee = LI_FEE_DEFAULTS[key];
        const entry = draft[key];
        const atDefault =
          centsOf(entry.dollars) === loaded.defaults[key].cents &&
          entry.checked === loaded.defaults[key].checked &&
          entry.source === loaded.defaults[key].source;
        return (
          <fieldset key={key} className="fee-row">
            <legend>{fee.label}</legend>
            <p className="fee-meta">
              Per {fee.per} · {'county' in fee ? `${fee.county} only` : 'Nassau and Suffolk'}
              {'coop' in fee ? ', co-op sales only' : ''} · researched default{' '}
              {(loaded.defaults[key].cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' })}
            </p>
            {'note' in fee ? <p className="fee-meta fee-note">{fee.note}</p> : null}
            <div className="fee-fields">
              <Field
                label="Amount ($)"
                name={`${key}.cents`}
                inputMode="decimal"
                value={entry.dollars}
                error={fields[`${key}.cents`]}
                onChange={(event) => editAmount(key, event.target.value)}
              />
              <Field
                label="Date checked"
                name={`${key}.checked`}
                type="date"
                value={entry.checked}
                error={fields[`${key}.checked`]}
                onChange={(event) => edit(key, { checked: event.target.value })}
              />
            </div>
            <Field
              label="Source"
              name={`${key}.source`}
              maxLength={500}
              value={entry.source}
              error={fields[`${key}.source`]}
              hint={
                isLink(entry.source) ? (
                  <a href={entry.source} target="_blank" rel="noopener noreferrer">
                    Open the source<span className="visually-hidden"> for {fee.label} (opens in a new tab)</span>
                  </a>
                ) : undefined
              }
              onChange={(event) => edit(key, { source: event.target.value })}
            />
            <button
              type="button"
              className="button button-secondary fee-reset"
              disabled={atDefault}
              onClick={() => edit(key, toEntry(loaded.defaults[key]))}
            >
              Reset to researched default
            </button>
          </fieldset>
        );
      })}
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save closing fees'}
      </button>
    </form>
  );
}
