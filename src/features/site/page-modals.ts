import { atom } from 'nanostores';

/** Which of the page's modals is open; shared by the nav buttons and the modal islands. */
export type PageModal = 'calculator' | 'contact' | null;

export const $openModal = atom<PageModal>(null);

export const openModal = (modal: Exclude<PageModal, null>) => $openModal.set(modal);
export const closeModal = () => $openModal.set(null);
