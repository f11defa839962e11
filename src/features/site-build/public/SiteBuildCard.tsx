import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Notice } from '../../../ui/Notice.tsx';
import { ApiError, getJson, sendJson } from '../../accounts/public/account-query.ts';
import { LEAD_TIME_ZONE } from '../../leads/public/lead-time-zone.ts';
import {
  SITE_BUILD_QUERY_KEY as QUERY_KEY,
  siteBuildResponseSchema,
  siteBuildStartedSchema,
  type SiteBuildState,
} from './site-build.ts';
import '../site-build.css';

const PATH = '/api/admin/site-build';
/** While a build runs the card asks again this often, to show when it ends. */
const POLL_MS = 3000;

const shownTime = new Intl.DateTimeFormat('en-US', {
  timeZone: LEAD_TIME_ZONE,
  dateStyle: 'medium',
  timeStyle: 'short',
});
const when = (iso: string) => shownTime.format(new Date(iso));

/**
 * Whether the public pages show the latest data (they are built ahead of time), the last build,
 * and Rebuild now; on /admin and /admin/data. Changes are also built automatically a minute after
 * the last one, so the button is for when an admin does not want to wait.
 */
export function SiteBuildCard() {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const state = useQuery({
    queryKey: QUERY_KEY,
    queryFn: () => getJson(PATH, siteBuildResponseSchema),
    refetchInterval: (query) => (query.state.data?.last_build?.status === 'running' ? POLL_MS : false),
  });
  const rebuild = useMutation({
    mutationFn: () => sendJson('POST', PATH, siteBuildStartedSchema),
    onSuccess: (answer) => {
      queryClient.setQueryData(QUERY_KEY, answer);
      setOutcome(
        answer.queued
          ? { tone: 'success', message: 'A build is running; the site will be built once more when it ends.' }
          : null,
      );
    },
    onError: (error) =>
      setOutcome({
        tone: 'error',
        message: error instanceof ApiError ? error.message : 'The rebuild could not be started. Try again.',
      }),
  });

  return (
    <section className="card site-build-card" aria-labelledby="site-build-title">
      <h2 id="site-build-title">Public site</h2>
      {state.isPending ? <p aria-live="polite">Loading the site’s build state…</p> : null}
      {state.isError ? (
        <>
          <Notice tone="error" message="Failed to load the site’s build state." />
          <button type="button" className="button button-primary" onClick={() => void state.refetch()}>
            Retry
          </button>
        </>
      ) : null}
      {state.data ? <BuildState state={state.data} /> : null}
      {state.data ? (
        <button
          type="button"
          className="button button-primary"
          disabled={rebuild.isPending}
          onClick={() => {
            setOutcome(null);
            rebuild.mutate();
          }}
        >
          {rebuild.isPending ? 'Starting…' : 'Rebuild now'}
        </button>
      ) : null}
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
    </section>
  );
}

function BuildState({ state }: { state: SiteBuildState }) {
  const last = state.last_build;
  return (
    <div className="site-build-state">
      <p className="site-build-status" aria-live="polite">
        {last?.status === 'running' ? (
          <>
            <span className="badge badge-wait">Building</span> since {when(last.started_at)}
          </>
        ) : last?.status === 'failed' ? (
          <>
            <span className="badge badge-bad">Last build failed</span> {when(last.finished_at ?? last.started_at)}
          </>
        ) : state.needs_rebuild ? (
          <>
            <span className="badge badge-wait">Changes waiting</span> since {when(state.changed_at)}
          </>
        ) : (
          <>
            <span className="badge badge-on">Up to date</span>
          </>
        )}
      </p>
      {last?.status === 'failed' && last.error ? <p className="site-build-error">{last.error}</p> : null}
      {last?.status === 'failed' && state.needs_rebuild ? <p>Changes waiting since {when(state.changed_at)}.</p> : null}
      <p>
        {state.last_succeeded_at
          ? `The pages visitors see were built ${when(state.last_succeeded_at)}.`
          : 'No build of the pages is known yet.'}
      </p>
    </div>
  );
}
