import { CheckboxField } from '../../../ui/CheckboxField.tsx';

interface ConsentFieldProps {
  /** Who will call: the agent's full name, or null where the form does not know it. */
  agentName: string | null;
  checked: boolean;
  error: string | undefined;
  onChange: (checked: boolean) => void;
}

/**
 * The consent every lead form asks for. The lead is refused without it, so the words say exactly
 * what the visitor agrees to and that it is needed to send the request.
 */
export function ConsentField({ agentName, checked, error, onChange }: ConsentFieldProps) {
  return (
    <CheckboxField
      name="consent"
      checked={checked}
      error={error}
      onChange={onChange}
      hint="Required to send your request."
    >
      I agree that {agentName ?? 'the agent'} may contact me by phone, text or e-mail about selling my home.
    </CheckboxField>
  );
}
