/**
 * The account calls of the specification (section 7, Auth): sign-up, e-mail verification, login,
 * resend-verification, forgot and reset password, the current agent, logout and logout-everywhere;
 * and confirming or undoing a profile e-mail change by its e-mailed link (issue 21, finding 1).
 *
 * Every write and the e-mail it causes are one statement (so both happen or neither does); the
 * e-mail is delivered after the response. No response or log line carries a password, a hash or a
 * token. Forgot-password and resend-verification answer the same whether or not the account exists.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Db } from '../../server/db.ts';
import { HttpError } from '../../server/http.ts';
import { apiGroup, created, ok } from '../../server/operation.ts';
import type { MailContext } from '../email/email.server.ts';
import { SYSTEM_DEFAULTS } from '../estimate/estimate.ts';
import { passwordResetEmail, verificationEmail } from './auth-emails.ts';
import { clientKey } from './client-key.server.ts';
import {
  emailOnlySchema,
  loginSchema,
  resetPasswordSchema,
  signupSchema,
  tokenSchema,
  type SessionAgent,
} from './auth-schemas.ts';
import { weakPasswordProblem, type PasswordOwner } from './common-passwords.server.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.server.ts';
import { enforceRateLimits, LIMITS, rateCheck, type RateCheck, type RateLimit } from './rate-limit.server.ts';
import {
  clearSessionCookie,
  currentAgent,
  currentSessionCondition,
  PLEASE_LOG_IN,
  readSession,
  readSessionExpiry,
  SESSION_AGENT_COLUMNS,
  SESSION_COOKIE,
  sessionParams,
  setSessionCookie,
  signSession,
  type AuthConfig,
} from './sessions.server.ts';
import {
  checkToken,
  consumeTokenSql,
  hashToken,
  issueTokenCtes,
  newToken,
  purposeIn,
  TOKEN_HOURS,
  tokenError,
  type TokenPurpose,
} from './tokens.server.ts';

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

export interface AuthRoutesDeps {
  db: Db;
  mail: MailContext;
  config: AuthConfig;
  /** The client's IP address as the app resolves it (see AppDeps.clientIp). */
  clientIp: (c: Context) => string;
}

/**
 * A client on this machine: a loopback address, or no address at all (the app served in-process
 * without a socket, as the local site server does). Per-IP limits would put every such client (the
 * developer, the e2e browser, a local proxy) in one bucket, so only the per-e-mail limits apply to
 * them. On Netlify every request has its client's address (AppDeps.clientIp).
 */
export const isLocalClient = (ip: string): boolean => ip === 'unknown' || ip === '::1' || /^(::ffff:)?127\./.test(ip);

/**
 * The per-IP counter of `action`, none for a client on this machine (see isLocalClient). An IPv6
 * client is counted by its /64 (clientKey).
 */
export const perIpCheck = (ip: string, limit: RateLimit, action: string): RateCheck[] =>
  isLocalClient(ip) ? [] : [rateCheck(limit, `${action}:ip:${clientKey(ip)}`)];

/**
 * The login counter of one account from one client (finding 7): a stranger's guesses slow down only
 * the stranger, so the owner still logs in from their own address. Clients on this machine share
 * one counter per account (they have no address of their own to tell them apart).
 */
export const loginAccountClientCheck = (email: string, ip: string): RateCheck =>
  rateCheck(LIMITS.loginPerAccountClient, `login:email-client:${email}:${isLocalClient(ip) ? 'local' : ip}`);

