import { useEffect, useRef } from 'react';
import { CheckboxField } from '../../../ui/CheckboxField.tsx';
import { Field } from '../../../ui/Field.tsx';
import { OPT_IN_LABEL, PLACE_HINT, PLACE_LABEL, PLACE_MAX } from './opt-in.ts';

/**
 * The box every lead form with an estimate offers: monthly updates of the seller's estimated net
 * (issue 25). Never ticked by default: the form's state starts it false, and only the visitor's tick
 * sends `updates_opt_in: true`. A labelled native checkbox, so keyboard and screen readers get it as is.
 *
 * Ticked, it reveals one text input, the home's town or ZIP code (`updates_place`): an update follows
 * the home's market, and a quick estimate tells no town. Focus stays on the box (the input simply
 * follows it in the tab order). No town list is shipped for it: the server matches the name and
 * answers a field error, which the input shows.
 */
export function UpdatesOptInField({
  checked,
  error,
  onChange,
  place,
  placeError,
  onPlaceChange,
}: {
  checked: boolean;
  error?: string | undefined;
  onChange: (checked: boolean) => void;
  /** The typed town or ZIP code; a form that knows the town starts it with that town. */
  place: string;
  placeError?: string | undefined;
  onPlaceChange: (place: string) => void;
}) {
  const revealed = useRef<HTMLDivElement>(null);
  // On a phone the input may appear below the modal's fold: brought into view, focus left on the box.
  useEffect(() => {
    if (checked) revealed.current?.scrollIntoView({ block: 'nearest' });
  }, [checked]);
  return (
    <>
      <CheckboxField
        name="updates_opt_in"
        checked={checked}
        error={error}
        onChange={onChange}
        hint="Optional. We e-mail you a link to confirm first; every update has an unsubscribe link."
      >
        {OPT_IN_LABEL}
      </CheckboxField>
      {checked ? (
        <div ref={revealed}>
          <Field
            label={PLACE_LABEL}
            name="updates_place"
            // A town's name, not a postal code alone: "postal-code" would offer only ZIP codes.
            autoComplete="address-level2"
            inputMode="text"
            spellCheck={false}
            maxLength={PLACE_MAX}
            value={place}
            error={placeError}
            hint={PLACE_HINT}
            onChange={(event) => onPlaceChange(event.target.value)}
          />
        </div>
      ) : null}
    </>
  );
}
