import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { FilePicker } from '../../ui/FilePicker.tsx';
import { Notice } from '../../ui/Notice.tsx';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/public/account-query.ts';
import { LEAD_TIME_ZONE } from '../leads/public/lead-time-zone.ts';
import { SiteBuildCard } from '../site-build/public/SiteBuildCard.tsx';
import { SITE_BUILD_QUERY_KEY } from '../site-build/public/site-build.ts';
import {
  DATA_MESSAGES,
  DATA_RUNS_SHOWN,
  dataRunsResponseSchema,
  dataStartedSchema,
  UPLOAD_KINDS,
  type DataRun,
  type UploadKind,
} from './data-admin.ts';
import { updatedTownsWords } from './run-words.ts';
import { uploadMarketFile, UploadError, type ApiFetch } from './upload-chunks.ts';
import './data-screen.css';

const RUNS_KEY = ['admin-data-runs'];
/** While a run runs the list is asked again this often: its rows read grow as it goes. */
const POLL_MS = 2000;

type Outcome = { tone: 'success' | 'error'; message: string } | null;
/** The runs an action queued, followed in the runs list until they end. */
type Watched = { what: string; ids: readonly number[] } | null;

/** The chunks go to our API from this page: same origin, the session cookie. */
const sameOrigin: ApiFetch = (path, init) => fetch(path, { ...init, credentials: 'same-origin' });

const shownTime = new Intl.DateTimeFormat('en-US', {
  timeZone: LEAD_TIME_ZONE,
  dateStyle: 'medium',
  timeStyle: 'medium',
});
const SOURCE_NAMES: Record<DataRun['source'], string> = {
  zhvi: 'Zillow home values',
  inventory: 'Zillow inventory',
  sold: 'Sold homes (RESO)',
};
const count = new Intl.NumberFormat('en-US');
const STATUS_NAMES: Record<DataRun['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
};
const ended = (run: DataRun) => run.status === 'succeeded' || run.status === 'failed';

/** /admin/data: the market-data runs, Refresh now, the two file uploads and the site's rebuild. */
export default function DataScreen() {
  return (
    <AccountFrame area="admin" current="/admin/data">
      {() => <DataBody />}
    </AccountFrame>
  );
}

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError || error instanceof UploadError ? error.message : fallback;

/**
 * Where the watched runs are, from the runs list: queued, running (rows read so far), or ended. A
 * success is said only once every run succeeded.
 */
function watchedState(watched: NonNullable<Watched>, runs: readonly DataRun[] | undefined) {
  const mine = watched.ids.map((id) => runs?.find((run) => run.id === id));
  const failed = mine.find((run) => run?.status === 'failed');
  if (failed)
    return { tone: 'error', message: `${watched.what} failed: ${failed.error ?? 'see the runs below'}` } as const;
  if (mine.every((run) => run?.status === 'succeeded')) {
    const towns = mine.reduce((sum, run) => sum + (run?.towns_updated ?? 0), 0);
    return {
      tone: 'success',
      message: `${watched.what} succeeded: ${count.format(towns)} ${towns === 1 ? 'town' : 'towns'} updated.`,
    } as const;
  }
  const running = mine.filter((run) => run?.status === 'running');
  if (running.length > 0) {
    const rows = running.reduce((sum, run) => sum + (run?.rows_read ?? 0), 0);
    return { tone: 'progress', message: `${watched.what}: running, ${count.format(rows)} rows read so far…` } as const;
  }
  return { tone: 'progress', message: `${watched.what}: queued, waiting for the background import to start…` } as const;
}

function DataBody() {
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: RUNS_KEY,
    queryFn: () => getJson('/api/admin/data/runs', dataRunsResponseSchema),
    refetchInterval: (query) => (query.state.data?.running ? POLL_MS : false),
  });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [watched, setWatched] = useState<Watched>(null);
  const started = (what: string, ids: readonly number[]) => {
    setOutcome(null);
    setWatched({ what, ids });
    void queryClient.invalidateQueries({ queryKey: RUNS_KEY });
  };
  const failed = (next: Outcome) => {
    setWatched(null);
    setOutcome(next);
  };
  const refresh = useMutation({
    mutationFn: () => sendJson('POST', '/api/admin/data/refresh', dataStartedSchema),
    onSuccess: ({ run_ids: ids }) => started('The refresh from the feeds', ids),
    onError: (error) => failed({ tone: 'error', message: messageOf(error, 'The refresh could not be started.') }),
  });
  const state = watched ? watchedState(watched, runs.data?.runs) : null;
  const shown: Outcome = state && state.tone !== 'progress' ? state : outcome;
  const running = runs.data?.running ?? false;
  // A run that changed data leaves the site waiting for a rebuild: the build card asks again.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: SITE_BUILD_QUERY_KEY });
  }, [runs.dataUpdatedAt, queryClient]);

  return (
    <div className="data-screen">
      <h1>Market Data</h1>
      <section className="card data-actions" aria-labelledby="data-import-title">
        <h2 id="data-import-title">Import</h2>
        <p>
          Refresh now reads the Zillow and MLS feeds this site is configured with. Or upload a file: the site keeps
          serving while it is imported, and the town pages show the new figures after the next rebuild.
        </p>
        <button
          type="button"
          className="button button-primary"
          disabled={refresh.isPending || running}
          onClick={() => {
            failed(null);
            refresh.mutate();
          }}
        >
          {refresh.isPending ? 'Starting…' : 'Refresh now'}
        </button>
        {running ? <p className="data-hint">{DATA_MESSAGES.running}.</p> : null}
        <div className="data-uploads">
          <UploadForm kind="zhvi" disabled={running} onStarted={started} onError={failed} />
          <UploadForm kind="sold" disabled={running} onStarted={started} onError={failed} />
        </div>
        <p className="data-hint" aria-live="polite">
          {state?.tone === 'progress' ? state.message : ''}
        </p>
        <Notice tone={shown?.tone ?? 'success'} message={shown?.message ?? null} />
      </section>
      <SiteBuildCard />
      <section className="card data-runs" aria-labelledby="data-runs-title">
        <h2 id="data-runs-title">Runs</h2>
        {runs.isPending ? <p aria-live="polite">Loading the runs…</p> : null}
        {runs.isError ? (
          <>
            <Notice tone="error" message="Failed to load the market-data runs." />
            <button type="button" className="button button-primary" onClick={() => void runs.refetch()}>
              Retry
            </button>
          </>
        ) : null}
        {runs.data ? <RunsTable runs={runs.data.runs} /> : null}
      </section>
    </div>
  );
}

