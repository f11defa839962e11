import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { Notice } from '../../ui/Notice.tsx';
import AccountFrame from '../accounts/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/account-query.ts';
import { LEAD_TIME_ZONE } from '../leads/lead-list.ts';
import { SiteBuildCard } from '../site-build/SiteBuildCard.tsx';
import { SITE_BUILD_QUERY_KEY } from '../site-build/site-build.ts';
import {
  DATA_MESSAGES,
  DATA_RUNS_SHOWN,
  dataRunsResponseSchema,
  dataStartedSchema,
  UPLOAD_KINDS,
  type DataRun,
  type UploadKind,
} from './data-admin.ts';
import { callApi } from '../../ui/api-client.ts';
import './data-screen.css';

const RUNS_KEY = ['admin-data-runs'];
/** While a run runs the list is asked again this often: its rows read grow as it goes. */
const POLL_MS = 2000;

type Outcome = { tone: 'success' | 'error'; message: string } | null;

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

/** /admin/data: the market-data runs, Refresh now, the two file uploads and the site's rebuild. */
export default function DataScreen() {
  return (
    <AccountFrame area="admin" current="/admin/data">
      {() => <DataBody />}
    </AccountFrame>
  );
}

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

function DataBody() {
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: RUNS_KEY,
    queryFn: () => getJson('/api/admin/data/runs', dataRunsResponseSchema),
    refetchInterval: (query) => (query.state.data?.running ? POLL_MS : false),
  });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const started = (message: string) => {
    setOutcome({ tone: 'success', message });
    void queryClient.invalidateQueries({ queryKey: RUNS_KEY });
  };
  const refresh = useMutation({
    mutationFn: () => sendJson('POST', '/api/admin/data/refresh', dataStartedSchema),
    onSuccess: () => started('Refreshing from the feeds: the runs below show how it goes.'),
    onError: (error) => setOutcome({ tone: 'error', message: messageOf(error, 'The refresh could not be started.') }),
  });
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
            setOutcome(null);
            refresh.mutate();
          }}
        >
          {refresh.isPending ? 'Starting…' : 'Refresh now'}
        </button>
        {running ? <p className="data-hint">{DATA_MESSAGES.running}.</p> : null}
        <div className="data-uploads">
          <UploadForm kind="zhvi" disabled={running} onStarted={started} onError={setOutcome} />
          <UploadForm kind="sold" disabled={running} onStarted={started} onError={setOutcome} />
        </div>
        <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
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
  onStarted: (message: string) => void;
  onError: (outcome: Outcome) => void;
}) {
  const id = useId();
  const { label, accept, maxBytes } = UPLOAD_KINDS[kind];
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      const query = new URLSearchParams({ source: kind, name: chosen.name });
      const result = await callApi(`/api/admin/data/upload?${query.toString()}`, dataStartedSchema, {
        method: 'POST',
        body: chosen,
      });
      if (!result.ok) throw new ApiError(result.status, result.error, result.fields);
      return result.data;
    },
    onSuccess: (_answer, chosen) => onStarted(`Importing ${chosen.name}: the runs below show how it goes.`),
    onError: (error) => onError({ tone: 'error', message: messageOf(error, 'The file could not be uploaded.') }),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onError(null);
    if (!file) return onError({ tone: 'error', message: `Choose a ${label} first` });
    if (file.size > maxBytes) return onError({ tone: 'error', message: DATA_MESSAGES.tooLarge(kind) });
    upload.mutate(file);
  };
  return (
    <form className="data-upload" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept={accept}
        onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
      />
      <button type="submit" className="button button-secondary" disabled={disabled || upload.isPending}>
        {upload.isPending ? 'Uploading…' : `Upload ${kind === 'zhvi' ? 'CSV' : 'JSON'}`}
      </button>
    </form>
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
              <td>{run.status === 'running' ? '—' : count.format(run.towns_updated)}</td>
              <td>{run.status === 'running' ? '—' : count.format(run.rows_skipped)}</td>
              <td>
                <span
                  className={`badge ${run.status === 'succeeded' ? 'badge-on' : run.status === 'failed' ? 'badge-bad' : 'badge-wait'}`}
                >
                  {run.status === 'running' ? 'Running' : run.status === 'succeeded' ? 'Succeeded' : 'Failed'}
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
