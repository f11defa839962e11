import { useEffect, useState, type SubmitEvent } from 'react';
import * as z from 'zod';
import { Field } from '../../ui/Field.tsx';
import { loginSchema, sessionAgentSchema } from '../auth/public/auth-schemas.ts';
import { currentAgent, destinationAfterLogin, NETWORK_ERROR, postAccount } from '../accounts/public/account-api.ts';

const loggedInSchema = z.object({ success: z.literal(true), agent: sessionAgentSchema });
const verificationNeededSchema = z.object({ requires_verification: z.literal(true), email: z.string() });

/** The signed-in screen that sent the visitor here to log in (?next=), checked by destinationAfterLogin. */
const nextFromUrl = (): string | null => new URLSearchParams(window.location.search).get('next');

/** /auth: Agent Login. Admins go to /admin, agents to /dashboard, also when already signed in. */
export default function LoginForm() {
  const [form, setForm] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<{ email?: string | undefined; password?: string | undefined }>({});
  const [message, setMessage] = useState('');
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [resent, setResent] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Already signed in: on to their area, replacing /auth so Back does not return to the form.
    // Signed out or unreachable: the form stays (a failed check must not hide it).
    currentAgent().then(
      (agent) => {
        if (agent) window.location.replace(destinationAfterLogin(agent, nextFromUrl()));
      },
      () => undefined,
    );
  }, []);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    // Each attempt starts clean: an earlier attempt's banner (verify your e-mail) must not stand
    // beside this one's answer (newcomer audit minor 7).
    setMessage('');
    setResent('');
    setUnverifiedEmail(null);
    const parsed = loginSchema.safeParse(form);
    if (!parsed.success) {
      const found: typeof errors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'email') found.email ??= issue.message;
        if (issue.path[0] === 'password') found.password ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const response = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(parsed.data),
        credentials: 'same-origin',
      });
      const body: unknown = await response.json().catch(() => null);
      const loggedIn = loggedInSchema.safeParse(body);
      if (response.ok && loggedIn.success) {
        window.location.assign(destinationAfterLogin(loggedIn.data.agent, nextFromUrl()));
        return;
      }
      const verification = verificationNeededSchema.safeParse(body);
      if (verification.success) {
        setUnverifiedEmail(verification.data.email);
        return;
      }
      const error = z.object({ error: z.string() }).safeParse(body);
      setMessage(error.success ? error.data.error : 'Login failed');
    } catch (caught) {
      setMessage(caught instanceof TypeError ? NETWORK_ERROR : 'An error occurred during login');
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    if (!unverifiedEmail) return;
    const result = await postAccount('/api/auth/resend-verification', { email: unverifiedEmail });
    if (result.ok) {
      setUnverifiedEmail(null);
      setResent(result.data.message ?? 'We have sent you a new verification link.');
    } else {
      setMessage('network' in result ? NETWORK_ERROR : 'Failed to resend verification email');
    }
  };

  return (
    <section className="account-card">
      <h1>Agent Login</h1>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {message ? (
          <p className="form-error" role="alert">
            {message}
          </p>
        ) : null}
        {resent ? (
          <p className="note" role="status">
            {resent}
          </p>
        ) : null}
        {unverifiedEmail ? (
          <div className="notice-warning" role="alert">
            <p>Please verify your e-mail address before logging in. Check your inbox for the link we sent.</p>
            <button type="button" className="button button-secondary" onClick={() => void resend()}>
              Resend verification email
            </button>
          </div>
        ) : null}
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={form.email}
          error={errors.email}
          onChange={(event) => setForm({ ...form, email: event.target.value })}
        />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={form.password}
          error={errors.password}
          onChange={(event) => setForm({ ...form, password: event.target.value })}
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Logging in...' : 'Log In'}
        </button>
        <p className="account-links">
          <a href="/forgot-password">Forgot your password?</a>
          <a href="/signup">Create Your Calculator</a>
          <a href="/">Back to Home</a>
        </p>
      </form>
    </section>
  );
}
