/** Login, the current agent, logout and logout-everywhere. */
import { getCookie } from 'hono/cookie';
import { HttpError } from '../../platform/http.ts';
import { loginSchema, type SessionAgent } from '../auth/public/auth-schemas.ts';
import { hashPassword, needsRehash, verifyPassword } from '../auth/public/passwords.server.ts';
import { enforceRateLimits, LIMITS } from '../../platform/rate-limit.server.ts';
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
} from '../auth/public/sessions.server.ts';
import { ok, type Declare } from '../../platform/operation.ts';
import { type AuthDeps } from './auth-setup.server.ts';
import { inactiveMessage, MESSAGES } from './public/auth-answers.server.ts';
import { loginAccountClientCheck } from '../../platform/per-ip.server.ts';

interface LoginRow extends SessionAgent {
  password_hash: string | null;
  session_version: number;
  admin_email: string | null;
}

export const sessionOperations = (op: Declare<AuthDeps>) => [
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
];
