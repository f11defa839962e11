import { useState } from 'react';
import { postAccount, tokenFromUrl } from '../accounts/public/account-api.ts';
import { LinkOutcome } from './LinkOutcome.tsx';

type State =
  { kind: 'ready' } | { kind: 'sending' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

const PAGES = {
  confirm: {
    heading: 'Confirm your new email',
    intro: 'Follow through to make this address the email of your agent account. You will then log in with it.',
    button: 'Confirm my new email',
    path: '/api/auth/confirm-email-change',
  },
  undo: {
    heading: 'Undo the email change',
    intro:
      'Your account gets this address back, and every session of the account is signed out. If you did not ask ' +
      'for the change, also reset your password afterwards.',
    button: 'Undo the change',
    path: '/api/auth/undo-email-change',
  },
} as const;

/**
 * /confirm-email-change?token= and /undo-email-change?token=: the links of a profile e-mail change.
 * Nothing happens until the button is pressed, so a mail scanner that opens the link changes nothing.
 */
export default function EmailChangeLink({ action }: { action: keyof typeof PAGES }) {
  const page = PAGES[action];
  const [token] = useState(tokenFromUrl);
  const [state, setState] = useState<State>(() =>
    token ? { kind: 'ready' } : { kind: 'error', message: 'Invalid link. Please check your email and try again.' },
  );

  const send = async () => {
    if (!token) return;
    setState({ kind: 'sending' });
    const result = await postAccount(page.path, { token });
    if (result.ok) return setState({ kind: 'done', message: result.data.message ?? 'Done.' });
    if ('network' in result) return setState({ kind: 'error', message: 'Network error. Please try again.' });
    const message =
      result.error === 'Token expired'
        ? 'This link has expired.'
        : result.error || 'Something went wrong. Please try again.';
    setState({ kind: 'error', message });
  };

  return (
    <section className="account-card" aria-live="polite">
      <h1>{page.heading}</h1>
      {state.kind === 'ready' || state.kind === 'sending' ? (
        <>
          <p>{page.intro}</p>
          <button
            type="button"
            className="button button-primary"
            disabled={state.kind === 'sending'}
            onClick={() => void send()}
          >
            {state.kind === 'sending' ? 'Please wait…' : page.button}
          </button>
        </>
      ) : null}
      {state.kind === 'done' ? (
        <LinkOutcome role="status" message={state.message} href="/auth" label="Go to Agent Login" primary />
      ) : null}
      {state.kind === 'error' ? (
        <LinkOutcome role="alert" message={state.message} href="/auth" label="Agent Login" />
      ) : null}
    </section>
  );
}
