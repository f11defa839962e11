import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { statusChangeQuestion } from './admin-agents.ts';
import { nameOf, type StatusChange } from './agents-query.ts';

/** A status change's question, saying what it does, before it is made (minor 25). */
export function AgentStatusDialog(props: {
  change: StatusChange;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { change, pending, error, onConfirm, onCancel } = props;
  const question = statusChangeQuestion(nameOf(change.agent), change.status);
  return (
    <ConfirmDialog
      open
      title={question.title}
      confirmLabel={`Make ${change.status}`}
      pendingLabel="Saving…"
      tone={change.status === 'active' ? 'primary' : 'danger'}
      pending={pending}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{question.consequence}</p>
    </ConfirmDialog>
  );
}
