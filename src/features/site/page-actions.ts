/**
 * The little JavaScript every public page runs before any interaction: buttons that open the
 * calculator or contact modal (React and the modals load on the first such click), the mobile
 * menu, and the logo refresh. Kept free of React so pages stay light until a visitor acts.
 */
import { LOGO_UPDATED_KEY, logoHeight, logoSource } from '../site-images/public/logo.ts';
import { openModal, type PageModal } from '../leads/public/page-modals.ts';
import { sourcePage, track } from '../../ui/analytics.ts';
import { rememberArrival } from '../lead-origin/public/arrival.ts';

type Location = 'header_nav' | 'mobile_nav' | 'footer_section' | 'hero';

let modalsLoading: Promise<void> | undefined;
function ensureModals(): Promise<void> {
  modalsLoading ??= import('./mount-modals.tsx').then(({ mountModals }) => {
    const container = document.getElementById('page-modals');
    if (container) mountModals(container);
  });
  return modalsLoading;
}

const isModal = (value: string | undefined): value is Exclude<PageModal, null> =>
  value === 'calculator' || value === 'contact';
const isLocation = (value: string | undefined): value is Location =>
  value === 'header_nav' || value === 'mobile_nav' || value === 'footer_section' || value === 'hero';

function closeMobileMenu(): void {
  const toggle = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const menu = document.getElementById('mobile-menu');
  toggle?.setAttribute('aria-expanded', 'false');
  if (menu) menu.hidden = true;
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const opener = target?.closest<HTMLElement>('[data-open-modal]');
  if (opener) {
    const modal = opener.dataset.openModal;
    const location = opener.dataset.location;
    if (!isModal(modal)) return;
    closeMobileMenu();
    if (isLocation(location)) {
      track({
        event: modal === 'calculator' ? 'cta_net_to_seller' : 'cta_schedule_consultation',
        source_page: sourcePage(),
        location,
      });
    }
    void ensureModals().then(() => openModal(modal));
    return;
  }
  const toggle = target?.closest<HTMLButtonElement>('[data-menu-toggle]');
  if (toggle) {
    const menu = document.getElementById('mobile-menu');
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    if (menu) menu.hidden = !open;
  }
});

// Escape closes the open menu and gives focus back to its button, as a disclosure does, so a
// keyboard or switch user is not left inside a list that has vanished.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  const toggle = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  if (toggle?.getAttribute('aria-expanded') !== 'true') return;
  closeMobileMenu();
  toggle.focus();
});

// Fetch the modal code as soon as a visitor shows intent (pointer over or focus on a button that
// opens a modal), so the click that follows opens it at once; pages load none of it before then.
const warmModals = (event: Event) => {
  if (event.target instanceof Element && event.target.closest('[data-open-modal]')) void import('./mount-modals.tsx');
};
document.addEventListener('pointerover', warmModals, { passive: true });
document.addEventListener('focusin', warmModals);

async function refreshLogo(): Promise<void> {
  const link = document.querySelector<HTMLAnchorElement>('[data-site-logo]');
  if (!link) return;
  try {
    const response = await fetch('/api/global/settings', { headers: { Accept: 'application/json' } });
    const body: unknown = await response.json();
    const settings = logoSettingsOf(body);
    if (!settings) return;
    const name = link.dataset.siteName ?? '';
    if (settings.logo) {
      const image = document.createElement('img');
      image.className = 'site-logo';
      image.src = logoSource(settings.logo, settings.type);
      image.alt = name;
      image.height = logoHeight(settings.scale);
      link.replaceChildren(image);
    } else {
      link.replaceChildren(document.createTextNode(name));
    }
  } catch (error) {
    console.warn('Could not refresh the site logo', error);
  }
}

function logoSettingsOf(body: unknown): { logo: string | null; type: string; scale: number } | undefined {
  if (typeof body !== 'object' || body === null || !('settings' in body)) return undefined;
  const { settings } = body;
  if (typeof settings !== 'object' || settings === null) return undefined;
  const logo = 'website_logo' in settings && typeof settings.website_logo === 'string' ? settings.website_logo : null;
  const type =
    'website_logo_type' in settings && typeof settings.website_logo_type === 'string'
      ? settings.website_logo_type
      : 'png';
  const scale =
    'website_logo_scale' in settings && typeof settings.website_logo_scale === 'number'
      ? settings.website_logo_scale
      : 1;
  return { logo, type, scale };
}

rememberArrival();
void refreshLogo();
window.addEventListener('storage', (event) => {
  if (event.key === LOGO_UPDATED_KEY) void refreshLogo();
});
let lastMarker = localStorage.getItem(LOGO_UPDATED_KEY);
window.setInterval(() => {
  const marker = localStorage.getItem(LOGO_UPDATED_KEY);
  if (marker !== lastMarker) {
    lastMarker = marker;
    void refreshLogo();
  }
}, 1000);
