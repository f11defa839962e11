import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Field } from '../../ui/Field.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { UploadField } from '../images/public/UploadField.tsx';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { ApiError, getJson, sendJson } from '../accounts/public/account-query.ts';
import { useSettingsForm, type Outcome } from '../accounts/public/use-settings-form.ts';
import {
  imageListSchema,
  imagesChangedSchema,
  SHOWCASE_IMAGE_SIZE,
  SHOWCASE_LIMITS,
  SHOWCASE_MESSAGES,
  showcaseDraftSchema,
  showcaseFieldsAnswerSchema,
  showcaseSavedSchema,
  type ShowcaseFields,
} from './public/showcase-settings.ts';
import { uploadShowcaseImage } from './upload-image.ts';
import './showcase-admin.css';

const FIELDS_KEY = ['showcase-fields'];
const IMAGES_KEY = ['showcase-images'];
const IMAGE_TYPES = 'image/jpeg,image/png,image/webp';

type Draft = Record<keyof ShowcaseFields, string>;

const toDraft = (fields: ShowcaseFields): Draft => ({
  showcase_property_price: fields.showcase_property_price.toFixed(2),
  showcase_property_address: fields.showcase_property_address,
  showcase_property_beds: String(fields.showcase_property_beds),
  showcase_property_baths: String(fields.showcase_property_baths),
  showcase_property_sqft: String(fields.showcase_property_sqft),
});

/** What the admin is told when a request fails: the server's word for a refusal, else the screen's own. */
const failureOf = (error: unknown, failed: string): string =>
  error instanceof ApiError ? (error.status < 500 ? error.message : failed) : failed;

/** /admin/showcase: the home page's showcase card, its figures and its photos. */
export default function ShowcaseScreen() {
  return (
    <AccountFrame area="admin" current="/admin/showcase">
      {() => (
        <div className="admin-settings showcase-admin">
          <h1>Showcase</h1>
          <p>
            The featured home on the home page. The card shows changes at once, without waiting for the site to be
            rebuilt.
          </p>
          <ShowcaseCards />
        </div>
      )}
    </AccountFrame>
  );
}

const fieldsQuery = {
  queryKey: FIELDS_KEY,
  queryFn: async () => (await getJson('/api/showcase/settings', showcaseFieldsAnswerSchema)).settings,
};

/**
 * The photos after the figures have loaded, not before: shown under the figures' "Loading…", the
 * photos' card jumped down when they came (a layout shift of 0.13 in Lighthouse, issue 23). The
 * same query as the figures' card (one request).
 */
function ShowcaseCards() {
  const fields = useQuery(fieldsQuery);
  return (
    <>
      <ShowcaseFieldsCard />
      {fields.isPending ? null : <ShowcaseImagesCard />}
    </>
  );
}

function ShowcaseFieldsCard() {
  const fields = useQuery(fieldsQuery);
  return (
    <section className="card admin-settings-card" aria-labelledby="showcase-fields-title">
      <h2 id="showcase-fields-title">Featured home</h2>
      {fields.isPending ? <p aria-live="polite">Loading…</p> : null}
      {fields.isError ? <LoadFailed retry={() => void fields.refetch()} /> : null}
      {fields.data ? <ShowcaseFieldsForm saved={fields.data} /> : null}
    </section>
  );
}

function LoadFailed({ retry }: { retry: () => void }) {
  return (
    <>
      <Notice tone="error" message={SHOWCASE_MESSAGES.loadFailed} />
      <button type="button" className="button button-primary" onClick={retry}>
        Retry
      </button>
    </>
  );
}

function ShowcaseFieldsForm({ saved }: { saved: ShowcaseFields }) {
  const { outcome, submit, input, pending } = useSettingsForm({
    saved,
    toDraft,
    schema: showcaseDraftSchema,
    save: (draft: Draft) =>
      sendJson('PATCH', '/api/agents/me/showcase', showcaseSavedSchema, showcaseDraftSchema.parse(draft)),
    queryKey: FIELDS_KEY,
    messages: SHOWCASE_MESSAGES,
  });
  return (
    <form noValidate onSubmit={submit} className="admin-settings-form">
      <Field
        label="Price ($)"
        inputMode="decimal"
        hint="Up to two decimals; the card shows whole dollars."
        {...input('showcase_property_price')}
      />
      <Field
        label="Address"
        maxLength={SHOWCASE_LIMITS.maxAddress}
        autoComplete="off"
        {...input('showcase_property_address')}
      />
      <div className="showcase-counts">
        <Field label="Beds" inputMode="numeric" {...input('showcase_property_beds')} />
        <Field label="Baths" inputMode="decimal" hint="Steps of 0.5" {...input('showcase_property_baths')} />
        <Field label="Square feet" inputMode="numeric" {...input('showcase_property_sqft')} />
      </div>
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? 'Saving…' : 'Save showcase'}
      </button>
    </form>
  );
}

function ShowcaseImagesCard() {
  const list = useQuery({ queryKey: IMAGES_KEY, queryFn: () => getJson('/api/images/list', imageListSchema) });
  return (
    <section className="card showcase-images-card" aria-labelledby="showcase-images-title">
      <h2 id="showcase-images-title">Photos</h2>
      <p>
        Shown in this order in the home page&rsquo;s carousel, one every 6 seconds. JPG, PNG or WebP, at most 5MB;
        landscape photos (16:10) fill the card best.
      </p>
      {list.isPending ? <p aria-live="polite">Loading…</p> : null}
      {list.isError ? <LoadFailed retry={() => void list.refetch()} /> : null}
      {list.data ? <ShowcaseImages images={list.data.is_default ? [] : list.data.images} /> : null}
    </section>
  );
}

