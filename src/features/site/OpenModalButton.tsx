import { openModal, type PageModal } from './page-modals.ts';

interface OpenModalButtonProps {
  modal: Exclude<PageModal, null>;
  label: string;
  variant?: 'primary' | 'secondary';
}

/** A call to action that opens one of the page's modals. */
export default function OpenModalButton({ modal, label, variant = 'primary' }: OpenModalButtonProps) {
  return (
    <button type="button" className={`button button-${variant}`} onClick={() => openModal(modal)}>
      {label}
    </button>
  );
}
