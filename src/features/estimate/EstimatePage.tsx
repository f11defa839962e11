import { useEffect, useState } from 'react';
import { z } from 'zod';
import { callApi } from '../../ui/api-client.ts';
import { Notice } from '../../ui/Notice.tsx';
import { estimateSchema, UUID_PATTERN, type Estimate } from './estimate-request.ts';
import { setCanonicalToCurrentUrl } from '../site/canonical.ts';
import { NetSheet } from './NetSheet.tsx';
import { SendEstimateModal } from './SendEstimateModal.tsx';

const foundSchema = z.object({ success: z.literal(true), estimate: estimateSchema });

const SENT = 'Your estimate has been sent to your email!';

type State = { kind: 'loading' } | { kind: 'found'; estimate: Estimate } | { kind: 'not-found' } | { kind: 'failed' };

/** /estimate/{uuid}: a static shell that loads the shared estimate named in the URL. */
export default function EstimatePage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  useEffect(() => {
    setCanonicalToCurrentUrl();
    const uuid = window.location.pathname.split('/').filter(Boolean)[1] ?? '';
    const lookup = UUID_PATTERN.test(uuid)
      ? callApi(`/api/estimates/${uuid}`, foundSchema)
      : Promise.resolve({ ok: false, status: 404 } as const);
    lookup
      .then((result) => {
        if (result.ok) setState({ kind: 'found', estimate: result.data.estimate });
        else setState(result.status === 404 ? { kind: 'not-found' } : { kind: 'failed' });
      })
      .catch(() => setState({ kind: 'failed' }));
  }, []);

  if (state.kind === 'loading') {
    return (
      <section className="estimate-sheet" aria-busy="true">
        <h1>Your Net Sheet</h1>
        <p className="field-hint">Loading your estimate…</p>
        <div className="skeleton-sheet" aria-hidden="true" />
      </section>
    );
  }
  if (state.kind === 'not-found' || state.kind === 'failed') {
    return (
      <section className="estimate-missing">
        <h1>{state.kind === 'not-found' ? 'Estimate Not Found' : 'Failed to load estimate'}</h1>
        <p>
          {state.kind === 'not-found'
            ? 'Estimate not found. The link may be mistyped, or the estimate may have been removed.'
            : 'We could not load this estimate just now. Please try again in a moment.'}
        </p>
        <a className="button button-primary" href="/">
          Run another estimate
        </a>
      </section>
    );
  }
  const { estimate } = state;
  return (
    <section className="estimate-sheet">
      <h1>{estimate.recipient_name ? `Net Sheet for ${estimate.recipient_name}` : 'Your Net Sheet'}</h1>
      <p className="field-hint">
        Estimated on {new Date(estimate.created_at).toLocaleDateString('en-US', { dateStyle: 'long' })}
      </p>
      <NetSheet estimate={estimate} />
      {/* Above the buttons: where the visitor's eyes are when the modal closes and focus returns. */}
      <Notice tone="success" message={sent ? SENT : null} />
      <div className="modal-actions estimate-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            setSent(false);
            setSending(true);
          }}
        >
          Send this to my email
        </button>
        <a className="button button-secondary" href="/">
          Run another estimate
        </a>
      </div>
      <SendEstimateModal
        estimate={estimate}
        open={sending}
        onClose={() => setSending(false)}
        onSent={() => {
          setSending(false);
          setSent(true);
        }}
      />
    </section>
  );
}
