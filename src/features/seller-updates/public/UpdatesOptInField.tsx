import { CheckboxField } from '../../../ui/CheckboxField.tsx';
import { OPT_IN_LABEL } from './opt-in.ts';

/**
 * The box every lead form with an estimate offers: monthly updates of the seller's estimated net
 * (issue 25). Never ticked by default: the form's state starts it false, and only the visitor's tick
 * sends `updates_opt_in: true`. A labelled native checkbox, so keyboard and screen readers get it as is.
 */
export function UpdatesOptInField({
  checked,
  error,
  onChange,
}: {
  checked: boolean;
  error?: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  return (
    <CheckboxField
      name="updates_opt_in"
      checked={checked}
      error={error}
      onChange={onChange}
      hint="Optional. We e-mail you a link to confirm first; every update has an unsubscribe link."
    >
      {OPT_IN_LABEL}
    </CheckboxField>
  );
}
