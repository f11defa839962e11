import { useEffect, useRef, useState } from 'react';

/**
 * The error a field shows. A form's error describes the value it checked, so once the visitor
 * edits the field it is hidden (a fixed field no longer looks wrong); it shows again when the form
 * is checked anew: on the next submit of the field's form, or when the form sets another message.
 * Kept here so every form using Field or CheckboxField behaves the same without its own clearing.
 */
export function useFieldError<
  Control extends HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement = HTMLInputElement,
>(error: string | undefined) {
  const ref = useRef<Control>(null);
  const [edited, setEdited] = useState(false);
  const [lastError, setLastError] = useState(error);
  if (error !== lastError) {
    setLastError(error);
    setEdited(false);
  }

  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return undefined;
    const recheck = () => setEdited(false);
    form.addEventListener('submit', recheck);
    return () => form.removeEventListener('submit', recheck);
  }, []);

  return { ref, shownError: edited ? undefined : error, markEdited: () => setEdited(true) };
}
