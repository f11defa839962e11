import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { useFieldError } from './use-field-error.ts';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** Field's multi-line twin: a labelled text area whose error is announced and tied to it. */
export function TextAreaField({ label, error, hint, onChange, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const { ref, shownError, markEdited } = useFieldError<HTMLTextAreaElement>(error);
  const describedBy = [hint ? hintId : '', shownError ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        ref={ref}
        id={id}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          markEdited();
          onChange?.(event);
        }}
        {...textarea}
      />
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      <span id={errorId} className="field-error" role="alert">
        {shownError ?? ''}
      </span>
    </div>
  );
}
