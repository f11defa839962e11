import { useEffect, useState } from 'react';
import { postAccount, REDIRECT_DELAY_MS, tokenFromUrl } from '../accounts/public/account-api.ts';
import { LinkOutcome } from './LinkOutcome.tsx';

type State = { kind: 'verifying' } | { kind: 'success' } | { kind: 'expired' } | { kind: 'error'; message: string };

/** /verify-email?token=: the link from the verification e-mail. */
export default function VerifyEmail() {
  const [state, setState] = useState<State>({ kind: 'verifying' });

  useEffect(() => {
    const token = tokenFromUrl();
    const verify = token
      ? postAccount('/api/auth/verify-email', { token }).then((result): State => {
          if (result.ok) return { kind: 'success' };
          if ('network' in result)
            return { kind: 'error', message: 'An error occurred during verification. Please try again.' };
          if (result.error === 'Token expired') return { kind: 'expired' };
          return { kind: 'error', message: result.error || 'Verification failed. Please try again.' };
        })
      : Promise.resolve<State>({
          kind: 'error',
          message: 'Invalid verification link. Please check your email and try again.',
        });
    void verify.then(setState);
  }, []);

  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = window.setTimeout(() => window.location.assign('/auth'), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state.kind]);

  return (
    <section className="account-card" aria-live="polite">
      <h1>Email Verification</h1>
      {state.kind === 'verifying' ? <p>Verifying your email…</p> : null}
      {state.kind === 'success' ? (
        <LinkOutcome
          role="status"
          message="Your email has been successfully verified! You can now log in to your account."
          href="/auth"
          label="Go to Agent Login"
          primary
        />
      ) : null}
      {state.kind === 'expired' ? (
        <LinkOutcome
          role="alert"
          message="Your verification link has expired. Please request a new one."
          href="/signup"
          label="Back to Sign Up"
          primary
        />
      ) : null}
      {state.kind === 'error' ? (
        <LinkOutcome role="alert" message={state.message} href="/auth" label="Agent Login" />
      ) : null}
    </section>
  );
}
