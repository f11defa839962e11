import { useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { resetPasswordSchema } from '../auth/public/auth-schemas.ts';
import { NETWORK_ERROR, postAccount, REDIRECT_DELAY_MS, tokenFromUrl } from '../accounts/public/account-api.ts';
import { PasswordHint } from './PasswordHint.tsx';

type State =
  | { kind: 'form' }
  | { kind: 'loading' }
  | { kind: 'success'; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'invalid' };

/** The page's words: a reset, or an invited agent's first password (`&welcome=1`, newcomer audit M6). */
const WORDS = {
  reset: {
    title: 'Reset Password',
    heading: 'Reset Password',
    intro: null,
    password: 'New password',
    confirm: 'Confirm new password',
    submit: 'Reset Password',
    busy: 'Resetting...',
    done: 'Your password has been reset.',
    invalid: 'Invalid reset link. Please request a new password reset.',
  },
  welcome: {
    title: 'Welcome: choose your password',
    heading: 'Welcome! Choose your password',
    intro: `Your agent account and calculator page are ready. Choose a password to activate your account; you will use it with your e-mail address to log in.`,
    password: 'Password',
    confirm: 'Confirm password',
    submit: 'Set my password',
    busy: 'Saving...',
    done: 'Your password is set and your account is active. You can log in now.',
    invalid:
      'This invitation link is invalid or has been used. Ask your administrator to invite you again, or request a password reset.',
  },
} as const;

const isWelcome = () => new URLSearchParams(window.location.search).get('welcome') === '1';

/** /reset-password?token=: choose a new password (at least MIN_NEW_PASSWORD_LENGTH characters); with &welcome=1, an invited agent's first. */
export default function ResetPasswordForm() {
  // Rendered in the browser only (client:only), so the link's token can be read at once.
  const [token] = useState(tokenFromUrl);
  const [words] = useState(() => WORDS[isWelcome() ? 'welcome' : 'reset']);
  useEffect(() => {
    document.title = document.title.replace(WORDS.reset.title, words.title);
  }, [words]);
  const [form, setForm] = useState({ password: '', confirm: '' });
  const [problem, setProblem] = useState('');
  const [state, setState] = useState<State>(() => (token ? { kind: 'form' } : { kind: 'invalid' }));

  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = window.setTimeout(() => window.location.assign('/auth'), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state.kind]);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!form.password || !form.confirm) return setProblem('Please fill in all fields');
    if (form.password !== form.confirm) return setProblem('Passwords do not match');
    const parsed = resetPasswordSchema.safeParse({ token, password: form.password });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Please check the form');
    setProblem('');
    setState({ kind: 'loading' });
    const result = await postAccount('/api/auth/reset-password', parsed.data);
    if (result.ok)
      setState({ kind: 'success', message: words === WORDS.reset ? (result.data.message ?? words.done) : words.done });
    else if (!('network' in result) && result.fields.password) {
      // A refused password (a common one) is fixed on the form, which keeps what was typed.
      setProblem(result.fields.password);
      setState({ kind: 'form' });
    } else setState({ kind: 'error', message: 'network' in result ? NETWORK_ERROR : result.error });
  };

  if (state.kind === 'invalid') {
    return (
      <section className="account-card">
        <h1>{words.heading}</h1>
        <p role="alert">{words.invalid}</p>
        <a className="button button-primary" href="/forgot-password">
          Request a new link
        </a>
      </section>
    );
  }
  if (state.kind === 'success' || state.kind === 'error') {
    return (
      <section className="account-card">
        <h1>{words.heading}</h1>
        <p role={state.kind === 'error' ? 'alert' : 'status'}>{state.message}</p>
        {state.kind === 'error' ? (
          <button type="button" className="button button-secondary" onClick={() => setState({ kind: 'form' })}>
            Try again
          </button>
        ) : (
          <a href="/auth">Go to Agent Login</a>
        )}
      </section>
    );
  }
  return (
    <section className="account-card">
      <h1>{words.heading}</h1>
      {words.intro ? <p>{words.intro}</p> : null}
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <Field
          label={words.password}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={form.password}
          hint={<PasswordHint password={form.password} />}
          onChange={(event) => setForm({ ...form, password: event.target.value })}
        />
        <Field
          label={words.confirm}
          type="password"
          name="confirm"
          autoComplete="new-password"
          required
          value={form.confirm}
          onChange={(event) => setForm({ ...form, confirm: event.target.value })}
        />
        <button type="submit" className="button button-primary button-block" disabled={state.kind === 'loading'}>
          {state.kind === 'loading' ? words.busy : words.submit}
        </button>
      </form>
    </section>
  );
}
