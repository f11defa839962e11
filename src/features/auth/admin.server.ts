/**
 * Making agents administrators: `npm run admin:grant -- email@example.com` and the ADMIN_EMAILS list
 * applied by `npm run db:seed`. Only existing agents can be granted; nothing is ever revoked here.
 */
import type { Queryable } from '../../server/db.ts';

export interface GrantResult {
  /** The e-mails (lower-cased) of the agents who are admins now. */
  granted: string[];
  /** The e-mails no agent has. */
  missing: string[];
}

/** One statement: is_admin for every agent whose e-mail (any case) is in `emails`. */
export async function grantAdmin(q: Queryable, emails: readonly string[]): Promise<GrantResult> {
  const wanted = [...new Set(emails.map((email) => email.trim().toLowerCase()).filter((email) => email !== ''))];
  if (wanted.length === 0) return { granted: [], missing: [] };
  const rows = await q.query<{ email: string }>(
    `UPDATE agents SET is_admin = true, updated_at = CASE WHEN is_admin THEN updated_at ELSE now() END
      WHERE lower(email) = ANY ($1::text[])
      RETURNING lower(email) AS email`,
    [wanted],
  );
  const found = new Set(rows.map((row) => row.email));
  return {
    granted: wanted.filter((email) => found.has(email)),
    missing: wanted.filter((email) => !found.has(email)),
  };
}
