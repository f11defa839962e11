import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode, type SubmitEvent } from 'react';
import * as z from 'zod/mini';
import { Field } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { Notice } from '../../ui/Notice.tsx';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { getJson, sendJson } from '../accounts/public/account-query.ts';
import { useSettingsForm } from '../accounts/public/use-settings-form.ts';
import {
  addItem,
  fromDraft,
  itemCount,
  moveItem,
  removeItem,
  toDraft,
  type ContentDraft,
  type DraftList,
} from './content-draft.ts';
import {
  CONTENT_LIMITS,
  CONTENT_MESSAGES,
  siteContentAnswerSchema,
  siteContentSavedSchema,
  siteContentSchema,
  unsourcedFigures,
  type SiteContent,
} from './site-content-schema.ts';
import './content.css';

const PATH = '/api/admin/site-content';
const QUERY_KEY = ['site-content'];

/** The form checks the draft as the API will: turned back into the content first. */
const draftSchema = z.pipe(z.pipe(z.record(z.string(), z.string()), z.transform(fromDraft)), siteContentSchema);

/** /admin/content: the claims, track record, testimonial, disclaimer and county figures of the public pages. */
export default function SiteContentScreen() {
  return (
    <AccountFrame area="admin" current="/admin/content">
      {() => (
        <div className="site-content">
          <h1>Site Content</h1>
          <p>
            The figures and words the public pages show. Keep the claims true of this site: each may name its source,
            shown in small print under it.
          </p>
          <ContentLoader />
        </div>
      )}
    </AccountFrame>
  );
}

function ContentLoader() {
  const content = useQuery({
    queryKey: QUERY_KEY,
    queryFn: async () => (await getJson(PATH, siteContentAnswerSchema)).content,
  });
  if (content.isPending) return <p aria-live="polite">Loading…</p>;
  if (content.isError) {
    return (
      <>
        <Notice tone="error" message={CONTENT_MESSAGES.loadFailed} />
        <button type="button" className="button button-primary" onClick={() => void content.refetch()}>
          Retry
        </button>
      </>
    );
  }
  return <ContentForm saved={content.data} />;
}

const CLAIMS: DraftList = { path: 'claims', fields: ['figure', 'label', 'detail', 'source'] };
const TRACK_RECORD: DraftList = { path: 'track_record', fields: ['figure', 'label'] };
const NASSAU: DraftList = { path: 'counties.nassau', fields: ['label', 'value'] };
const SUFFOLK: DraftList = { path: 'counties.suffolk', fields: ['label', 'value'] };

