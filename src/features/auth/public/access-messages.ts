/** An admin route's 403: every admin route answers it, and the settings screen shows it (no server code here). */
export const SITE_WIDE_ONLY = 'Only admins can change site-wide settings';
