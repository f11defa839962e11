/** What the account calls answer in words, and the sign-up's answer to a taken e-mail or slug. */
import { HttpError } from '../../../platform/http.ts';

export const MESSAGES = {
  signedUp: 'Account created. Check your email to verify your account.',
  emailTaken: 'Email already registered',
  slugTaken: 'Slug already taken',
  verified: 'Your email has been verified. You can now log in.',
  badLogin: 'Invalid email or password',
  verifyFirst: 'Please verify your email before logging in.',
  inactive: 'This account is inactive. Please contact the site administrator.',
  resent: 'If that account needs verifying, we have sent a new link.',
  resetSent: 'If an account exists for that email, we have sent a password reset link.',
  passwordReset: 'Your password has been reset. You can now log in.',
  emailChanged: 'Your email has been changed. Please log in with your new address.',
  emailChangeUndone: 'The email change has been undone and every session signed out. Please log in.',
  emailNowTaken: 'Another account uses this address now, so the change cannot be made.',
} as const;

/** The Postgres unique constraint a failed statement violated, if that is why it failed. */
export function violatedConstraint(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error) || error.code !== '23505') return undefined;
  return 'constraint' in error && typeof error.constraint === 'string' ? error.constraint : '';
}

/**
 * A new agent's INSERT that failed: two at once with the same e-mail or slug (the unique index
 * decides) becomes the sign-up's duplicate answer; anything else is thrown as it came.
 */
export function duplicateFromInsert(error: unknown): Error {
  const constraint = violatedConstraint(error);
  if (constraint === undefined) return error instanceof Error ? error : new Error(String(error));
  return duplicateError(constraint !== 'agents_slug_key', constraint === 'agents_slug_key');
}

export function duplicateError(emailTaken: boolean, slugTaken: boolean): HttpError {
  const fields: Record<string, string> = {};
  if (emailTaken) fields.email = MESSAGES.emailTaken;
  if (slugTaken) fields.slug = MESSAGES.slugTaken;
  return new HttpError(409, emailTaken ? MESSAGES.emailTaken : MESSAGES.slugTaken, fields);
}

/**
 * Said only after the right password (never for a wrong one: no account enumeration), so the agent
 * an admin turned off learns why and whom to ask (newcomer audit minor 25).
 */
export const inactiveMessage = (adminEmail: string | null): string =>
  adminEmail
    ? `This account is inactive: an administrator has turned it off. To use it again, contact the site administrator at ${adminEmail}.`
    : MESSAGES.inactive;
