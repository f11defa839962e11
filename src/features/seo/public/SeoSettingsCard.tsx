import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Field } from '../../../ui/Field.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { getJson, sendJson } from '../../accounts/public/account-query.ts';
import { useSettingsForm } from '../../accounts/public/use-settings-form.ts';
import {
  SEO_LIMITS,
  SEO_MESSAGES,
  seoAnswerSchema,
  seoSavedSchema,
  seoSettingsSchema,
  TWITTER_CARDS,
  type SeoSettings,
} from '../seo-settings.ts';

const PATH = '/api/seo/settings';
const QUERY_KEY = ['seo-settings'];

type Draft = Record<keyof SeoSettings, string>;

const toDraft = (settings: SeoSettings): Draft => ({
  seo_title: settings.seo_title,
  seo_description: settings.seo_description,
  og_title: settings.og_title ?? '',
  og_description: settings.og_description ?? '',
  og_url: settings.og_url ?? '',
  twitter_card: settings.twitter_card,
  seo_keywords: settings.seo_keywords ?? '',
});

/** The site's SEO defaults: page title, description, social previews and keywords. */
export function SeoSettingsCard() {
  const settings = useQuery({
    queryKey: QUERY_KEY,
    queryFn: async () => (await getJson(PATH, seoAnswerSchema)).settings,
  });
  return (
    <section className="card admin-settings-card" aria-labelledby="seo-settings-title">
      <h2 id="seo-settings-title">SEO</h2>
      <p>
        What search engines and link previews show for the site. Pages pick up a change when the site is next built.
      </p>
      {settings.isPending ? <p aria-live="polite">Loading…</p> : null}
      {settings.isError ? (
        <>
          <Notice tone="error" message={SEO_MESSAGES.loadFailed} />
          <button type="button" className="button button-primary" onClick={() => void settings.refetch()}>
            Retry
          </button>
        </>
      ) : null}
      {settings.data ? <SeoForm saved={settings.data} /> : null}
    </section>
  );
}

function SeoForm({ saved }: { saved: SeoSettings }) {
  const cardId = useId();
  const { draft, setDraft, fields, outcome, submit, input, pending } = useSettingsForm({
    saved,
    toDraft,
    schema: seoSettingsSchema,
    save: (body: Draft) => sendJson('PUT', PATH, seoSavedSchema, body),
    queryKey: QUERY_KEY,
    messages: SEO_MESSAGES,
  });

  /** A text field with its limit and a live count of the characters used. */
  const counted = (name: keyof typeof SEO_LIMITS, label: string) => (
    <Field
      label={label}
      maxLength={SEO_LIMITS[name]}
      hint={
        <span className="seo-counter" aria-live="polite">
          {draft[name].length}/{SEO_LIMITS[name]} characters
        </span>
      }
      {...input(name)}
    />
  );

  return (
    <form noValidate onSubmit={submit} className="admin-settings-form">
      {counted('seo_title', 'Page title')}
      {counted('seo_description', 'Meta description')}
      {counted('og_title', 'OG title (optional)')}
      {counted('og_description', 'OG description (optional)')}
      <Field
        label="OG URL (optional)"
        type="url"
        placeholder="https://"
        spellCheck={false}
        hint="The address link previews name for the site."
        {...input('og_url')}
      />
      <div className="field">
        <label htmlFor={`${cardId}-card`}>Twitter card</label>
        <select
          id={`${cardId}-card`}
          name="twitter_card"
          value={draft.twitter_card}
          aria-invalid={fields.twitter_card ? true : undefined}
          aria-describedby={`${cardId}-card-error`}
          onChange={(event) => setDraft({ ...draft, twitter_card: event.target.value })}
        >
          {TWITTER_CARDS.map((card) => (
            <option key={card} value={card}>
              {card}
            </option>
          ))}
        </select>
        <span id={`${cardId}-card-error`} className="field-error" role="alert">
          {fields.twitter_card ?? ''}
        </span>
      </div>
      <Field
        label="Keywords (optional)"
        maxLength={SEO_LIMITS.seo_keywords}
        hint="Separated by commas."
        {...input('seo_keywords')}
      />
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? 'Saving…' : 'Save SEO settings'}
      </button>
    </form>
  );
}