function UploadForm({
  kind,
  disabled,
  onStarted,
  onError,
}: {
  kind: UploadKind;
  disabled: boolean;
  onStarted: (what: string, ids: readonly number[]) => void;
  onError: (outcome: Outcome) => void;
}) {
  const id = useId();
  const { label, accept, maxBytes } = UPLOAD_KINDS[kind];
  const [file, setFile] = useState<File | null>(null);
  /** The share of the file read and sent so far, 0 to 100, while it goes up. */
  const [progress, setProgress] = useState(0);
  const upload = useMutation({
    mutationFn: (chosen: File) => {
      setProgress(0);
      return uploadMarketFile({
        kind,
        name: chosen.name,
        size: chosen.size,
        stream: chosen.stream(),
        fetch: sameOrigin,
        onProgress: (share) => setProgress(Math.round(share * 100)),
      });
    },
    onSuccess: ({ run_ids: ids }, chosen) => onStarted(`The import of ${chosen.name}`, ids),
    onError: (error) => onError({ tone: 'error', message: messageOf(error, 'The file could not be uploaded.') }),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onError(null);
    if (!file) return onError({ tone: 'error', message: `Choose a ${label} first` });
    // The limit is on the file picked; no request carries more than a chunk of it.
    if (file.size === 0) return onError({ tone: 'error', message: DATA_MESSAGES.empty });
    if (file.size > maxBytes) return onError({ tone: 'error', message: DATA_MESSAGES.tooLarge(kind) });
    upload.mutate(file);
  };
  return (
    <form className="data-upload" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <FilePicker id={id} accept={accept} onChange={setFile} />
      <button type="submit" className="button button-secondary" disabled={disabled || upload.isPending}>
        {upload.isPending ? 'Uploading…' : `Upload ${kind === 'zhvi' ? 'CSV' : 'JSON'}`}
      </button>
      {upload.isPending ? (
        <div className="data-progress">
          <progress max={100} value={progress} aria-label={`Uploading ${file?.name ?? 'the file'}`} />
          <span aria-live="polite">{progress}% sent</span>
        </div>
      ) : null}
    </form>
  );
}

/** The towns a run updated, by name; when some are left off the line, all of them behind it (minor 31). */
function UpdatedTowns({ run }: { run: DataRun }) {
  const { words, more } = updatedTownsWords(run);
  if (more.length === 0) return <>{words}</>;
  return (
    <details className="data-towns-all">
      <summary>{words}</summary>
      <p>{more.join(', ')}</p>
    </details>
  );
}

function RunsTable({ runs }: { runs: DataRun[] }) {
  if (runs.length === 0) return <p>No market data has been imported yet.</p>;
  return (
    <div className="data-table-scroll" tabIndex={0} role="region" aria-label="Market-data runs, newest first">
      <table className="data-table">
        <caption>The newest {DATA_RUNS_SHOWN} runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Finished</th>
            <th scope="col">Source</th>
            <th scope="col">From</th>
            <th scope="col">Rows read</th>
            <th scope="col">Towns updated</th>
            <th scope="col">Rows skipped</th>
            <th scope="col">Status</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>{shownTime.format(new Date(run.started_at))}</td>
              <td>{run.finished_at ? shownTime.format(new Date(run.finished_at)) : '—'}</td>
              <td>{SOURCE_NAMES[run.source]}</td>
              <td className="data-origin">{run.origin}</td>
              <td>{count.format(run.rows_read)}</td>
              <td className="data-towns">{ended(run) ? <UpdatedTowns run={run} /> : '—'}</td>
              <td>{ended(run) ? count.format(run.rows_skipped) : '—'}</td>
              <td>
                <span
                  className={`badge ${run.status === 'succeeded' ? 'badge-on' : run.status === 'failed' ? 'badge-bad' : 'badge-wait'}`}
                >
                  {STATUS_NAMES[run.status]}
                </span>
              </td>
              <td className="data-error">{run.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
