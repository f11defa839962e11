import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/public/account-query.ts';
import { copyLink } from '../../ui/clipboard.ts';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import {
  EMBED_ORIGINS_MAX,
  EMBED_PATH,
  EMBED_SETTINGS_PATH,
  embedSettingsSchema,
  HEIGHT_MESSAGE,
  iframeSnippet,
  normalizeOrigin,
  scriptSnippet,
} from './public/embed-origins.ts';

const QUERY_KEY = ['embed-settings'] as const;
type Outcome = { tone: 'success' | 'error'; message: string } | null;

/** /dashboard/embed: the sites allowed to show the agent's calculator, the snippet, and a preview. */
export default function EmbedScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard/embed">
      {(agent) => (
        <div className="embed-screen">
          <h1>Embed your calculator</h1>
          <p>
            Put your calculator on your own website: sellers estimate, unlock and send you their details without leaving
            your site, and each lead says which of your pages it came from.
          </p>
          {agent ? <EmbedCards /> : <p aria-live="polite">Loading…</p>}
        </div>
      )}
    </AccountFrame>
  );
}

function EmbedCards() {
  const settings = useQuery({ queryKey: QUERY_KEY, queryFn: () => getJson(EMBED_SETTINGS_PATH, embedSettingsSchema) });
  if (settings.isError && !settings.data) {
    return (
      <>
        <Notice tone="error" message="Failed to load your embed settings" />
        <button type="button" className="button button-primary" onClick={() => void settings.refetch()}>
          Retry
        </button>
      </>
    );
  }
  if (!settings.data) return <p aria-live="polite">Loading…</p>;
  return (
    <>
      <SitesCard origins={settings.data.origins} />
      <SnippetCard slug={settings.data.slug} />
      <PreviewCard slug={settings.data.slug} />
    </>
  );
}

/** The allowed sites: each saved as soon as it is added or removed (the whole list, PUT). */
function SitesCard({ origins }: { origins: string[] }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const save = useMutation({
    mutationFn: (next: string[]) => sendJson('PUT', EMBED_SETTINGS_PATH, embedSettingsSchema, { origins: next }),
    onSuccess: (answer) => {
      queryClient.setQueryData(QUERY_KEY, answer);
      setTyped('');
      setOutcome({ tone: 'success', message: answer.message ?? 'Saved.' });
    },
    onError: (error, next) => {
      // The server's words on the site just added (its field is its index in the list).
      const message =
        error instanceof ApiError && error.status < 500
          ? error.message
          : 'The list could not be saved. Please try again.';
      const onAdded = error instanceof ApiError ? error.fields[`origins.${next.length - 1}`] : undefined;
      if (onAdded) setFieldError(onAdded);
      else setOutcome({ tone: 'error', message });
    },
  });

  const add = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    // Checked here too, so a typo is told at once; the server checks again (and refuses http in production).
    const check = normalizeOrigin(typed, { allowHttp: true });
    if (!check.ok) return setFieldError(check.message);
    if (origins.includes(check.origin)) return setFieldError(`${check.origin} is already on your list`);
    if (origins.length >= EMBED_ORIGINS_MAX) return setFieldError(`List at most ${EMBED_ORIGINS_MAX} sites`);
    setFieldError(undefined);
    save.mutate([...origins, check.origin]);
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sites that may show your calculator</h2>
      <p className="field-hint">
        Only these sites can show your calculator; anywhere else it stays blank. List each address your site is reached
        at (with and without www if both work).
      </p>
      {origins.length === 0 ? (
        <p>No site yet: nobody else can show your calculator.</p>
      ) : (
        <ul className="embed-sites">
          {origins.map((origin) => (
            <li key={origin}>
              <span>{origin}</span>
              <button
                type="button"
                className="button button-secondary"
                disabled={save.isPending}
                aria-label={`Remove ${origin}`}
                onClick={() => {
                  setOutcome(null);
                  save.mutate(origins.filter((kept) => kept !== origin));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="embed-add" onSubmit={add} noValidate>
        <Field
          label="Add a site"
          name="origin"
          placeholder="https://www.example.com"
          inputMode="url"
          autoComplete="off"
          value={typed}
          error={fieldError}
          hint="The site's address only, without a page."
          onChange={(event) => {
            setTyped(event.target.value);
            setFieldError(undefined);
          }}
        />
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Add site'}
        </button>
      </form>
      {outcome && <Notice tone={outcome.tone} message={outcome.message} />}
    </section>
  );
}

/** One snippet to copy, with its Copy button and what the copy did. */
function CopyBlock({ label, code }: { label: string; code: string }) {
  const id = useId();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="embed-snippet">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} readOnly rows={code.length > 120 ? 3 : 2} value={code} spellCheck={false} />
      <button
        type="button"
        className="button button-secondary"
        onClick={() => void copyLink(code, 'Copied.').then(setMessage)}
      >
        Copy
      </button>
      <p className="field-hint" aria-live="polite">
        {message}
      </p>
    </div>
  );
}

function SnippetCard({ slug }: { slug: string }) {
  const id = useId();
  const site = window.location.origin;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Your snippet</h2>
      <p className="field-hint">Paste it where the calculator should appear. It sizes itself to fit your page.</p>
      <CopyBlock label="Script (recommended)" code={scriptSnippet(site, slug)} />
      <CopyBlock
        label="For site builders that refuse scripts: a frame of fixed height"
        code={iframeSnippet(site, slug)}
      />
    </section>
  );
}

/**
 * The calculator as a listed site shows it: framed here by the dashboard itself (the frame always
 * allows the site's own pages), sized by the same height messages embed.js takes.
 */
function PreviewCard({ slug }: { slug: string }) {
  const id = useId();
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(720);
  const host = `${window.location.origin}${window.location.pathname}`;
  useEffect(() => {
    const listen = (event: MessageEvent<unknown>) => {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const data = event.data;
      if (typeof data !== 'object' || data === null || !('type' in data) || data.type !== HEIGHT_MESSAGE) return;
      if ('height' in data && typeof data.height === 'number' && Number.isFinite(data.height)) {
        setHeight(Math.min(Math.max(Math.ceil(data.height), 200), 12000));
      }
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Preview</h2>
      <p className="field-hint">What visitors of your site see. A lead sent from here is a real lead.</p>
      <iframe
        ref={frame}
        className="embed-preview"
        title="Preview of your embedded calculator"
        src={`${EMBED_PATH}${slug}?host=${encodeURIComponent(host)}`}
        style={{ height }}
      />
    </section>
  );
}
