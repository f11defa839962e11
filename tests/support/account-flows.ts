/**
 * What the account-flow tests (tests/integration/auth-*.test.ts) share: the answers of the account
 * calls as the spec words them (strict shapes: nothing more is answered), and an agent's stored row
 * read by e-mail.
 */
import * as z from 'zod';
import type { AuthSuite } from './auth-suite.ts';

export const sessionAgent = z.strictObject({
  id: z.number().int().positive(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  slug: z.string(),
  brokerage: z.string().nullable(),
  status: z.enum(['active', 'inactive', 'pending']),
  is_admin: z.boolean(),
  professional_title: z.string().nullable(),
});
export const agentResponse = z.strictObject({ success: z.literal(true), agent: sessionAgent });
export const messageResponse = (message: string) =>
  z.strictObject({ success: z.literal(true), message: z.literal(message) });
export const okResponse = z.strictObject({ success: z.literal(true) });
export const verificationRequired = z.strictObject({
  success: z.literal(false),
  error: z.literal('Please verify your email before logging in.'),
  fields: z.strictObject({}),
  requires_verification: z.literal(true),
  email: z.string(),
});

export const SIGNED_UP = 'Account created. Check your email to verify your account.';
export const VERIFIED = 'Your email has been verified. You can now log in.';
export const RESENT = 'If that account needs verifying, we have sent a new link.';
export const RESET_SENT = 'If an account exists for that email, we have sent a password reset link.';
export const PASSWORD_RESET = 'Your password has been reset. You can now log in.';

export interface AgentRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  slug: string;
  brokerage: string | null;
  status: string;
  is_admin: boolean;
  password_hash: string | null;
  email_verified_at: Date | null;
  session_version: number;
}

export async function agentByEmail(suite: AuthSuite, email: string): Promise<AgentRow | undefined> {
  const [row] = await suite.db.query<AgentRow>(
    `SELECT id, first_name, last_name, email, phone, slug, brokerage, status, is_admin, password_hash,
            email_verified_at, session_version
       FROM agents WHERE lower(email) = lower($1)`,
    [email],
  );
  return row;
}
