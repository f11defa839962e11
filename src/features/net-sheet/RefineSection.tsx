/** The pieces every section of the refine form is made of. */
import type { ReactNode } from 'react';
import { Field } from '../../ui/Field.tsx';
import type { FieldErrors } from '../../ui/field-errors.ts';
import type { RefineDraft } from './refine-form.ts';

/** What a section's fields read and change: the form's draft, and the fields marked wrong. */
export interface RefinePartProps {
  draft: RefineDraft;
  update: (change: Partial<RefineDraft>) => void;
  fields: FieldErrors;
}

/** One section the seller opens on its own (a <details>). */
export function RefineSection({
  title,
  open,
  onOpenChange,
  children,
}: {
  title: string;
  open: boolean;
  onOpenChange: (isOpen: boolean) => void;
  children: ReactNode;
}) {
  return (
    <details className="refine-section" open={open} onToggle={(event) => onOpenChange(event.currentTarget.open)}>
      <summary>{title}</summary>
      <div className="refine-section-body">{children}</div>
    </details>
  );
}

/** An amount in dollars, as the seller types it. */
export function MoneyField({
  label,
  path,
  value,
  onValue,
  hint,
  placeholder = '',
  error,
}: {
  label: string;
  /** The field's path in the details (its name, and the key of its error). */
  path: string;
  value: string;
  onValue: (value: string) => void;
  hint: ReactNode;
  placeholder?: string;
  error: string | undefined;
}) {
  return (
    <Field
      label={label}
      name={path}
      inputMode="decimal"
      autoComplete="off"
      placeholder={placeholder}
      hint={hint}
      value={value}
      error={error}
      onChange={(event) => onValue(event.target.value)}
    />
  );
}
