/**
 * What the account calls share: what the composition root gives them (AuthRoutesDeps), with the
 * per-IP counter of this request's client; and the helpers more than one of them uses.
 */
import type { Context } from 'hono';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import type { MailContext } from '../email/public/email.server.ts';
import { type SessionAgent } from '../auth/public/auth-schemas.ts';
import { weakPasswordProblem, type PasswordOwner } from '../auth/public/common-passwords.server.ts';
import { type RateCheck, type RateLimit } from '../../platform/rate-limit.server.ts';
import { type AuthConfig } from '../auth/public/sessions.server.ts';
import { issueTokenCtes, TOKEN_HOURS, type TokenPurpose } from '../auth/public/tokens.server.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';

export interface AuthRoutesDeps {
  db: Db;
  mail: MailContext;
  config: AuthConfig;
  /** The client's IP address as the app resolves it (see AppDeps.clientIp). */
  clientIp: (c: Context) => string;
}

/** The account calls' shared dependencies, made once when the group is first asked for. */
export const authSetup = (deps: AuthRoutesDeps) => ({
  ...deps,
  /** The per-IP counter of `action` for this request's client (perIpCheck). */
  perIp: (c: Context, limit: RateLimit, action: string): RateCheck[] => perIpCheck(deps.clientIp(c), limit, action),
});

export type AuthDeps = ReturnType<typeof authSetup>;

/** A 400 on the password field when the new password is one attackers try first (decision 0047). */
export function refuseWeakPassword(password: string, owner: PasswordOwner): void {
  const problem = weakPasswordProblem(password, owner);
  if (problem) throw new HttpError(400, problem, { password: problem });
}

/**
 * One statement: when `email` names an agent in one of `statuses`, replaces their tokens of
 * `purpose` with the one hashed `hash` and queues the message (its kind is the purpose); answers
 * the delivery ids (none when there is no such agent).
 */
export async function queueTokenEmail(
  db: Db,
  {
    email,
    statuses,
    neverVerified = false,
    purpose,
    hash,
    subject,
    html,
    text,
  }: {
    email: string;
    statuses: readonly SessionAgent['status'][];
    /** Only an agent who has never verified their address. */
    neverVerified?: boolean;
    purpose: TokenPurpose;
    hash: string;
    subject: string;
    html: string;
    text: string;
  },
): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `WITH agent AS (
       SELECT id, email, first_name, last_name FROM agents
        WHERE lower(email) = $1 AND status = ANY ($2::text[]) AND (NOT $9::boolean OR email_verified_at IS NULL)
     )${issueTokenCtes('agent', '$3', '$4::text', '$5')},
     queued AS (
       INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text)
       SELECT $4, agent.email, agent.first_name || ' ' || agent.last_name, $6, $7, $8 FROM agent
       RETURNING id
     )
     SELECT id FROM queued`,
    [email, statuses, hash, purpose, TOKEN_HOURS[purpose], subject, html, text, neverVerified],
  );
  return rows.map((row) => row.id);
}
