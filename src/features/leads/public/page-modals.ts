import { atom } from 'nanostores';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';

/** Which of the page's modals is open; shared by the nav buttons and the modal islands. */
export type PageModal = 'calculator' | 'contact' | null;

/** What "Talk to {agent}" after an estimate carries into the contact form. */
export interface ContactContext {
  firstName: string;
  estimate: Estimate;
}

export const $openModal = atom<PageModal>(null);
export const $contactContext = atom<ContactContext | null>(null);

/** Opens a modal afresh: a contact form opened from the page is about no estimate. */
export const openModal = (modal: Exclude<PageModal, null>) => {
  $contactContext.set(null);
  $openModal.set(modal);
};
export const closeModal = () => $openModal.set(null);

/** Opens the contact form filled from the seller's estimate, which the lead then carries. */
export const openContactAbout = (context: ContactContext) => {
  $contactContext.set(context);
  $openModal.set('contact');
};
