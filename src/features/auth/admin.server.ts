/**
 * Making agents administrators: `npm run admin:grant -- email@example.com` and the ADMIN_EMAILS list
 * applied by `npm run db:seed` (every `npm start` and every build).
 *
 * Admin goes only to an agent who has PROVED the listed address: verified (email_verified_at) and
 * that address is the one they proved by a link sent to it (verified_email). An unconfirmed e-mail
 * change cannot make anyone an admin (issue 21, finding 1). Each grant is recorded in admin_grants;
 * the seed grants an address of ADMIN_EMAILS only once, so an admin whom an admin later demoted is
 * not made one again by the next build. `admin:grant` is an operator's deliberate act: it grants
 * (and records) again. Nothing is ever revoked here.
 */
import type { Queryable } from '../../platform/db.ts';

export interface GrantResult {
  /** The e-mails (lower-cased) of the agents made admins now. */
  granted: string[];
  /** The e-mails no agent has proved (no agent has them, or theirs is not verified yet). */
  missing: string[];
  /** The e-mails granted by an earlier seed, left as they are (the agent may have been demoted since). */
  alreadyGranted: string[];
}

const cleanEmails = (emails: readonly string[]): string[] => [
  ...new Set(emails.map((email) => email.trim().toLowerCase()).filter((email) => email !== '')),
];

/** The agents who proved one of the addresses: SQL over `$1::text[]`. */
const PROVEN_AGENTS = `SELECT id, lower(email) AS email FROM agents
   WHERE lower(email) = ANY ($1::text[]) AND email_verified_at IS NOT NULL AND verified_email = lower(email)`;

/**
 * One statement: is_admin for every agent who proved an address of `emails` (any case) and a grant
 * recorded for it. With `once` (the seed), an address granted before is skipped.
 */
export async function grantAdmin(
  q: Queryable,
  emails: readonly string[],
  { once = false }: { once?: boolean } = {},
): Promise<GrantResult> {
  const wanted = cleanEmails(emails);
  if (wanted.length === 0) return { granted: [], missing: [], alreadyGranted: [] };
  const [row] = await q.query<{ granted: string[]; earlier: string[] }>(
    `WITH earlier AS (
       SELECT email FROM admin_grants WHERE email = ANY ($1::text[]) AND $2::boolean
     ),
     proven AS (${PROVEN_AGENTS} AND lower(email) NOT IN (SELECT email FROM earlier)),
     made AS (
       UPDATE agents a SET is_admin = true, updated_at = CASE WHEN a.is_admin THEN a.updated_at ELSE now() END
         FROM proven WHERE a.id = proven.id
       RETURNING proven.id, proven.email
     ),
     recorded AS (
       INSERT INTO admin_grants (email, agent_id) SELECT email, id FROM made
       ON CONFLICT (email) DO UPDATE SET agent_id = excluded.agent_id, granted_at = now()
     )
     SELECT coalesce((SELECT array_agg(email) FROM made), '{}') AS granted,
            coalesce((SELECT array_agg(email) FROM earlier), '{}') AS earlier`,
    [wanted, once],
  );
  const granted = new Set(row?.granted ?? []);
  const earlier = new Set(row?.earlier ?? []);
  return {
    granted: wanted.filter((email) => granted.has(email)),
    missing: wanted.filter((email) => !granted.has(email) && !earlier.has(email)),
    alreadyGranted: wanted.filter((email) => earlier.has(email)),
  };
}
