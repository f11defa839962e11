import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import { Field } from '../../ui/Field.tsx';
import { fieldErrorsOf, type FieldErrors } from '../../ui/field-errors.ts';
import { Notice } from '../../ui/Notice.tsx';
import { formatPhone, formatPhoneAsTyped } from '../../ui/phone.ts';
import AccountFrame, { type Area } from '../accounts/public/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/public/account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from '../accounts/public/save-failure.ts';
import {
  emailChangeSentMessage,
  PROFESSIONAL_TITLES,
  PROFILE_MESSAGES,
  profileAnswerSchema,
  profileSaveAnswerSchema,
  profileSchema,
  type Profile,
} from './profile.ts';
import './profile.css';
import { missingProfileFields, type ProfileNeed } from '../accounts/public/public-agent.ts';
import { ProfileBanner, profileFieldId } from './public/ProfileBanner.tsx';
import { ProfileLogoCard } from './ProfileLogoCard.tsx';
import { ProfilePhotoCard } from './ProfilePhotoCard.tsx';

const PROFILE_KEY = ['profile'];

/** Under a field the calculator page needs while it is empty. */
const NEEDED_HINT = 'Needed for your calculator page';

type TextField =
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone'
  | 'brokerage'
  | 'license_number'
  | 'website'
  | 'professional_title'
  | 'brokerage_street'
  | 'brokerage_city'
  | 'brokerage_state'
  | 'brokerage_zip';
type FormState = Record<TextField, string> & { show_profile_photo: boolean; show_logo: boolean };

function formOf(profile: Profile): FormState {
  return {
    first_name: profile.first_name,
    last_name: profile.last_name,
    email: profile.email,
    phone: profile.phone ? formatPhone(profile.phone) : '',
    brokerage: profile.brokerage ?? '',
    license_number: profile.license_number ?? '',
    website: profile.website ?? '',
    professional_title: profile.professional_title ?? '',
    brokerage_street: profile.brokerage_street ?? '',
    brokerage_city: profile.brokerage_city ?? '',
    brokerage_state: profile.brokerage_state ?? '',
    brokerage_zip: profile.brokerage_zip ?? '',
    show_profile_photo: profile.show_profile_photo,
    show_logo: profile.show_logo,
  };
}

/**
 * /dashboard/profile and /admin/profile: the signed-in agent's (or admin's) own profile, photo and
 * logo, as their calculator page shows them, inside the frame of `area`.
 */
export default function ProfileScreen({ area = 'dashboard' }: { area?: Area }) {
  return (
    <AccountFrame area={area} current={area === 'admin' ? '/admin/profile' : '/dashboard/profile'}>
      {() => <ProfileLoader />}
    </AccountFrame>
  );
}

function ProfileLoader() {
  const profile = useQuery({
    queryKey: PROFILE_KEY,
    queryFn: () => getJson('/api/agents/profile', profileAnswerSchema),
  });
  // The heading and what the screen is for do not depend on the profile: they come with the
  // pre-rendered page (the screen's largest paint), before the script and the profile.
  return (
    <section className="profile-screen" aria-labelledby="profile-heading">
      <h1 id="profile-heading">Profile</h1>
      <p>
        How you appear to sellers on your calculator page: your name, brokerage, photo or logo, and how to reach you.
      </p>
      {profile.isPending ? <p aria-live="polite">Loading your profile…</p> : null}
      {profile.isError ? (
        <div className="account-card">
          <p role="alert">We could not load your profile.</p>
          <button type="button" className="button button-primary" onClick={() => void profile.refetch()}>
            Retry
          </button>
        </div>
      ) : null}
      {profile.data ? <ProfileEditor profile={profile.data.profile} /> : null}
    </section>
  );
}

