import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { FieldMessages, fieldWiring } from './Field.tsx';
import { useFieldError } from './use-field-error.ts';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** Field's multi-line twin (the contact form's message): labelled, its error announced and tied to it. */
export function TextAreaField({ label, error, hint, onChange, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  const { ref, shownError, markEdited } = useFieldError<HTMLTextAreaElement>(error);
  const { describedBy, invalid } = fieldWiring(id, hint, shownError);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        ref={ref}
        id={id}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(event) => {
          markEdited();
          onChange?.(event);
        }}
        {...textarea}
      />
      <FieldMessages id={id} hint={hint} shownError={shownError} />
    </div>
  );
}
