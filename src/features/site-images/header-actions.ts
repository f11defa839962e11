/**
 * The public header's actions (src/layouts/SiteLayout.astro): their words and button classes, in
 * one place so that the admin's logo preview (WebsiteLogoCard.tsx) draws the header's own buttons
 * rather than a copy that drifted (newcomer audit minor 12: a pill "Get Estimate" the header lacks).
 */
export const HEADER_ACTIONS = [
  { label: 'Get Estimate', className: 'button button-primary', modal: 'calculator' },
  { label: 'Contact', className: 'button button-secondary', modal: 'contact' },
] as const;

/** The phone header's one button, which opens the menu. */
export const MENU_TOGGLE = { label: 'Menu', className: 'button button-secondary menu-toggle' } as const;