function ProfileEditor({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => formOf(profile));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [success, setSuccess] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = profileFieldId('professional_title');
  const missing = new Set(missingProfileFields(profile).map(({ key }) => key));
  /** A field the calculator page needs: its fixed id (the banner links to it) and, while empty, a hint. */
  const needed = (key: ProfileNeed['key']) => ({
    id: profileFieldId(key),
    hint: missing.has(key) ? NEEDED_HINT : undefined,
  });

  const say = (tone: 'success' | 'error', message: string) => {
    setSuccess(tone === 'success' ? message : null);
    setFailure(tone === 'error' ? message : null);
  };
  const saved = (data: { profile: Profile }, message: string) => {
    queryClient.setQueryData(PROFILE_KEY, data);
    say('success', message);
  };

  const save = useMutation({
    mutationFn: (body: FormData) => sendJson('PUT', '/api/agents/profile', profileSaveAnswerSchema, body),
    onSuccess: ({ email_change_sent_to: sentTo, ...answer }) => {
      // "We sent a link" only when the server queued one; the e-mail itself changes when it is followed.
      saved(answer, sentTo === null ? PROFILE_MESSAGES.saved : emailChangeSentMessage(sentTo));
      setForm(formOf(answer.profile));
      // The frame's header shows the first name from ['me'].
      void queryClient.invalidateQueries({ queryKey: ['me'] });
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors(error.fields);
      say('error', saveFailureMessage(error, { failed: PROFILE_MESSAGES.saveFailed }));
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const parsed = profileSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      say('error', CHECK_FIELDS);
      return;
    }
    setErrors({});
    const body = new FormData();
    for (const [key, value] of Object.entries(parsed.data)) body.append(key, value === null ? '' : String(value));
    save.mutate(body);
  };

  const text = (key: TextField) => ({
    name: key,
    value: form[key],
    error: errors[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });

  return (
    <>
      <p>
        Your calculator page: <a href={`/r/${profile.slug}`}>/r/{profile.slug}</a>
      </p>
      {/* What the calculator page still needs, read from the saved profile (newcomer audit M6). */}
      <ProfileBanner agent={profile} onProfilePage />
      {/* Floating: the buttons that cause them are far down a long page. */}
      <Notice tone="success" message={success} onDismiss={() => setSuccess(null)} />
      <Notice tone="error" message={failure} onDismiss={() => setFailure(null)} />

      <form className="form account-card" onSubmit={submit} noValidate aria-labelledby="details-heading">
        <h2 id="details-heading">Your details</h2>
        <div className="form-row">
          <Field
            label="First name"
            autoComplete="given-name"
            required
            {...text('first_name')}
            {...needed('first_name')}
          />
          <Field
            label="Last name"
            autoComplete="family-name"
            required
            {...text('last_name')}
            {...needed('last_name')}
          />
        </div>
        <div className="form-row">
          <Field label="Email" type="email" autoComplete="email" required {...text('email')} />
          <Field
            label="Phone"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            {...text('phone')}
            onChange={(event) => setForm({ ...form, phone: formatPhoneAsTyped(event.target.value) })}
          />
        </div>
        {/* A new address is not the e-mail until the link sent to it is followed (issue 21). */}
        {profile.pending_email ? (
          <p className="note" role="status">
            Waiting for confirmation: we sent a link to <strong>{profile.pending_email}</strong>. Your email stays{' '}
            {profile.email} until you follow it.
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={titleId}>Professional title</label>
          <select
            id={titleId}
            name="professional_title"
            required
            value={form.professional_title}
            aria-invalid={errors.professional_title ? true : undefined}
            aria-describedby={
              missing.has('professional_title') ? `${titleId}-hint ${titleId}-error` : `${titleId}-error`
            }
            onChange={(event) => setForm({ ...form, professional_title: event.target.value })}
          >
            <option value="">Choose your title</option>
            {PROFESSIONAL_TITLES.map((title) => (
              <option key={title} value={title}>
                {title}
              </option>
            ))}
          </select>
          {missing.has('professional_title') ? (
            <span id={`${titleId}-hint`} className="field-hint">
              {NEEDED_HINT}
            </span>
          ) : null}
          <span id={`${titleId}-error`} className="field-error" role="alert">
            {errors.professional_title ?? ''}
          </span>
        </div>
        <div className="form-row">
          <Field
            label="Brokerage"
            autoComplete="organization"
            required
            {...text('brokerage')}
            {...needed('brokerage')}
          />
          <Field label="License number" {...text('license_number')} />
        </div>
        <Field label="Website" type="url" autoComplete="url" placeholder="https://" {...text('website')} />
        <fieldset className="profile-address">
          <legend>Brokerage address</legend>
          <Field label="Street" autoComplete="street-address" {...text('brokerage_street')} />
          <div className="form-row">
            <Field label="City" autoComplete="address-level2" {...text('brokerage_city')} />
            <Field label="State" autoComplete="address-level1" maxLength={2} {...text('brokerage_state')} />
            <Field
              label="ZIP"
              autoComplete="postal-code"
              inputMode="numeric"
              maxLength={5}
              {...text('brokerage_zip')}
            />
          </div>
        </fieldset>
        <p className="field-hint">
          Your calculator page address is <strong>/r/{profile.slug}</strong> (it cannot be changed here).
        </p>
        <CheckboxField
          name="show_profile_photo"
          checked={form.show_profile_photo}
          onChange={(checked) => setForm({ ...form, show_profile_photo: checked })}
        >
          Show my profile photo on my calculator page
        </CheckboxField>
        <CheckboxField
          name="show_logo"
          checked={form.show_logo}
          onChange={(checked) => setForm({ ...form, show_logo: checked })}
        >
          Show my business logo on my calculator page
        </CheckboxField>
        <div>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save profile'}
          </button>
        </div>
      </form>
      <ProfilePhotoCard
        profile={profile}
        showProfilePhoto={form.show_profile_photo}
        onSaved={saved}
        onFailure={(message) => say('error', message)}
        onPicked={() => setFailure(null)}
        onDeleted={() => setForm((current) => ({ ...current, show_profile_photo: false }))}
      />

      <ProfileLogoCard
        profile={profile}
        showLogo={form.show_logo}
        onSaved={saved}
        onFailure={(message) => say('error', message)}
        onDeleted={() => setForm((current) => ({ ...current, show_logo: false }))}
      />
    </>
  );
}
