import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import { Notice } from '../../../ui/Notice.tsx';
import { ApiError, getJson, sendJson } from '../../accounts/public/account-query.ts';
import { VolumesChart } from './VolumesChart.tsx';
import {
  DIGESTS_PATH,
  DIGESTS_SETTINGS_PATH,
  digestsResponseSchema,
  digestsSettingsResponseSchema,
  type DigestsResponse,
} from './updates-screen.ts';

const QUERY_KEY = ['admin-digests'] as const;

/** 0 → "midnight", 9 → "9 am", 13 → "1 pm", 24 → "midnight (end of day)". */
export function hourLabel(hour: number): string {
  if (hour === 0) return 'Midnight';
  if (hour === 24) return 'Midnight (end of day)';
  if (hour === 12) return 'Noon';
  return hour < 12 ? `${hour} am` : `${hour - 12} pm`;
}

const monthName = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** "2026-11" → "Nov 2026". */
export const monthLabel = (month: string): string => monthName.format(new Date(`${month}-01T12:00:00Z`));

/** /admin/settings' card of seller updates: the site-wide switch, the sending window, volumes by month. */
export function SellerUpdatesAdminCard() {
  const digests = useQuery({ queryKey: QUERY_KEY, queryFn: () => getJson(DIGESTS_PATH, digestsResponseSchema) });
  return (
    <section className="card seller-updates-admin" aria-labelledby="seller-updates-title">
      <h2 id="seller-updates-title">Seller updates</h2>
      <p>
        The monthly e-mail of their estimated net that sellers ask for on the agents’ forms. Off, no seller gets one,
        whatever their agent chose.
      </p>
      {digests.isPending ? <p aria-live="polite">Loading…</p> : null}
      {digests.isError ? (
        <>
          <Notice tone="error" message="Failed to load the seller update settings" />
          <button type="button" className="button button-primary" onClick={() => void digests.refetch()}>
            Retry
          </button>
        </>
      ) : null}
      {digests.data ? (
        <>
          <DigestsForm digests={digests.data} />
          <Volumes months={digests.data.months} />
        </>
      ) : null}
    </section>
  );
}

function DigestsForm({ digests }: { digests: DigestsResponse }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(digests.enabled);
  const [start, setStart] = useState(digests.window.start);
  const [end, setEnd] = useState(digests.window.end);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const save = useMutation({
    mutationFn: () =>
      sendJson('PUT', DIGESTS_SETTINGS_PATH, digestsSettingsResponseSchema, {
        enabled,
        window_start: start,
        window_end: end,
      }),
    onSuccess: (answer) => {
      setFields({});
      setOutcome({ tone: 'success', message: answer.message });
      queryClient.setQueryData(QUERY_KEY, { ...digests, enabled: answer.enabled, window: answer.window });
    },
    onError: (error) => {
      const refused = error instanceof ApiError && error.status === 400;
      setFields(refused ? error.fields : {});
      setOutcome({
        tone: 'error',
        message: refused ? error.message : 'The settings could not be saved. Please try again.',
      });
    },
  });
  // Said before sending: the server says the same, but a slip is shown at once.
  const windowError = start >= end ? 'The sending window must start before it ends' : (fields.window_end ?? null);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    if (start < end) save.mutate();
  };
  return (
    <form className="seller-updates-form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            onChange={(event) => setEnabled(event.target.checked)}
          />
          <span>Send seller updates</span>
        </label>
      </div>
      <fieldset className="plain-fieldset updates-window">
        <legend>Sending window (Long Island time)</legend>
        <div className="field">
          <label htmlFor={`${id}-start`}>From</label>
          <select
            id={`${id}-start`}
            value={start}
            aria-invalid={fields.window_start ? true : undefined}
            onChange={(event) => setStart(Number(event.target.value))}
          >
            {Array.from({ length: 24 }, (_, hour) => (
              <option key={hour} value={hour}>
                {hourLabel(hour)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-end`}>Until</label>
          <select
            id={`${id}-end`}
            value={end}
            aria-invalid={windowError ? true : undefined}
            aria-describedby={windowError ? `${id}-window-error` : undefined}
            onChange={(event) => setEnd(Number(event.target.value))}
          >
            {Array.from({ length: 24 }, (_, index) => index + 1).map((hour) => (
              <option key={hour} value={hour}>
                {hourLabel(hour)}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
      {windowError ? (
        <p id={`${id}-window-error`} className="field-error">
          {windowError}
        </p>
      ) : null}
      <p className="field-hint">The scheduled run sends what is due only between these hours.</p>
      <button type="submit" className="button button-primary" disabled={save.isPending || start >= end}>
        {save.isPending ? 'Saving…' : 'Save'}
      </button>
      <Notice tone="success" message={outcome?.tone === 'success' ? outcome.message : null} />
      <Notice tone="error" message={outcome?.tone === 'error' ? outcome.message : null} />
    </form>
  );
}

function Volumes({ months }: { months: DigestsResponse['months'] }) {
  const id = useId();
  const nothing = months.every((month) => month.sent + month.unsubscribed + month.bounced === 0);
  return (
    <>
      <h3>The last 12 months</h3>
      {nothing ? <p>No update has been sent yet.</p> : <VolumesChart months={months} />}
      <div className="table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="volumes-table">
          <caption id={`${id}-caption`}>Seller updates by month, Long Island time</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Sent</th>
              <th scope="col">Clicked</th>
              {/* A soft hyphen: on a phone the word may break to fit the five columns. */}
              <th scope="col">{'Unsub\u00ADscribed'}</th>
              <th scope="col">Bounced</th>
            </tr>
          </thead>
          <tbody>
            {[...months].reverse().map((month) => (
              <tr key={month.month}>
                <th scope="row">{monthLabel(month.month)}</th>
                <td data-label="Sent">{month.sent}</td>
                <td data-label="Clicked">{month.clicked}</td>
                <td data-label="Unsubscribed">{month.unsubscribed}</td>
                <td data-label="Bounced">{month.bounced}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