/** The Postgres unique constraint a failed statement violated, if that is why it failed. */
function violatedConstraint(error: unknown): string | undefined {
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

interface SignupRow {
  agent_id: number | null;
  delivery_id: number | null;
  email_taken: boolean;
  slug_taken: boolean;
}

interface LoginRow extends SessionAgent {
  password_hash: string | null;
  session_version: number;
  admin_email: string | null;
}

/**
 * Said only after the right password (never for a wrong one: no account enumeration), so the agent
 * an admin turned off learns why and whom to ask (newcomer audit minor 25).
 */
export const inactiveMessage = (adminEmail: string | null): string =>
  adminEmail
    ? `This account is inactive: an administrator has turned it off. To use it again, contact the site administrator at ${adminEmail}.`
    : MESSAGES.inactive;

/** A 400 on the password field when the new password is one attackers try first (decision 0047). */
function refuseWeakPassword(password: string, owner: PasswordOwner): void {
  const problem = weakPasswordProblem(password, owner);
  if (problem) throw new HttpError(400, problem, { password: problem });
}

/** The account calls (see above), from what the composition root gives them. */
export const authApi = apiGroup(
  (deps: AuthRoutesDeps) => ({
    ...deps,
    /** The per-IP counter of `action` for this request's client (perIpCheck). */
    perIp: (c: Context, limit: RateLimit, action: string): RateCheck[] => perIpCheck(deps.clientIp(c), limit, action),
  }),
  (op) => [
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
     * Round trips: 1 rate limit (per account and client, and per IP), 1 lookup, and on success 1 write
     * (the time of the sign-in, and the upgraded hash when the stored one is due). Exactly one scrypt runs whether or not the account exists.
     */
    op({
      method: 'POST',
      path: '/api/auth/login',
      access: 'public',
      summary: 'Signs in: sets the session cookie',
      tag: 'Accounts',
      json: loginSchema,
      success: ok('Signed in'),
      errors: [401, 429],
      handler: async (c, { db, config, clientIp, perIp }, input) => {
        const { email, password } = await input.body();
        await enforceRateLimits(db, [
          loginAccountClientCheck(email, clientIp(c)),
          ...perIp(c, LIMITS.loginPerIp, 'login'),
        ]);
        const [agent] = await db.query<LoginRow>(
          // The first active admin's address rides along (read only for an inactive account's message).
          `SELECT ${SESSION_AGENT_COLUMNS}, password_hash, session_version,
                (SELECT a.email FROM agents a WHERE a.is_admin AND a.status = 'active' ORDER BY a.id LIMIT 1) AS admin_email
           FROM agents WHERE lower(email) = $1`,
          [email],
        );
        const matches = await verifyPassword(password, agent?.password_hash);
        if (!agent || !matches) throw new HttpError(401, MESSAGES.badLogin);
        const { password_hash: storedHash, session_version, admin_email: adminEmail, ...shown } = agent;
        if (shown.status === 'pending') {
          return c.json(
            {
              success: false,
              error: MESSAGES.verifyFirst,
              fields: {},
              requires_verification: true,
              email: shown.email,
            },
            403,
          );
        }
        if (shown.status !== 'active') throw new HttpError(403, inactiveMessage(adminEmail));
        // One write records the sign-in (the admin's agents table shows it) and carries a hash upgrade.
        const upgraded = storedHash !== null && needsRehash(storedHash) ? await hashPassword(password) : null;
        await db.query(
          `UPDATE agents SET last_sign_in_at = now(),
                password_hash = CASE WHEN $2::text IS NOT NULL AND password_hash = $3 THEN $2 ELSE password_hash END
          WHERE id = $1`,
          [shown.id, upgraded, storedHash],
        );
        setSessionCookie(c, config, await signSession(config, { agentId: shown.id, version: session_version }));
        return c.json({ success: true, agent: shown });
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

    /**
     * Ends this browser's session on the server (finding 6): its id goes to ended_sessions until the
     * token would have expired, so the token no longer works even if it was copied; the agent's other
     * sessions stay. One round trip with a session cookie we signed (none without), which also drops
     * ended sessions past their expiry. Answers success also without a session.
     */
    op({
      method: 'POST',
      path: '/api/auth/logout',
      access: 'public',
      summary: "Ends this browser's session on the server (the agent's other sessions stay)",
      tag: 'Accounts',
      success: ok('Signed out'),
      handler: async (c, { db, config }) => {
        const cookie = getCookie(c, SESSION_COOKIE);
        const ending = cookie ? await readSessionExpiry(config, cookie) : undefined;
        if (ending) {
          await db.query(
            `WITH expired AS (DELETE FROM ended_sessions WHERE expires_at < now())
           INSERT INTO ended_sessions (jti, expires_at) VALUES ($1, to_timestamp($2))
           ON CONFLICT (jti) DO NOTHING`,
            [ending.claims.sessionId, ending.exp],
          );
        }
        clearSessionCookie(c, config);
        return c.json({ success: true });
      },
    }),

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

    /** One round trip: the session's agent, or 401 "Please log in". */
    op({
      method: 'GET',
      path: '/api/auth/me',
      access: 'agent',
      summary: 'The signed-in agent',
      tag: 'Accounts',
      success: ok('The agent'),
      handler: async (c, { db, config }) => c.json({ success: true, agent: await currentAgent(c, db, config) }),
    }),

    /** One round trip: raises session_version, so every session of the agent (this one too) ends. */
    op({
      method: 'POST',
      path: '/api/auth/logout-everywhere',
      access: 'agent',
      summary: "Ends every session of the agent's",
      tag: 'Accounts',
      success: ok('Signed out everywhere'),
      handler: async (c, { db, config }) => {
        const cookie = getCookie(c, SESSION_COOKIE);
        const claims = cookie ? await readSession(config, cookie) : undefined;
        if (!claims) throw new HttpError(401, PLEASE_LOG_IN);
        const rows = await db.query<{ id: number }>(
          `UPDATE agents SET session_version = session_version + 1, updated_at = now()
          WHERE ${currentSessionCondition(1)}
          RETURNING id`,
          sessionParams(claims),
        );
        if (rows.length === 0) throw new HttpError(401, PLEASE_LOG_IN);
        clearSessionCookie(c, config);
        return c.json({ success: true });
      },
    }),
  ],
);

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

/**
 * One statement: when `email` names an agent in one of `statuses`, replaces their tokens of
 * `purpose` with the one hashed `hash` and queues the message (its kind is the purpose); answers
 * the delivery ids (none when there is no such agent).
 */
async function queueTokenEmail(
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
