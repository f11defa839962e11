/** Forgot-password (a reset link) and reset-password. */
import { passwordResetEmail } from './public/auth-emails.ts';
import { emailOnlySchema, resetPasswordSchema } from '../auth/public/auth-schemas.ts';
import { hashPassword } from '../auth/public/passwords.server.ts';
import { enforceRateLimits, LIMITS, rateCheck } from '../../platform/rate-limit.server.ts';
import { clearSessionCookie } from '../auth/public/sessions.server.ts';
import {
  checkToken,
  consumeTokenSql,
  hashToken,
  newToken,
  purposeIn,
  tokenError,
} from '../auth/public/tokens.server.ts';
import { ok, type Declare } from '../../platform/operation.ts';
import { queueTokenEmail, refuseWeakPassword, type AuthDeps } from './auth-setup.server.ts';
import { MESSAGES } from './public/auth-answers.server.ts';

export const passwordOperations = (op: Declare<AuthDeps>) => [
  /** As resend-verification, for a reset link to an active or pending agent. */
  op({
    method: 'POST',
    path: '/api/auth/forgot-password',
    access: 'public',
    summary: 'E-mails a password-reset link',
    tag: 'Accounts',
    json: emailOnlySchema,
    success: ok('Sent, if the address has an account'),
    errors: [429],
    handler: async (c, { db, mail, perIp }, input) => {
      const { email } = await input.body();
      await enforceRateLimits(db, [
        rateCheck(LIMITS.forgotPerEmail, `forgot:email:${email}`),
        ...perIp(c, LIMITS.forgotPerIp, 'forgot'),
      ]);
      const { token, hash } = newToken();
      const message = passwordResetEmail({ token, siteUrl: mail.siteUrl(c.req.raw) });
      const ids = await queueTokenEmail(db, {
        email,
        statuses: ['active', 'pending'],
        purpose: 'reset_password',
        hash,
        ...message,
      });
      mail.deliverSoon(ids, c.req.raw);
      return c.json({ success: true, message: MESSAGES.resetSent });
    },
  }),

  /**
   * Round trips: 1 to check the token (so a dead link costs no scrypt), then 1 statement that uses
   * it up, sets the new hash and raises session_version (every older session ends). The same page
   * takes an admin's invitation: following that link proves the address and activates the pending
   * account the admin made. A password reset never changes the status (finding 5): an admin's
   * pending stands. One more first for the per-IP limit when the client has an address of its own.
   */
  op({
    method: 'POST',
    path: '/api/auth/reset-password',
    access: 'public',
    summary: 'Sets a new password with the e-mailed token; every session ends',
    tag: 'Accounts',
    json: resetPasswordSchema,
    success: ok('Password changed'),
    handler: async (c, { db, config, perIp }, input) => {
      const { token, password } = await input.body();
      await enforceRateLimits(db, perIp(c, LIMITS.resetPerIp, 'reset'));
      const purposes = ['reset_password', 'invitation'] as const;
      refuseWeakPassword(password, await checkToken(db, token, purposes));
      const passwordHash = await hashPassword(password);
      const consume = consumeTokenSql('$1', purposeIn(purposes));
      const [row] = await db.query<{ agent_id: number | null; expired: boolean }>(
        `WITH ${consume.cte},
         updated AS (
           UPDATE agents a
              SET password_hash = $2, session_version = a.session_version + 1,
                  status = CASE WHEN consumed.purpose = 'invitation' AND a.status = 'pending'
                                     AND a.email_verified_at IS NULL THEN 'active' ELSE a.status END,
                  email_verified_at = CASE WHEN consumed.purpose = 'invitation'
                                           THEN coalesce(a.email_verified_at, now()) ELSE a.email_verified_at END,
                  verified_email = lower(a.email), updated_at = now()
             FROM consumed WHERE a.id = consumed.agent_id
           RETURNING a.id
         )
         SELECT (SELECT id FROM updated) AS agent_id, ${consume.expired} AS expired`,
        [hashToken(token), passwordHash],
      );
      if (!row || row.agent_id === null) throw tokenError(row?.expired ?? false);
      clearSessionCookie(c, config);
      return c.json({ success: true, message: MESSAGES.passwordReset });
    },
  }),
];
