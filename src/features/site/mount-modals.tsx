import { createRoot } from 'react-dom/client';
import ModalHost, { modalHostPropsSchema } from './ModalHost.tsx';
// The calculator's styles: its components import none, so the server can render them (decision 0025).
import '../../ui/tabs.css';
import '../net-sheet/public/reverse.css';

/** Renders the modals into `container`, reading their settings from its data attributes. */
export function mountModals(container: HTMLElement): void {
  const props = modalHostPropsSchema.parse({ ...container.dataset });
  createRoot(container).render(<ModalHost {...props} />);
}
