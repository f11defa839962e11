import { SITE_WIDE_ONLY } from '../auth/public/access-messages.ts';

/** What the calculator settings screen and its API say. */
export const SETTINGS_MESSAGES = {
  saved: 'Calculator settings saved successfully!',
  saveFailed: 'Failed to save settings',
  loadFailed: 'Failed to load current settings',
  siteWideOnly: SITE_WIDE_ONLY,
} as const;