function ContentForm({ saved }: { saved: SiteContent }) {
  const form = useSettingsForm({
    saved,
    toDraft,
    schema: draftSchema,
    save: async (draft: ContentDraft) => {
      const answer = await sendJson('PUT', PATH, siteContentSavedSchema, fromDraft(draft));
      return { message: answer.message, settings: answer.content };
    },
    queryKey: QUERY_KEY,
    messages: CONTENT_MESSAGES,
  });
  const { draft, outcome, saveDraft, input, pending } = form;
  // Figures with no source (claims, the track record), waiting for the admin's yes before they are published.
  const [unsourced, setUnsourced] = useState<string[]>([]);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const parsed = draftSchema.safeParse(draft);
    const missing = parsed.success ? unsourcedFigures(parsed.data) : [];
    if (missing.length > 0) setUnsourced(missing);
    else saveDraft();
  };

  return (
    <form noValidate onSubmit={submit} className="site-content-form">
      {unsourced.length > 0 ? (
        <Modal
          open
          title={unsourced.length === 1 ? 'Publish a figure without a source?' : 'Publish figures without a source?'}
          onClose={() => setUnsourced([])}
        >
          <p>
            Sellers read these figures as facts. Without a source line they cannot check them, and a figure that is not
            true of this site can mislead:
          </p>
          <ul>
            {unsourced.map((what) => (
              <li key={what}>{capitalized(what)} has no source.</li>
            ))}
          </ul>
          <div className="modal-actions">
            <button type="button" className="button button-primary" onClick={() => setUnsourced([])}>
              Add a source
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setUnsourced([]);
                saveDraft();
              }}
            >
              Save without a source
            </button>
          </div>
        </Modal>
      ) : null}
      <ListEditor
        form={form}
        list={CLAIMS}
        title="Marketing claims"
        legend="Claim"
        hint="Shown on the home page and every town page."
        item={(at) => (
          <>
            <Field label="Figure" maxLength={CONTENT_LIMITS.figure} {...input(at('figure'))} />
            <Field label="Label" maxLength={CONTENT_LIMITS.label} {...input(at('label'))} />
            <Field label="Detail (optional)" maxLength={CONTENT_LIMITS.detail} {...input(at('detail'))} />
            <Field
              label="Source (optional)"
              maxLength={CONTENT_LIMITS.source}
              hint="Small print under the claim, e.g. Source: MLS data, Apr 2025. A figure without one is asked about before it is saved."
              {...input(at('source'))}
            />
          </>
        )}
      />
      <ListEditor
        form={form}
        list={TRACK_RECORD}
        title="Track record"
        legend="Figure"
        hint="Shown on the home page and the agent's About page."
        item={(at) => (
          <>
            <Field label="Figure" maxLength={CONTENT_LIMITS.figure} {...input(at('figure'))} />
            <Field label="Label" maxLength={CONTENT_LIMITS.label} {...input(at('label'))} />
          </>
        )}
        after={
          <Field
            label="Source of the track record (optional)"
            maxLength={CONTENT_LIMITS.source}
            hint="Small print under the track record, e.g. Source: MLS data, 2020–2025. Figures without one are asked about before they are saved."
            {...input('track_record_source')}
          />
        }
      />
      <section className="card site-content-section" aria-labelledby="content-testimonial">
        <h2 id="content-testimonial">Testimonial</h2>
        <Field
          label="Quote"
          maxLength={CONTENT_LIMITS.quote}
          hint="The home page adds the quotation marks."
          {...input('testimonial.quote')}
        />
        <Field label="Author" maxLength={CONTENT_LIMITS.author} {...input('testimonial.author')} />
      </section>
      <section className="card site-content-section" aria-labelledby="content-disclaimer">
        <h2 id="content-disclaimer">Disclaimer</h2>
        <Field
          label="Disclaimer"
          maxLength={CONTENT_LIMITS.disclaimer}
          hint={`In every page's footer. ${draft.disclaimer?.length ?? 0}/${CONTENT_LIMITS.disclaimer} characters`}
          {...input('disclaimer')}
        />
      </section>
      {[
        { list: NASSAU, title: 'Nassau County figures' },
        { list: SUFFOLK, title: 'Suffolk County figures' },
      ].map(({ list, title }) => (
        <ListEditor
          key={list.path}
          form={form}
          list={list}
          title={title}
          legend="Figure"
          hint="Shown on the county's page."
          item={(at) => (
            <>
              <Field label="Label" maxLength={CONTENT_LIMITS.statLabel} {...input(at('label'))} />
              <Field label="Figure" maxLength={CONTENT_LIMITS.statValue} {...input(at('value'))} />
            </>
          )}
        />
      ))}
      <div className="site-content-actions">
        <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save site content'}
        </button>
      </div>
    </form>
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type Form = ReturnType<typeof useSettingsForm<ContentDraft, SiteContent>>;

/** A list of the content: its items in order, each with move up/down and remove, and an add button. */
function ListEditor({
  form,
  list,
  title,
  legend,
  hint,
  item,
  after,
}: {
  form: Form;
  list: DraftList;
  title: string;
  /** What an item is called: "Claim" numbers them Claim 1, Claim 2… */
  legend: string;
  hint: string;
  /** An item's fields; `at(field)` names one in the draft. */
  item: (at: (field: string) => string) => ReactNode;
  /** A field of the whole list, under it (the track record's source). */
  after?: ReactNode;
}) {
  const { draft, setDraft, fields } = form;
  const count = itemCount(draft, list);
  const headingId = `content-${list.path.replace('.', '-')}`;
  return (
    <section className="card site-content-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="field-hint">
        {hint} 1 to {CONTENT_LIMITS.items}.
      </p>
      <ol className="site-content-list">
        {Array.from({ length: count }, (_, index) => {
          const name = `${legend.toLowerCase()} ${index + 1}`;
          return (
            <li key={index}>
              <fieldset className="site-content-item">
                <legend>{`${legend} ${index + 1}`}</legend>
                <div className="site-content-fields">{item((field) => `${list.path}.${index}.${field}`)}</div>
                <div className="site-content-item-actions">
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={index === 0}
                    onClick={() => setDraft(moveItem(draft, list, index, -1))}
                  >
                    Move up
                    <span className="visually-hidden"> {name}</span>
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={index === count - 1}
                    onClick={() => setDraft(moveItem(draft, list, index, 1))}
                  >
                    Move down
                    <span className="visually-hidden"> {name}</span>
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={count === 1}
                    onClick={() => setDraft(removeItem(draft, list, index))}
                  >
                    Remove
                    <span className="visually-hidden"> {name}</span>
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <p className="field-error" role="alert">
        {fields[list.path] ?? ''}
      </p>
      <button
        type="button"
        className="button button-secondary"
        disabled={count >= CONTENT_LIMITS.items}
        onClick={() => setDraft(addItem(draft, list))}
      >
        Add {legend.toLowerCase()}
      </button>
      {after}
    </section>
  );
}
