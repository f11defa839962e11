import { useId, useRef, useState, type ReactNode } from 'react';
import { checkReadable, dataUrlOf, fitImage, ImageTooHeavy } from './fit-image.ts';
import type { StoredSize } from '../../../ui/uploads.ts';
import { FilePicker } from '../../../ui/FilePicker.tsx';

export const NOT_AN_IMAGE = 'Please select an image file';

interface UploadFieldProps {
  label: string;
  /** The file types offered by the picker, e.g. "image/png,image/jpeg"; any other is refused here. */
  accept: string;
  /** Picked files above this many bytes are refused here, with `tooLargeMessage` (the spec's limit on the file chosen). */
  maxBytes: number;
  tooLargeMessage: string;
  /** The message for a file of a type not in `accept` ("Please select an image file" without one). */
  wrongTypeMessage?: string;
  /**
   * What the server keeps of the image: the picked file is scaled down to it and re-encoded until it
   * fits one upload request (fitImage, decision 0027). Null only where the screen encodes the image
   * itself before it is sent (the profile photo: its crop tool calls encodeImage).
   */
  stored: StoredSize | null;
  hint?: ReactNode;
  disabled?: boolean;
  /** The image to send, as a data URL (what the JSON upload routes take) and as a file (for a multipart upload). */
  onFile: (dataUrl: string, file: File) => void;
  onError: (message: string) => void;
}

const TYPE_NAMES: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/svg+xml': 'SVG',
};

/** "JPEG, PNG or WebP": the types of an accept attribute, as people name them. */
function typeNames(accept: string): string {
  const names = accept
    .split(',')
    .map((entry) => TYPE_NAMES[entry.trim().toLowerCase()])
    .filter((name) => name !== undefined);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}` : (names[0] ?? 'an image');
}

/** The message for a file that says it is an image but does not decode (a renamed text file, a broken photo). */
export const unreadableImageMessage = (accept: string): string =>
  `This file is not an image we can read (${typeNames(accept)}). Please choose another file.`;

/** Whether `type` is one of the comma-separated MIME types of an accept attribute. */
const accepts = (accept: string, type: string): boolean =>
  accept
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .includes(type.toLowerCase());

/**
 * The one image picker of the signed-in areas (profile photo, logos, OG and showcase images): it
 * refuses what is not an image of an accepted type or is too large before anything is sent, then
 * scales and re-encodes the image so that its upload fits the platform's request limit, and hands
 * it over. The server checks and re-encodes it again; this saves a pointless upload.
 */
export function UploadField({
  label,
  accept,
  maxBytes,
  tooLargeMessage,
  wrongTypeMessage = NOT_AN_IMAGE,
  stored,
  hint,
  disabled,
  onFile,
  onError,
}: UploadFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preparing, setPreparing] = useState(false);

  async function prepare(file: File): Promise<void> {
    setPreparing(true);
    try {
      // Decoded here also when the screen encodes the image later (the photo's crop tool), so a file
      // that is not a readable image is named now, with the picker still there to choose another.
      if (!stored) await checkReadable(file);
      const fitted = stored ? await fitImage(file, stored) : file;
      const sent = fitted === file ? file : new File([fitted], file.name, { type: fitted.type });
      onFile(await dataUrlOf(sent), sent);
    } catch (error) {
      onError(error instanceof ImageTooHeavy ? error.message : unreadableImageMessage(accept));
    } finally {
      setPreparing(false);
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <FilePicker
        inputRef={input}
        id={id}
        accept={accept}
        disabled={disabled || preparing}
        describedBy={hint ? `${id}-hint` : undefined}
        onChange={(file) => {
          // Cleared, so choosing the same file again (after an error) still reports it.
          if (input.current) input.current.value = '';
          if (!file) return;
          if (!file.type.startsWith('image/')) return onError(NOT_AN_IMAGE);
          if (!accepts(accept, file.type)) return onError(wrongTypeMessage);
          if (file.size > maxBytes) return onError(tooLargeMessage);
          void prepare(file);
        }}
      />
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {/* Always there, so that screen readers announce what appears in it. */}
      <span className="field-hint" aria-live="polite">
        {preparing ? 'Preparing the image…' : ''}
      </span>
    </div>
  );
}
