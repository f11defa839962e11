import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Where focus starts; else the first field, where the visitor types. */
  initialFocus?: RefObject<HTMLElement | null> | undefined;
}

/** The native <dialog> as a modal: focus trap, Escape and the backdrop come from the browser. */
export function Modal({ open, title, onClose, children, initialFocus }: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open) return;
    // Captured before showModal moves focus into the dialog.
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    // Start where the visitor types, not on the close button the browser would pick.
    (initialFocus?.current ?? dialog.querySelector<HTMLElement>('input, select, textarea'))?.focus();
    return () => {
      // Closed by its state or unmounted with the screen that held it: the keyboard user goes on
      // from the control that opened it, when that control is still on the page (a deleted row's
      // button is not). The dialog leaves the top layer first, or the opener would still be inert.
      if (dialog.open) dialog.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open, initialFocus]);

  return (
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: let React state drive closing so the store stays the source of truth.
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === dialogRef.current) onClose();
      }}
    >
      <div className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="modal-close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="modal-body">{children}</div>
    </dialog>
  );
}
