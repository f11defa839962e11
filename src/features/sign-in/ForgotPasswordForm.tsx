import { useState, type SubmitEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { emailOnlySchema } from '../auth/public/auth-schemas.ts';
import { NETWORK_ERROR, postAccount } from '../accounts/public/account-api.ts';

type State =
  { kind: 'form' } | { kind: 'loading' } | { kind: 'success'; message: string } | { kind: 'error'; message: string };

/** /forgot-password: the same answer whether or not the e-mail has an account. */
export default function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [state, setState] = useState<State>({ kind: 'form' });

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const parsed = emailOnlySchema.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    setState({ kind: 'loading' });
    const result = await postAccount('/api/auth/forgot-password', parsed.data);
    if (result.ok) setState({ kind: 'success', message: result.data.message ?? 'Check your email for a reset link.' });
    else setState({ kind: 'error', message: 'network' in result ? NETWORK_ERROR : result.error });
  };

  if (state.kind === 'success' || state.kind === 'error') {
    return (
      <section className="account-card">
        <h1>Forgot Password</h1>
        <p role={state.kind === 'error' ? 'alert' : 'status'}>{state.message}</p>
        <button type="button" className="button button-secondary" onClick={() => setState({ kind: 'form' })}>
          Back to the form
        </button>
        <p className="account-links">
          <a href="/auth">Back to Login</a>
        </p>
      </section>
    );
  }

  return (
    <section className="account-card">
      <h1>Forgot Password</h1>
      <p className="field-hint">
        Enter the e-mail of your account and we will send you a link to choose a new password.
      </p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          error={fieldError}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="button button-primary button-block" disabled={state.kind === 'loading'}>
          {state.kind === 'loading' ? 'Sending...' : 'Send Reset Link'}
        </button>
        <p className="account-links">
          <a href="/auth">Back to Login</a>
        </p>
      </form>
    </section>
  );
}
