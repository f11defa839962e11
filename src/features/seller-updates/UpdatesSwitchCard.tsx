import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Notice } from '../../ui/Notice.tsx';
import { ApiError, sendJson } from '../accounts/public/account-query.ts';
import {
  sampleResponseSchema,
  UPDATES_SAMPLE_PATH,
  UPDATES_SETTINGS_PATH,
  updatesSettingsResponseSchema,
} from './public/updates-screen.ts';
import { UPDATES_QUERY_KEY, useUpdates } from './updates-query.ts';

type Outcome = { tone: 'success' | 'error'; message: string } | null;

/** What a failed request is told: the server's words for a refusal, else a try-again. */
const failure = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status < 500 && error.status !== 404 ? error.message : fallback;

/** The agent's switch "Send monthly updates to my sellers", and "Send me a sample". */
export function UpdatesSwitchCard() {
  const id = useId();
  const updates = useUpdates(1);
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [sampleOutcome, setSampleOutcome] = useState<Outcome>(null);

  const save = useMutation({
    mutationFn: (enabled: boolean) =>
      sendJson('PUT', UPDATES_SETTINGS_PATH, updatesSettingsResponseSchema, { enabled }),
    onSuccess: (answer) => setOutcome({ tone: 'success', message: answer.message }),
    onError: (error) =>
      setOutcome({ tone: 'error', message: failure(error, 'Your choice could not be saved. Please try again.') }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: UPDATES_QUERY_KEY }),
  });
  const sample = useMutation({
    // A JSON body, even empty: the route reads one (without it the API answers 415).
    mutationFn: () => sendJson('POST', UPDATES_SAMPLE_PATH, sampleResponseSchema, {}),
    onSuccess: (answer) => setSampleOutcome({ tone: 'success', message: answer.message }),
    onError: (error) =>
      setSampleOutcome({
        tone: 'error',
        message: failure(error, 'The sample could not be sent. Please try again in a minute.'),
      }),
  });

  const enabled = save.isPending ? save.variables : updates.data?.enabled;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Monthly updates</h2>
      {updates.isError && !updates.data ? (
        <>
          <Notice tone="error" message="Failed to load your seller updates" />
          <button type="button" className="button button-primary" onClick={() => void updates.refetch()}>
            Retry
          </button>
        </>
      ) : enabled === undefined ? (
        <p aria-live="polite">Loading…</p>
      ) : (
        <>
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                role="switch"
                checked={enabled}
                disabled={save.isPending}
                aria-describedby={`${id}-hint`}
                onChange={(event) => {
                  setOutcome(null);
                  save.mutate(event.target.checked);
                }}
              />
              <span>Send monthly updates to my sellers</span>
            </label>
            <p id={`${id}-hint`} className="field-hint">
              Off, none of your sellers gets an update; they stay subscribed and get the next one once you turn it back
              on.
            </p>
          </div>
          {updates.data && !updates.data.site_enabled ? (
            <p className="updates-site-off">
              The site’s administrator has paused seller updates for everyone: none is sent until they turn them back
              on.
            </p>
          ) : null}
          <Notice tone="success" message={outcome?.tone === 'success' ? outcome.message : null} />
          <Notice tone="error" message={outcome?.tone === 'error' ? outcome.message : null} />
        </>
      )}
      <h3>See what your sellers get</h3>
      <p>A real update about a sample seller, sent to your own e-mail address only.</p>
      <div className="nav-actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={sample.isPending}
          onClick={() => {
            setSampleOutcome(null);
            sample.mutate();
          }}
        >
          {sample.isPending ? 'Sending…' : 'Send me a sample'}
        </button>
      </div>
      <Notice tone="success" message={sampleOutcome?.tone === 'success' ? sampleOutcome.message : null} />
      <Notice tone="error" message={sampleOutcome?.tone === 'error' ? sampleOutcome.message : null} />
    </section>
  );
}
