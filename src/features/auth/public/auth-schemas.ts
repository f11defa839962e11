import * as z from 'zod/mini';
import { personName } from '../../forms/public/person-name.ts';
import { withoutLinks } from '../../forms/public/text-fields.ts';

/**
 * The account forms' rules with the specification's messages, shared by the pages (which check
 * before sending) and the API (which checks again). Server-only code lives in *.server.ts.
 */

/** Passwords are bounded before hashing so a huge body cannot make scrypt the attack. */
export const MAX_PASSWORD_LENGTH = 128;

/**
 * The shortest NEW password (sign-up, reset, an invitation's first): NIST SP 800-63B-4's minimum for
 * a password that is the only factor, as ours is (decision 0047). Signing in takes any length, so an
 * account made under the old minimum of 6 still signs in.
 */
export const MIN_NEW_PASSWORD_LENGTH = 15;

/** Characters as NIST counts them: one per Unicode code point (an emoji is one, not two). */
export const passwordLength = (password: string): number => [...password].length;

/** A new password's rules; the two forms keep the spec's own message shapes. */
const newPassword = (requiredMessage: string, tooShortMessage: string) =>
  z.string({ error: requiredMessage }).check(
    z.minLength(1, requiredMessage),
    z.refine((value) => passwordLength(value) >= MIN_NEW_PASSWORD_LENGTH, tooShortMessage),
    z.maxLength(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
  );

export const emailSchema = (requiredMessage: string) =>
  z.pipe(
    z
      .string({ error: requiredMessage })
      .check(z.trim(), z.toLowerCase(), z.minLength(1, requiredMessage), z.maxLength(254, 'Email is invalid')),
    z.email('Email is invalid'),
  );

// Printed in the agent's estimate e-mails to typed addresses: the one name rule (forms/person-name.ts).
const name = (label: string) => personName(label, 100);

/** Lowercase letters and digits, suggested from the agent's names. */
export const suggestSlug = (firstName: string, lastName: string): string =>
  `${firstName}${lastName}`.toLowerCase().replace(/[^a-z0-9]/g, '');

export const signupSchema = z.object({
  first_name: name('First name'),
  last_name: name('Last name'),
  email: emailSchema('Email is required'),
  phone: z.pipe(
    z.nullish(
      z.string({ error: 'Phone must be text' }).check(
        z.trim(),
        z.maxLength(30, 'Phone must be at most 30 characters'),
        z.refine((value) => value === '' || /^1?\d{10}$/.test(value.replace(/\D/g, '')), 'Phone number is invalid'),
      ),
    ),
    z.transform((value) => (value ? value : null)),
  ),
  password: newPassword('Password is required', `Password must be at least ${MIN_NEW_PASSWORD_LENGTH} characters`),
  // Named as the forms label the field (newcomer audit minor 27): "Calculator address", the /r/{slug} page.
  slug: z
    .string({ error: 'Calculator address is required' })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, 'Calculator address is required'),
      z.maxLength(64, 'Calculator address must be at most 64 characters'),
      z.regex(/^[a-z0-9]+$/, 'Calculator address can only contain lowercase letters and numbers'),
    ),
  brokerage: z.pipe(
    z.nullish(
      z
        .string({ error: 'Brokerage must be text' })
        .check(z.trim(), z.maxLength(200, 'Brokerage must be at most 200 characters'), withoutLinks('Brokerage')),
    ),
    z.transform((value) => (value ? value : null)),
  ),
  // Sent by the old form; never trusted (admins are made by `npm run admin:grant`).
  is_admin: z.optional(z.unknown()),
});

export const loginSchema = z.object({
  email: emailSchema('Email is required'),
  password: z
    .string({ error: 'Password is required' })
    .check(z.minLength(1, 'Password is required'), z.maxLength(MAX_PASSWORD_LENGTH, 'Invalid email or password')),
});

export const emailOnlySchema = z.object({ email: emailSchema('Please enter your email address') });

/** Tokens from e-mailed links: 32 random bytes, base64url. */
export const tokenSchema = z.object({
  token: z.string({ error: 'Invalid link' }).check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid link')),
});

export const resetPasswordSchema = z.extend(tokenSchema, {
  password: newPassword(
    'Please fill in all fields',
    `Password must be at least ${MIN_NEW_PASSWORD_LENGTH} characters long`,
  ),
});

/** The agent as the API shows it to the agent: never a password hash, token or secret. */
export const sessionAgentSchema = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  slug: z.string(),
  brokerage: z.nullable(z.string()),
  status: z.enum(['active', 'inactive', 'pending']),
  is_admin: z.boolean(),
  professional_title: z.nullable(z.string()),
});

export type SessionAgent = z.infer<typeof sessionAgentSchema>;
