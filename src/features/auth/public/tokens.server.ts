/**
 * Single-use tokens of e-mailed links: 32 random bytes (base64url, 43 characters) sent to the agent,
 * only their SHA-256 (hex) stored in auth_tokens with a purpose and an expiry. Issuing a token
 * deletes the agent's older ones of the same purpose, so only the newest link works; consuming one
 * is a single UPDATE … WHERE used_at IS NULL AND expires_at > now(), so two requests with the same
 * link cannot both succeed.
 *
 * The SQL here is written as fragments so a route can issue or consume a token in the same
 * statement as the write it belongs to (the new agent, the verified e-mail, the new password).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../../platform/db.ts';
import { HttpError } from '../../../platform/http.ts';
import {
  CHANGE_EMAIL_HOURS,
  INVITATION_HOURS,
  RESET_PASSWORD_HOURS,
  UNDO_EMAIL_CHANGE_HOURS,
  VERIFY_EMAIL_HOURS,
} from './token-hours.ts';

/**
 * What a link is for. change_email and undo_email_change tokens also carry the address they were
 * sent to (auth_tokens.email): the new address to confirm, the old address to restore.
 */
export type TokenPurpose = 'verify_email' | 'reset_password' | 'invitation' | 'change_email' | 'undo_email_change';

export const TOKEN_HOURS: Record<TokenPurpose, number> = {
  verify_email: VERIFY_EMAIL_HOURS,
  reset_password: RESET_PASSWORD_HOURS,
  invitation: INVITATION_HOURS,
  change_email: CHANGE_EMAIL_HOURS,
  undo_email_change: UNDO_EMAIL_CHANGE_HOURS,
};

/** The SQL for "one of `purposes`" (literals of the closed TokenPurpose set, so safe to inline). */
export const purposeIn = (purposes: readonly TokenPurpose[]): string =>
  `ANY (ARRAY[${purposes.map((purpose) => `'${purpose}'`).join(', ')}]::text[])`;

export const TOKEN_EXPIRED = 'Token expired';
export const TOKEN_INVALID = 'This link is invalid or has already been used.';

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new token and the hash to store. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/**
 * CTEs (to follow other CTEs, each line starting with a comma) that replace the tokens of `purpose`
 * of the agent in CTE `agentCte` (column `id`) with a new one: `$hash`, `$purpose` and `$hours` are
 * the parameter placeholders to use. Nothing is written when `agentCte` is empty. Options: `email`,
 * an SQL expression (over `agentCte`) for the address the token is bound to; `name`, a prefix for
 * the CTEs' names, to issue two tokens in one statement; `keepOlder`, to add the token without
 * deleting the older ones (an undo link must not be cancelled by a later change).
 */
export function issueTokenCtes(
  agentCte: string,
  hash: string,
  purpose: string,
  hours: string,
  { email = 'NULL', name = '', keepOlder = false }: { email?: string; name?: string; keepOlder?: boolean } = {},
): string {
  const superseded = keepOlder
    ? ''
    : `,
     ${name}superseded AS (
       DELETE FROM auth_tokens t USING ${agentCte} WHERE t.agent_id = ${agentCte}.id AND t.purpose = ${purpose}
     )`;
  return `${superseded},
     ${name}issued AS (
       INSERT INTO auth_tokens (token_hash, agent_id, purpose, expires_at, email)
       SELECT ${hash}, ${agentCte}.id, ${purpose}, now() + make_interval(hours => ${hours}::integer), ${email}
         FROM ${agentCte}
       RETURNING agent_id
     )`;
}

/**
 * The CTE `consumed` (columns agent_id, purpose, email) that uses up the token with hash `$hash` of
 * purpose `$purpose` (an SQL expression: a placeholder, a literal or purposeIn) when it is unused
 * and unexpired, and the expression `token_expired` that tells, when it did not, whether the token
 * exists but has expired.
 */
export function consumeTokenSql(hash: string, purpose: string): { cte: string; expired: string } {
  return {
    cte: `consumed AS (
       UPDATE auth_tokens SET used_at = now()
        WHERE token_hash = ${hash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
        RETURNING agent_id, purpose, email
     )`,
    expired: `coalesce((SELECT used_at IS NULL AND expires_at <= now() FROM auth_tokens
                         WHERE token_hash = ${hash} AND purpose = ${purpose}), false)`,
  };
}

/** The error for a token that could not be used: "Token expired" or invalid / already used. */
export const tokenError = (expired: boolean): HttpError =>
  new HttpError(400, expired ? TOKEN_EXPIRED : TOKEN_INVALID, { token: expired ? TOKEN_EXPIRED : TOKEN_INVALID });

/** One round trip, nothing written: throws tokenError unless the token could be used now. */
export async function checkToken(
  q: Queryable,
  token: string,
  purposes: readonly TokenPurpose[],
): Promise<TokenAccount> {
  // The account's own words come along: a new password must not be made of them (decision 0047).
  const [row] = await q.query<{ usable: boolean; expired: boolean } & TokenAccount>(
    `SELECT t.used_at IS NULL AND t.expires_at > now() AS usable,
            t.used_at IS NULL AND t.expires_at <= now() AS expired,
            a.email, a.first_name, a.last_name, a.slug
       FROM auth_tokens t JOIN agents a ON a.id = t.agent_id
      WHERE t.token_hash = $1 AND t.purpose = ANY ($2::text[])`,
    [hashToken(token), purposes],
  );
  if (!row?.usable) throw tokenError(row?.expired ?? false);
  return { email: row.email, first_name: row.first_name, last_name: row.last_name, slug: row.slug };
}

/** The account a usable token belongs to, as far as choosing a password needs it. */
export interface TokenAccount {
  email: string;
  first_name: string;
  last_name: string;
  slug: string;
}

/** Issues a token of `purpose` for an agent (replacing older ones) in one statement; answers the token. */
export async function issueToken(q: Queryable, agentId: number, purpose: TokenPurpose): Promise<string> {
  const { token, hash } = newToken();
  await q.query(
    `WITH agent AS (SELECT $1::integer AS id)${issueTokenCtes('agent', '$2', '$3', '$4')}
     SELECT count(*) FROM issued`,
    [agentId, hash, purpose, TOKEN_HOURS[purpose]],
  );
  return token;
}
