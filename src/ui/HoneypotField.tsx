import { useId } from 'react';

/**
 * A trap for form-filling bots: an input that people neither see (off-screen, not display:none,
 * which bots skip), reach with Tab, nor hear; a bot that fills every input fills it, and the server
 * drops the lead. Sent as `company_site`.
 */
export function HoneypotField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        type="text"
        name="company_site"
        tabIndex={-1}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
