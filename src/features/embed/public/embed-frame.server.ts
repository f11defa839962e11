/**
 * The frame's Content-Security-Policy (decision 0058): which pages may show /embed/{slug}. The
 * list is the agent's (agent_settings.embed_origins), read on every answer, so a site taken off the
 * list stops framing the calculator as soon as the edge's copy is purged (saving purges it).
 */
import type { Queryable } from '../../../platform/db.ts';

/**
 * The frame-ancestors directive for an agent's list: the site itself ('self', so the dashboard's
 * preview shows the frame before any site is listed; nothing third-party) and the listed origins;
 * `'none'` for an agent the site does not know or show.
 */
export function frameAncestors(origins: readonly string[] | null): string {
  if (origins === null) return "frame-ancestors 'none'";
  return ["frame-ancestors 'self'", ...origins].join(' ');
}

/** The origins an agent allows (an agent without settings allows none). */
export async function embedOriginsOf(db: Queryable, agentId: number): Promise<string[]> {
  const [row] = await db.query<{ origins: string[] }>(
    `SELECT coalesce((SELECT embed_origins FROM agent_settings WHERE agent_id = $1), '{}') AS origins`,
    [agentId],
  );
  return row?.origins ?? [];
}

/**
 * The shell's Content-Security-Policy with its frame-ancestors replaced by `directive`; every other
 * directive (base-uri, form-action, object-src) is kept as the site serves it.
 */
export function withFrameAncestors(policy: string | null, directive: string): string {
  const others = (policy ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !/^frame-ancestors(\s|$)/i.test(part));
  return [directive, ...others].join('; ');
}
