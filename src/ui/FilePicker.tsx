import { useState, type Ref } from 'react';

interface FilePickerProps {
  id: string;
  accept: string;
  disabled?: boolean | undefined;
  describedBy?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
  /** The file picked (its name is shown beside the button, also after the caller clears the input). */
  onChange: (file: File | null) => void;
}

/**
 * The one file input of the signed-in areas (newcomer audit minor 37: native, unstyled "Choose File"
 * controls): a button-looking control with the chosen file's name beside it. The real input lies on
 * top of the button, transparent, so a click, the keyboard (Tab, Space, Enter) and a screen reader
 * all reach the browser's own file input, labelled by the field's <label>; the focus ring is drawn
 * on the button.
 */
export function FilePicker({ id, accept, disabled, describedBy, inputRef, onChange }: FilePickerProps) {
  const [name, setName] = useState<string | null>(null);
  return (
    <div className={disabled ? 'file-picker file-picker-disabled' : 'file-picker'}>
      <span className="file-picker-control">
        <input
          ref={inputRef}
          id={id}
          type="file"
          className="file-picker-input"
          accept={accept}
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0] ?? null;
            setName(file?.name ?? null);
            onChange(file);
          }}
        />
        <span className="button button-secondary file-picker-button" aria-hidden="true">
          Choose file
        </span>
      </span>
      <span className="file-picker-name" aria-hidden="true">
        {name ?? 'No file chosen'}
      </span>
    </div>
  );
}
