import { useId, type ReactNode } from 'react';
import { useFieldError } from './use-field-error.ts';

/** A labelled select with its optional hint and its error (hidden once edited), as Field is for inputs. */
export function SelectField(props: {
  label: string;
  value: string;
  hint?: ReactNode;
  error: string | undefined;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  const { ref, shownError, markEdited } = useFieldError<HTMLSelectElement>(props.error);
  const describedBy = [props.hint ? `${id}-hint` : null, shownError ? `${id}-error` : null].filter(Boolean);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        ref={ref}
        id={id}
        value={props.value}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
        onChange={(event) => {
          markEdited();
          props.onChange(event.target.value);
        }}
      >
        {props.children}
      </select>
      {props.hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {props.hint}
        </span>
      ) : null}
      <span id={`${id}-error`} className="field-error" role="alert">
        {shownError ?? ''}
      </span>
    </div>
  );
}
