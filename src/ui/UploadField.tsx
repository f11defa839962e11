import { useId, useRef, type ReactNode } from 'react';

export const NOT_AN_IMAGE = 'Please select an image file';

interface UploadFieldProps {
  label: string;
  /** The file types offered by the picker, e.g. "image/png,image/jpeg". */
  accept: string;
  /** Files above this many bytes are refused here, with `tooLargeMessage`, before any upload. */
  maxBytes: number;
  tooLargeMessage: string;
  hint?: ReactNode;
  disabled?: boolean;
  /** A file that passed the checks, read as a data URL (what the JSON upload routes take), and the file itself (for a multipart upload). */
  onFile: (dataUrl: string, file: File) => void;
  onError: (message: string) => void;
}

/**
 * The one image picker of the signed-in areas (profile photo, logos, OG and showcase images): it
 * refuses what is not an image or is too large before anything is sent, and hands over the file as
 * a data URL. The server checks both again; this only saves a pointless upload.
 */
export function UploadField({
  label,
  accept,
  maxBytes,
  tooLargeMessage,
  hint,
  disabled,
  onFile,
  onError,
}: UploadFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared, so choosing the same file again (after an error) still reports it.
          if (input.current) input.current.value = '';
          if (!file) return;
          if (!file.type.startsWith('image/')) return onError(NOT_AN_IMAGE);
          if (file.size > maxBytes) return onError(tooLargeMessage);
          const reader = new FileReader();
          reader.addEventListener('load', () => {
            if (typeof reader.result === 'string') onFile(reader.result, file);
          });
          reader.addEventListener('error', () => onError(NOT_AN_IMAGE));
          reader.readAsDataURL(file);
        }}
      />
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
