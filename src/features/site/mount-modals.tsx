import { createRoot } from 'react-dom/client';
import ModalHost, { modalHostPropsSchema } from './ModalHost.tsx';

/** Renders the modals into `container`, reading their settings from its data attributes. */
export function mountModals(container: HTMLElement): void {
  const props = modalHostPropsSchema.parse({ ...container.dataset });
  createRoot(container).render(<ModalHost {...props} />);
}
