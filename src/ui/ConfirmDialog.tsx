import { useRef, type ReactNode } from 'react';
import { Modal } from './Modal.tsx';
import { Notice } from './Notice.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  /** The question, which is also the dialog's accessible name ("Delete this photo?"). */
  title: string;
  /** What happens, in words, and anything to do first (a CSV to keep). */
  children: ReactNode;
  /** Named for the act: "Delete 3 leads", "Disconnect", "Make Sam Lee inactive". */
  confirmLabel: string;
  /** What the confirm button says while the request runs ("Deleting…"). */
  pendingLabel: string;
  /** Danger: the act removes or stops something; primary: it is safe to undo. */
  tone: 'danger' | 'primary';
  /** The request runs: the confirm button is disabled and says so. */
  pending: boolean;
  /** The act cannot be confirmed yet or at all (nothing counted, nothing to delete). */
  confirmDisabled?: boolean | undefined;
  /** Why the request failed: shown here, and the dialog stays open to try again or cancel. */
  error: string | null;
  onConfirm: () => void;
  /** Cancel, Escape, the close button and the backdrop. The caller closes it on success too. */
  onCancel: () => void;
}

/**
 * The one confirmation before an act that cannot be taken back. Focus starts on Cancel, the safe
 * choice, so Enter pressed out of habit changes nothing; Modal returns focus to the opener.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, children, confirmLabel, pendingLabel, tone, pending, confirmDisabled, error } = props;
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal open={open} title={title} onClose={props.onCancel} initialFocus={cancelRef}>
      {open ? (
        <div className="confirm-dialog">
          {children}
          <Notice tone="error" message={error} />
          <div className="modal-actions">
            <button ref={cancelRef} type="button" className="button button-secondary" onClick={props.onCancel}>
              Cancel
            </button>
            <button
              type="button"
              className={`button button-${tone}`}
              disabled={pending || confirmDisabled === true}
              onClick={props.onConfirm}
            >
              {pending ? pendingLabel : confirmLabel}
            </button>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
