import { useEffect, useState, type SubmitEvent } from 'react';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import { Field } from '../../ui/Field.tsx';
import { signupSchema, suggestSlug } from '../auth/public/auth-schemas.ts';
import { postAccount, REDIRECT_DELAY_MS } from '../accounts/public/account-api.ts';
import { PasswordHint } from './PasswordHint.tsx';

const ERROR_KEYS = ['first_name', 'last_name', 'email', 'password', 'confirm', 'slug', 'terms', 'phone'] as const;
type ErrorKey = (typeof ERROR_KEYS)[number];
type Errors = Partial<Record<ErrorKey, string>>;
const isErrorKey = (key: string): key is ErrorKey => ERROR_KEYS.some((known) => known === key);

/** /signup: an agent creates an account and a calculator page at /r/{slug}. */
export default function SignupForm() {
  const [form, setForm] = useState({
    first_name: '',
    last_name: '',
    email: '',
    phone: '',
    password: '',
    confirm: '',
    slug: '',
    // Empty: an agent of any brokerage signs up here (the featured agent's was filled in: audit M6).
    brokerage: '',
    terms: false,
  });
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState(false);

  useEffect(() => {
    if (!created) return;
    const timer = window.setTimeout(() => window.location.assign('/auth'), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [created]);

  const set = (key: keyof typeof form, value: string) => {
    const next = { ...form, [key]: value };
    if (!slugEdited && (key === 'first_name' || key === 'last_name'))
      next.slug = suggestSlug(next.first_name, next.last_name);
    setForm(next);
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setGeneral('');
    const body = {
      first_name: form.first_name,
      last_name: form.last_name,
      email: form.email,
      phone: form.phone.trim() === '' ? null : form.phone,
      password: form.password,
      slug: form.slug,
      brokerage: form.brokerage,
      is_admin: false,
    };
    const found: Errors = {};
    const parsed = signupSchema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        if (isErrorKey(key)) found[key] ??= issue.message;
      }
    }
    if (form.password && form.password !== form.confirm) found.confirm = 'Passwords do not match';
    if (!form.terms) found.terms = 'You must agree to the terms of service';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    const result = await postAccount('/api/auth/signup', body);
    setSubmitting(false);
    if (result.ok) {
      setCreated(true);
      return;
    }
    if ('network' in result) {
      setGeneral('An error occurred during registration. Please try again.');
    } else if (result.error.includes('Email already registered')) {
      setErrors({ email: 'This email is already registered' });
    } else if (result.error.includes('Slug already taken')) {
      setErrors({ slug: 'This calculator address is already taken' });
    } else if (result.fields.password) {
      // A password the server refuses (a common one): said under the field, with the reason.
      setErrors({ password: result.fields.password });
    } else {
      setGeneral(result.error);
    }
  };

  if (created) {
    return (
      <section className="account-card" role="status">
        <h1>Account Created</h1>
        <p>We have sent you an e-mail. Please verify your e-mail address, then log in. Taking you to the login page…</p>
        <a href="/auth">Go to Agent Login</a>
      </section>
    );
  }

  const text = (key: 'first_name' | 'last_name' | 'email' | 'phone' | 'password' | 'confirm') => ({
    name: key,
    value: form[key],
    error: errors[key],
    onChange: (event: { target: { value: string } }) => set(key, event.target.value),
  });

  return (
    <section className="account-card">
      <h1>Create Your Calculator</h1>
      <p className="field-hint">Your own branded net proceeds calculator, and the leads it brings.</p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {general ? (
          <p className="form-error" role="alert">
            {general}
          </p>
        ) : null}
        <div className="form-row">
          <Field label="First name" autoComplete="given-name" required {...text('first_name')} />
          <Field label="Last name" autoComplete="family-name" required {...text('last_name')} />
        </div>
        <Field label="Email" type="email" autoComplete="email" required {...text('email')} />
        <Field label="Phone (optional)" type="tel" autoComplete="tel" {...text('phone')} />
        <Field
          label="Calculator address"
          name="slug"
          required
          value={form.slug}
          error={errors.slug}
          hint={`Your page: /r/${form.slug || 'yourname'}`}
          onChange={(event) => {
            setSlugEdited(true);
            setForm({ ...form, slug: event.target.value.toLowerCase() });
          }}
        />
        <Field
          label="Brokerage"
          name="brokerage"
          autoComplete="organization"
          value={form.brokerage}
          onChange={(event) => setForm({ ...form, brokerage: event.target.value })}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          hint={<PasswordHint password={form.password} />}
          {...text('password')}
        />
        <Field label="Confirm password" type="password" autoComplete="new-password" required {...text('confirm')} />
        <CheckboxField
          name="terms"
          checked={form.terms}
          error={errors.terms}
          onChange={(terms) => setForm({ ...form, terms })}
        >
          I agree to the <a href="/terms">terms of service</a>
        </CheckboxField>
        <button type="submit" className="button button-primary button-block" disabled={submitting}>
          {submitting ? 'Creating account...' : 'Create Account'}
        </button>
        <p className="field-hint">
          Already have an account? <a href="/auth">Agent Login</a>
        </p>
      </form>
    </section>
  );
}
