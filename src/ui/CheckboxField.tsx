import { useId, type ReactNode } from 'react';
import { FieldMessages } from './Field.tsx';
import { useFieldError } from './use-field-error.ts';

interface CheckboxFieldProps {
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}

/** A labelled checkbox (consent, terms) whose error is announced, tied to it, and hidden once changed. */
export function CheckboxField({ name, checked, onChange, error, hint, children }: CheckboxFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const { ref, shownError, markEdited } = useFieldError(error);
  return (
    <div className="field">
      <label className="checkbox">
        <input
          ref={ref}
          type="checkbox"
          name={name}
          checked={checked}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={hint ? `${hintId} ${errorId}` : errorId}
          onChange={(event) => {
            markEdited();
            onChange(event.target.checked);
          }}
        />
        <span>{children}</span>
      </label>
      <FieldMessages id={id} hint={hint} shownError={shownError} />
    </div>
  );
}
