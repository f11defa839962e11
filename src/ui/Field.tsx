import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { useFieldError } from './use-field-error.ts';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** A fixed id, where a link points at the field (a banner's "Add your brokerage"); else one is made. */
  id?: string | undefined;
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled input whose error is announced, tied to it with aria-describedby, and hidden once edited. */
export function Field({ label, error, hint, type = 'text', onChange, id: fixedId, ...input }: FieldProps) {
  const madeId = useId();
  const id = fixedId ?? madeId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const { ref, shownError, markEdited } = useFieldError(error);
  const describedBy = [hint ? hintId : '', shownError ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        type={type}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          markEdited();
          onChange?.(event);
        }}
        {...input}
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
