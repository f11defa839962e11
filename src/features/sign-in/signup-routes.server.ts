/** Sign-up, e-mail verification and resending its link. */
import { SYSTEM_DEFAULTS } from '../net-sheet/estimate.ts';
import { verificationEmail } from './auth-emails.ts';
import { emailOnlySchema, signupSchema, tokenSchema } from '../auth/auth-schemas.ts';
import { hashPassword } from '../auth/passwords.server.ts';
import { enforceRateLimits, LIMITS, rateCheck } from '../../platform/rate-limit.server.ts';
import {
  consumeTokenSql,
  hashToken,
  issueTokenCtes,
  newToken,
  TOKEN_HOURS,
  tokenError,
} from '../auth/tokens.server.ts';
import { created, ok, type Declare } from '../../platform/operation.ts';
import { queueTokenEmail, refuseWeakPassword, type AuthDeps } from './auth-setup.server.ts';
import { duplicateError, duplicateFromInsert, MESSAGES } from './auth-answers.server.ts';

interface SignupRow {
  agent_id: number | null;
  delivery_id: number | null;
  email_taken: boolean;
  slug_taken: boolean;
}

export const signupOperations = (op: Declare<AuthDeps>) => [
  /**
   * Round trips: 1 rate limit, 1 statement that writes the agent, their settings row, the
   * verification token and the queued e-mail, or (taken e-mail or slug) nothing.
   */
  op({
    method: 'POST',
    path: '/api/auth/signup',
    access: 'public',
    summary: "An agent's new account; a verification e-mail follows",
    tag: 'Accounts',
    json: signupSchema,
    success: created('Signed up'),
    errors: [409, 429],
    handler: async (c, { db, mail, perIp }, input) => {
      const body = await input.body();
      await enforceRateLimits(db, perIp(c, LIMITS.signupPerIp, 'signup'));
      refuseWeakPassword(body.password, body);
      const passwordHash = await hashPassword(body.password);
      const { token, hash } = newToken();
      const message = verificationEmail({ token, siteUrl: mail.siteUrl(c.req.raw), firstName: body.first_name });
      let row: SignupRow | undefined;
      try {
        [row] = await db.query<SignupRow>(
          `WITH taken AS (
             SELECT coalesce(bool_or(lower(email) = $3), false) AS email_taken,
                    coalesce(bool_or(slug = $6), false) AS slug_taken
               FROM agents WHERE lower(email) = $3 OR slug = $6
           ),
           agent AS (
             INSERT INTO agents (first_name, last_name, email, phone, password_hash, slug, brokerage, status, is_admin)
             SELECT $1, $2, $3, $4, $5, $6, $7, 'pending', false FROM taken
              WHERE NOT (taken.email_taken OR taken.slug_taken)
             RETURNING id
           ),
           settings AS (
             INSERT INTO agent_settings (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                         transfer_tax_rate_per_1000, default_commission_percent)
             SELECT id, $14, $15, $16, $17 FROM agent
           )${issueTokenCtes('agent', '$8', "'verify_email'", '$9')},
           queued AS (
             INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text)
             SELECT 'verify_email', $3, $10, $11, $12, $13 FROM agent
             RETURNING id
           )
           SELECT (SELECT id FROM agent) AS agent_id, (SELECT id FROM queued) AS delivery_id,
                  taken.email_taken, taken.slug_taken
             FROM taken`,
          [
            body.first_name,
            body.last_name,
            body.email,
            body.phone,
            passwordHash,
            body.slug,
            body.brokerage,
            hash,
            TOKEN_HOURS.verify_email,
            `${body.first_name} ${body.last_name}`,
            message.subject,
            message.html,
            message.text,
            SYSTEM_DEFAULTS.attorneyFeeCents,
            SYSTEM_DEFAULTS.recordingFeeCents,
            SYSTEM_DEFAULTS.transferTaxRatePer1000,
            SYSTEM_DEFAULTS.commissionPercent,
          ],
        );
      } catch (error) {
        throw duplicateFromInsert(error);
      }
      if (!row) throw new Error('signup: the statement returned no row');
      if (row.agent_id === null) throw duplicateError(row.email_taken, row.slug_taken);
      if (row.delivery_id !== null) mail.deliverSoon([row.delivery_id], c.req.raw);
      return c.json({ success: true, message: MESSAGES.signedUp }, 201);
    },
  }),

  /**
   * One round trip: the token used up and the agent verified (and activated if pending and never
   * verified before) together; one more first for the per-IP limit when the client has an address
   * of its own.
   */
  op({
    method: 'POST',
    path: '/api/auth/verify-email',
    access: 'public',
    summary: "Confirms an agent's address with the e-mailed token",
    tag: 'Accounts',
    json: tokenSchema,
    success: ok('Verified'),
    handler: async (c, { db, perIp }, input) => {
      const { token } = await input.body();
      await enforceRateLimits(db, perIp(c, LIMITS.verifyPerIp, 'verify'));
      const consume = consumeTokenSql('$1', "'verify_email'");
      // Only an account never verified verifies itself into active: a pending status set by an
      // admin on a verified account stands until an admin changes it (finding 5).
      const [row] = await db.query<{ agent_id: number | null; expired: boolean }>(
        `WITH ${consume.cte},
         verified AS (
           UPDATE agents a
              SET status = CASE WHEN a.status = 'pending' AND a.email_verified_at IS NULL THEN 'active'
                                ELSE a.status END,
                  email_verified_at = coalesce(a.email_verified_at, now()), verified_email = lower(a.email),
                  updated_at = now()
             FROM consumed WHERE a.id = consumed.agent_id
           RETURNING a.id
         )
         SELECT (SELECT id FROM verified) AS agent_id, ${consume.expired} AS expired`,
        [hashToken(token)],
      );
      if (!row || row.agent_id === null) throw tokenError(row?.expired ?? false);
      return c.json({ success: true, message: MESSAGES.verified });
    },
  }),

  /**
   * Round trips: 1 rate limit, 1 statement that issues a token and queues the e-mail only when the
   * e-mail names a pending agent who has never verified (an admin's pending on a verified account is
   * not the agent's to undo). The answer is the same either way.
   */
  op({
    method: 'POST',
    path: '/api/auth/resend-verification',
    access: 'public',
    summary: 'Sends the verification e-mail again',
    tag: 'Accounts',
    json: emailOnlySchema,
    success: ok('Sent, if the address has an unverified account'),
    errors: [429],
    handler: async (c, { db, mail, perIp }, input) => {
      const { email } = await input.body();
      await enforceRateLimits(db, [
        rateCheck(LIMITS.resendPerEmail, `resend:email:${email}`),
        ...perIp(c, LIMITS.resendPerIp, 'resend'),
      ]);
      const { token, hash } = newToken();
      const message = verificationEmail({ token, siteUrl: mail.siteUrl(c.req.raw) });
      const ids = await queueTokenEmail(db, {
        email,
        statuses: ['pending'],
        neverVerified: true,
        purpose: 'verify_email',
        hash,
        ...message,
      });
      mail.deliverSoon(ids, c.req.raw);
      return c.json({ success: true, message: MESSAGES.resent });
    },
  }),
];
