// An agent with many leads for bench-api and bench-load, and a session cookie of theirs, so the signed-in
// dashboard calls are measured on the data size they must stay fast at.
import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE, signSession, type AuthConfig } from '../../src/features/auth/public/sessions.server.ts';
import type { Db } from '../../src/platform/db.ts';

/** Leads whose last name is SEARCH_NAME: a search that matches a few of many. */
export const SEARCH_NAME = 'Zimmerman';
const SEARCH_EVERY = 2_000;

export const benchAuth = (): { secret: string; config: AuthConfig } => {
  const secret = randomBytes(32).toString('hex');
  return { secret, config: { sessionKey: new TextEncoder().encode(secret), secureCookies: false } };
};

/** Agents with as many leads each, so the table looks like a site's with many agents to the planner. */
const AGENTS = 10;

/**
 * AGENTS new active agents with `count` leads and `count` estimates each, one a minute back from now, and the Cookie
 * headers of a session of the first (`cookie`, with its `slug`) and of the second, made an admin (`adminCookie`:
 * every agent's leads, AGENTS × `count`), signed with `auth`.
 */
export async function agentWithLeads(
  db: Db,
  auth: AuthConfig,
  count: number,
): Promise<{ cookie: string; adminCookie: string; slug: string }> {
  const [agent, admin] = await db.query<{ id: number; session_version: number; slug: string }>(
    `WITH made AS (
       INSERT INTO agents (first_name, last_name, email, slug, status, brokerage, professional_title)
       SELECT 'Bench', 'Agent', 'bench.agent' || a || '@example.com', 'benchagent' || a, 'active', 'Bench Realty',
              'Licensed Associate Broker'
         FROM generate_series(1, $1) AS a
       RETURNING id, session_version, slug
     )
     SELECT id, session_version, slug FROM made ORDER BY id LIMIT 2`,
    [AGENTS],
  );
  if (!agent || !admin) throw new Error('bench: no agent rows');
  await db.query('UPDATE agents SET is_admin = true WHERE id = $1', [admin.id]);
  await db.query(
    `INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, source, consent_marketing, created_at)
     SELECT a.id, 'Visitor', CASE WHEN n % $2 = 0 THEN $3 ELSE 'Lead' || n END, 'visitor' || n || '@example.com',
            '516555' || lpad((n % 10000)::text, 4, '0'), n || ' Main Street, Garden City, NY',
            (ARRAY['calculator', 'showcase', 'nassau_county_page', 'suffolk_county_page'])[1 + n % 4], true,
            now() - n * interval '1 minute'
       FROM agents a CROSS JOIN generate_series(1, $1) AS n
      WHERE a.slug LIKE 'benchagent%'`,
    [count, SEARCH_EVERY, SEARCH_NAME],
  );
  // As many estimates, one a minute back: the overview reads them (and the activity the newest).
  await db.query(
    `INSERT INTO estimates (agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                           transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, created_at)
     SELECT a.id, 65000000 + n * 100, 30000000, 6, 4, 75000, 17500, now() - n * interval '1 minute'
       FROM agents a CROSS JOIN generate_series(1, $1) AS n
      WHERE a.slug LIKE 'benchagent%'`,
    [count],
  );
  // As autovacuum leaves a live table.
  // One statement each: VACUUM cannot run inside the transaction a multi-statement string is.
  for (const table of ['leads', 'estimates', 'agent_daily_counts']) await db.exec(`VACUUM ANALYZE ${table}`);
  const cookieOf = async (who: { id: number; session_version: number }) =>
    `${SESSION_COOKIE}=${await signSession(auth, { agentId: who.id, version: who.session_version })}`;
  return { cookie: await cookieOf(agent), adminCookie: await cookieOf(admin), slug: agent.slug };
}
