// An agent with many leads for bench-api, and a session cookie of theirs, so the signed-in
// dashboard calls are measured on the data size they must stay fast at.
import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE, signSession, type AuthConfig } from '../../src/features/auth/sessions.server.ts';
import type { Db } from '../../src/server/db.ts';

/** Leads whose last name is SEARCH_NAME: a search that matches a few of many. */
export const SEARCH_NAME = 'Zimmerman';
const SEARCH_EVERY = 2_000;

export const benchAuth = (): { secret: string; config: AuthConfig } => {
  const secret = randomBytes(32).toString('hex');
  return { secret, config: { sessionKey: new TextEncoder().encode(secret), secureCookies: false } };
};

/**
 * A new active agent with `count` leads, one a minute back from now (one statement), and the Cookie
 * header of a session of theirs signed with `auth`.
 */
export async function agentWithLeads(db: Db, auth: AuthConfig, count: number): Promise<{ cookie: string }> {
  const [agent] = await db.query<{ id: number; session_version: number }>(
    `INSERT INTO agents (first_name, last_name, email, slug, status, brokerage, professional_title)
     VALUES ('Bench', 'Agent', 'bench.agent@example.com', 'benchagent', 'active', 'Bench Realty', 'Licensed Associate Broker')
     RETURNING id, session_version`,
  );
  if (!agent) throw new Error('bench: no agent row');
  await db.query(
    `INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, source, consent_marketing, created_at)
     SELECT $1, 'Visitor', CASE WHEN n % $3 = 0 THEN $4 ELSE 'Lead' || n END, 'visitor' || n || '@example.com',
            '516555' || lpad((n % 10000)::text, 4, '0'), n || ' Main Street, Garden City, NY',
            (ARRAY['calculator', 'showcase', 'nassau_county_page', 'suffolk_county_page'])[1 + n % 4], true,
            now() - n * interval '1 minute'
       FROM generate_series(1, $2) AS n`,
    [agent.id, count, SEARCH_EVERY, SEARCH_NAME],
  );
  // As autovacuum leaves a live table: the count can read the index alone.
  await db.exec('VACUUM ANALYZE leads');
  const token = await signSession(auth, { agentId: agent.id, version: agent.session_version });
  return { cookie: `${SESSION_COOKIE}=${token}` };
}
