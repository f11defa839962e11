/** Sign-up, e-mail verification and resending its link. */
import { verificationEmail } from './public/auth-emails.ts';
import { emailOnlySchema, signupSchema, tokenSchema } from '../auth/public/auth-schemas.ts';
import { hashPassword } from '../auth/public/passwords.server.ts';
import { enforceRateLimits, LIMITS, rateCheck } from '../../platform/rate-limit.server.ts';
import { consumeTokenSql, hashToken, newToken, tokenError } from '../auth/public/tokens.server.ts';
import { created, ok, type Declare } from '../../platform/operation.ts';
import { queueTokenEmail, refuseWeakPassword, type AuthDeps } from './auth-setup.server.ts';
import { duplicateError, duplicateFromInsert, MESSAGES } from './public/auth-answers.server.ts';
import { newAgentCtes, newAgentParams } from './public/new-agent.server.ts';

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
          `WITH ${newAgentCtes(1, 'verify_email')}
           SELECT (SELECT id FROM agent) AS agent_id, (SELECT id FROM queued) AS delivery_id,
                  taken.email_taken, taken.slug_taken
             FROM taken`,
          newAgentParams({ ...body, passwordHash }, { purpose: 'verify_email', tokenHash: hash, message }),
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
