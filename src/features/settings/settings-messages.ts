/** What the calculator settings screen and its API say (no schema here: the access check imports it). */
export const SETTINGS_MESSAGES = {
  saved: 'Calculator settings saved successfully!',
  saveFailed: 'Failed to save settings',
  loadFailed: 'Failed to load current settings',
  siteWideOnly: 'Only admins can change site-wide settings',
} as const;
