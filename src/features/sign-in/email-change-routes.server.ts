/** Confirming or undoing a profile e-mail change by its e-mailed link (issue 21, finding 1). */
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { tokenSchema } from '../auth/public/auth-schemas.ts';
import { enforceRateLimits, LIMITS } from '../../platform/rate-limit.server.ts';
import { clearSessionCookie } from '../auth/public/sessions.server.ts';
import { consumeTokenSql, hashToken, tokenError } from '../auth/public/tokens.server.ts';
import { ok, type Declare } from '../../platform/operation.ts';
import { type AuthDeps } from './auth-setup.server.ts';
import { MESSAGES, violatedConstraint } from './public/auth-answers.server.ts';

export const emailChangeOperations = (op: Declare<AuthDeps>) => [
  /**
   * The link sent to the new address of a profile e-mail change (finding 1). One statement: the
   * token used up and, while that address is still the agent's pending one and no other account
   * has it, the address made the agent's e-mail, proved, and every session of the agent ended (the
   * sign-in name changed). One more first for the per-IP limit when the client has an address.
   */
  op({
    method: 'POST',
    path: '/api/auth/confirm-email-change',
    access: 'public',
    summary: "Makes the pending new address the agent's e-mail, with the token e-mailed to it; every session ends",
    tag: 'Accounts',
    json: tokenSchema,
    success: ok('E-mail changed'),
    errors: [409, 429],
    handler: async (c, { db, config, perIp }, input) => {
      const { token } = await input.body();
      await enforceRateLimits(db, perIp(c, LIMITS.verifyPerIp, 'verify'));
      const consume = consumeTokenSql('$1', "'change_email'");
      await changeEmailStatement(
        db,
        `WITH ${consume.cte},
         changed AS (
           UPDATE agents a
              SET email = consumed.email, pending_email = NULL, verified_email = lower(consumed.email),
                  email_verified_at = now(), session_version = a.session_version + 1, updated_at = now()
             FROM consumed
            WHERE a.id = consumed.agent_id AND lower(a.pending_email) = lower(consumed.email)
              AND NOT EXISTS (SELECT 1 FROM agents o WHERE lower(o.email) = lower(consumed.email) AND o.id <> a.id)
           RETURNING a.id
         )
         SELECT (SELECT id FROM changed) AS agent_id, EXISTS (SELECT 1 FROM consumed) AS used,
                ${consume.expired} AS expired`,
        [hashToken(token)],
      );
      clearSessionCookie(c, config);
      return c.json({ success: true, message: MESSAGES.emailChanged });
    },
  }),

  /**
   * The link sent to the old address of a profile e-mail change (finding 1): within a week, the
   * owner of the old address takes the account back. One statement: the token used up, the old
   * address restored (unless another account has taken it since) and proved, the pending change
   * and its link dropped, and every session of the agent ended (whoever made the change is out).
   */
  op({
    method: 'POST',
    path: '/api/auth/undo-email-change',
    access: 'public',
    summary: 'Gives the account its old address back, with the token e-mailed there; every session ends',
    tag: 'Accounts',
    json: tokenSchema,
    success: ok('Change undone'),
    errors: [409, 429],
    handler: async (c, { db, config, perIp }, input) => {
      const { token } = await input.body();
      await enforceRateLimits(db, perIp(c, LIMITS.verifyPerIp, 'verify'));
      const consume = consumeTokenSql('$1', "'undo_email_change'");
      await changeEmailStatement(
        db,
        `WITH ${consume.cte},
         changed AS (
           UPDATE agents a
              SET email = consumed.email, pending_email = NULL, verified_email = lower(consumed.email),
                  session_version = a.session_version + 1, updated_at = now()
             FROM consumed
            WHERE a.id = consumed.agent_id
              AND NOT EXISTS (SELECT 1 FROM agents o WHERE lower(o.email) = lower(consumed.email) AND o.id <> a.id)
           RETURNING a.id
         ),
         dropped AS (
           DELETE FROM auth_tokens t USING changed WHERE t.agent_id = changed.id AND t.purpose = 'change_email'
         )
         SELECT (SELECT id FROM changed) AS agent_id, EXISTS (SELECT 1 FROM consumed) AS used,
                ${consume.expired} AS expired`,
        [hashToken(token)],
      );
      clearSessionCookie(c, config);
      return c.json({ success: true, message: MESSAGES.emailChangeUndone });
    },
  }),
];

/**
 * Runs a confirm or undo statement (columns agent_id, used, expired): an unusable token is the
 * token error; a used token whose address another account has (now) is 409, and the link is spent.
 */
async function changeEmailStatement(db: Db, sql: string, params: unknown[]): Promise<void> {
  let row: { agent_id: number | null; used: boolean; expired: boolean } | undefined;
  try {
    [row] = await db.query<{ agent_id: number | null; used: boolean; expired: boolean }>(sql, params);
  } catch (error) {
    // Two agents confirming one address at once: the unique index decides.
    if (violatedConstraint(error) === 'agents_email_key') throw new HttpError(409, MESSAGES.emailNowTaken);
    throw error;
  }
  if (!row?.used) throw tokenError(row?.expired ?? false);
  if (row.agent_id === null) throw new HttpError(409, MESSAGES.emailNowTaken);
}