function ShowcaseImages({ images }: { images: string[] }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [toDelete, setToDelete] = useState<string | null>(null);
  const follow = useRef<{ moved: string; by: -1 | 1 } | null>(null);

  /** The list the server answered becomes the screen's (the query's data). */
  const show = (next: string[]) =>
    queryClient.setQueryData(IMAGES_KEY, { success: true, images: next, is_default: next.length === 0 });

  const upload = useMutation({
    mutationFn: (file: File) => uploadShowcaseImage(file, setProgress),
    onMutate: () => {
      setOutcome(null);
      setProgress(0);
    },
    onSuccess: (answer) => {
      show(answer.images);
      setOutcome({ tone: 'success', message: SHOWCASE_MESSAGES.uploaded });
    },
    onError: (error) => setOutcome({ tone: 'error', message: failureOf(error, SHOWCASE_MESSAGES.uploadFailed) }),
    onSettled: () => setProgress(null),
  });

  const reorder = useMutation({
    mutationFn: ({ next }: { next: string[]; moved: string; by: -1 | 1 }) =>
      sendJson('PUT', '/api/images/order', imagesChangedSchema, { images: next }),
    onMutate: () => setOutcome(null),
    onSuccess: (answer, { moved, by }) => {
      show(answer.images);
      setOutcome({ tone: 'success', message: answer.message });
      follow.current = { moved, by };
    },
    onError: (error) => setOutcome({ tone: 'error', message: failureOf(error, SHOWCASE_MESSAGES.reorderFailed) }),
  });

  const remove = useMutation({
    mutationFn: (imagePath: string) => sendJson('DELETE', '/api/images/delete', imagesChangedSchema, { imagePath }),
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => {
      setToDelete(null);
      show(answer.images);
      setOutcome({ tone: 'success', message: answer.message });
    },
  });
  const askDelete = (source: string | null) => {
    remove.reset();
    setToDelete(source);
  };

  const move = (index: number, by: -1 | 1) => {
    const next = [...images];
    const [moved] = next.splice(index, 1);
    if (moved === undefined) return;
    next.splice(index + by, 0, moved);
    reorder.mutate({ next, moved, by });
  };

  const busy = upload.isPending || reorder.isPending || remove.isPending;

  // A keyboard user keeps moving the same photo: once the buttons are enabled again, focus follows
  // it (to its other button at an end of the list).
  useEffect(() => {
    const moved = follow.current;
    if (!moved || busy) return;
    follow.current = null;
    const buttons = [moved.by, -moved.by].map((way) =>
      document.querySelector<HTMLButtonElement>(`[data-moves="${CSS.escape(moved.moved)}"][data-by="${way}"]`),
    );
    buttons.find((button) => button && !button.disabled)?.focus();
  }, [busy, images]);
  const deleting = toDelete === null ? -1 : images.indexOf(toDelete);

  return (
    <div className="showcase-images">
      {images.length === 0 ? (
        <p className="showcase-empty">No photos yet: the home page shows a plain placeholder until you upload one.</p>
      ) : (
        <ol className="showcase-grid" aria-label="Showcase photos, in carousel order">
          {images.map((source, index) => {
            const name = `photo ${index + 1}`;
            return (
              <li key={source} className="showcase-tile">
                <img src={source} alt={`Showcase ${name} of ${images.length}`} width={320} height={200} />
                <div className="showcase-tile-actions">
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Move ${name} left`}
                    data-moves={source}
                    data-by={-1}
                    disabled={busy || index === 0}
                    onClick={() => move(index, -1)}
                  >
                    ← Left
                  </button>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Move ${name} right`}
                    data-moves={source}
                    data-by={1}
                    disabled={busy || index === images.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    Right →
                  </button>
                  <button
                    type="button"
                    className="button button-danger button-small"
                    aria-label={`Delete ${name}`}
                    disabled={busy}
                    onClick={() => askDelete(source)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <UploadField
        label={upload.isPending ? 'Uploading…' : 'Upload a photo'}
        accept={IMAGE_TYPES}
        maxBytes={SHOWCASE_LIMITS.maxImageBytes}
        tooLargeMessage={SHOWCASE_MESSAGES.imageTooLarge}
        wrongTypeMessage={SHOWCASE_MESSAGES.wrongFormat}
        stored={SHOWCASE_IMAGE_SIZE}
        hint="JPG, PNG or WebP, at most 5MB. It is added at the end of the list."
        disabled={busy || images.length >= SHOWCASE_LIMITS.maxImages}
        onFile={(_dataUrl, file) => upload.mutate(file)}
        onError={(message) => setOutcome({ tone: 'error', message })}
      />
      {progress === null ? null : (
        <progress className="showcase-progress" max={100} value={progress} aria-label="Upload progress">
          {progress}%
        </progress>
      )}
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete this photo?"
        confirmLabel="Delete photo"
        pendingLabel="Deleting…"
        tone="danger"
        pending={remove.isPending}
        error={remove.isError ? failureOf(remove.error, SHOWCASE_MESSAGES.deleteFailed) : null}
        onConfirm={() => toDelete !== null && remove.mutate(toDelete)}
        onCancel={() => askDelete(null)}
      >
        {toDelete === null ? null : (
          <div className="showcase-delete">
            <img src={toDelete} alt={`Showcase photo ${deleting + 1}, to be deleted`} width={320} height={200} />
            <p>It leaves the home page&rsquo;s carousel at once. This cannot be undone.</p>
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
