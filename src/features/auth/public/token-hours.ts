/** How long each e-mailed link works: the tokens (tokens.server.ts) expire then, and the e-mails say so. */
export const VERIFY_EMAIL_HOURS = 24;
export const RESET_PASSWORD_HOURS = 1;
/** An admin's invitation waits longer than a reset link: the new agent may not read it at once. */
export const INVITATION_HOURS = 72;
/** The link that moves an account to a new address. */
export const CHANGE_EMAIL_HOURS = 24;
/** The old address can undo a change for a week: its owner may be away when it happens. */
export const UNDO_EMAIL_CHANGE_HOURS = 7 * 24;
