import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Notice } from '../../../ui/Notice.tsx';
import { UploadField } from '../../images/public/UploadField.tsx';
import { ApiError, sendJson } from '../../accounts/public/account-query.ts';
import type { Outcome } from '../../accounts/public/use-settings-form.ts';
import type { StoredSize } from '../../../ui/uploads.ts';
import { siteImageAnswerSchema, siteImageDeletedSchema } from './site-images.ts';

/** The spec's failure message, with the server's reason when it refused the request itself. */
export function failureOf(error: unknown, failed: string): string {
  return error instanceof ApiError && error.status < 500 ? `${failed}: ${error.message}` : failed;
}

interface SiteImageUploadProps {
  /** The upload route: POST the image, DELETE it. */
  path: string;
  /** What the image is, in the buttons' words ("OG image", "logo"). */
  noun: string;
  current: string | null;
  accept: string;
  maxBytes: number;
  tooLargeMessage: string;
  /** What the server keeps of the image: the browser scales the picked one to it before sending. */
  stored: StoredSize;
  hint: ReactNode;
  messages: { uploadFailed: string; deleteFailed: string };
  /** The image as the card previews it. */
  preview: (src: string) => ReactNode;
  /** After a change was saved: the card refetches what it shows. */
  onChanged: () => void;
  /** Left out when the card shows its one notice itself, below its other controls (minor 26). */
  outcome?: Outcome;
  onOutcome: (outcome: Outcome) => void;
}

/**
 * The upload, preview and delete of one site-wide image on /admin/settings (the OG image and both
 * logos): the image, scaled to what is stored, goes to its route as base64 JSON, the outcome in
 * the spec's words.
 */
export function SiteImageUpload({
  path,
  noun,
  current,
  accept,
  maxBytes,
  tooLargeMessage,
  stored,
  hint,
  messages,
  preview,
  onChanged,
  outcome,
  onOutcome,
}: SiteImageUploadProps) {
  const upload = useMutation({
    mutationFn: (image: string) => sendJson('POST', path, siteImageAnswerSchema, { image }),
    onSuccess: (answer) => {
      onOutcome({ tone: 'success', message: answer.message });
      onChanged();
    },
    onError: (error) => onOutcome({ tone: 'error', message: failureOf(error, messages.uploadFailed) }),
  });
  const remove = useMutation({
    mutationFn: () => sendJson('DELETE', path, siteImageDeletedSchema),
    onSuccess: (answer) => {
      onOutcome({ tone: 'success', message: answer.message });
      onChanged();
    },
    onError: (error) => onOutcome({ tone: 'error', message: failureOf(error, messages.deleteFailed) }),
  });
  const busy = upload.isPending || remove.isPending;
  return (
    <div className="site-image">
      {current ? preview(current) : <p className="field-hint">No {noun} yet.</p>}
      <UploadField
        label={current ? `Upload a new ${noun}` : `Upload ${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`}
        accept={accept}
        maxBytes={maxBytes}
        tooLargeMessage={tooLargeMessage}
        stored={stored}
        hint={hint}
        disabled={busy}
        onFile={(dataUrl) => {
          onOutcome(null);
          upload.mutate(dataUrl);
        }}
        onError={(message) => onOutcome({ tone: 'error', message: `${messages.uploadFailed}: ${message}` })}
      />
      {upload.isPending ? <p aria-live="polite">Uploading…</p> : null}
      {current ? (
        <div>
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => {
              onOutcome(null);
              remove.mutate();
            }}
          >
            Delete {noun}
          </button>
        </div>
      ) : null}
      {outcome === undefined ? null : <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />}
    </div>
  );
}
