import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { useFieldError } from './use-field-error.ts';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** A fixed id, where a link points at the field (a banner's "Add your brokerage"); else one is made. */
  id?: string | undefined;
  error?: string | undefined;
  hint?: ReactNode;
}

/** The ids that tie a field's control to its hint and its error, and whether the error shows. */
export function fieldWiring(id: string, hint: ReactNode, shownError: string | undefined) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', shownError ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return { errorId, hintId, describedBy, invalid: shownError ? true : undefined };
}

/** A field's hint and its error, announced (role="alert"), under its control; shared by every field. */
export function FieldMessages({
  id,
  hint,
  shownError,
}: {
  id: string;
  hint: ReactNode;
  shownError: string | undefined;
}) {
  const { errorId, hintId } = fieldWiring(id, hint, shownError);
  return (
    <>
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      <span id={errorId} className="field-error" role="alert">
        {shownError ?? ''}
      </span>
    </>
  );
}

/** A labelled input whose error is announced, tied to it with aria-describedby, and hidden once edited. */
export function Field({ label, error, hint, type = 'text', onChange, id: fixedId, ...input }: FieldProps) {
  const madeId = useId();
  const id = fixedId ?? madeId;
  const { ref, shownError, markEdited } = useFieldError(error);
  const { describedBy, invalid } = fieldWiring(id, hint, shownError);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        type={type}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(event) => {
          markEdited();
          onChange?.(event);
        }}
        {...input}
      />
      <FieldMessages id={id} hint={hint} shownError={shownError} />
    </div>
  );
}
