import { useId, type ReactNode } from 'react';

interface CheckboxFieldProps {
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
  children: ReactNode;
}

/** A labelled checkbox (consent, terms) whose error is announced and tied to it. */
export function CheckboxField({ name, checked, onChange, error, children }: CheckboxFieldProps) {
  const errorId = `${useId()}-error`;
  return (
    <div className="field">
      <label className="checkbox">
        <input
          type="checkbox"
          name={name}
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{children}</span>
      </label>
      <span id={errorId} className="field-error" role="alert">
        {error ?? ''}
      </span>
    </div>
  );
}
