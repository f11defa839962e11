/**
 * The admin's agents (/api/admin/agents): the list with each agent's lead and estimate counts, Add
 * New Agent (a pending agent and the e-mail with their set-password link, in one statement), the
 * status change (leaving active ends the agent's sessions) and Hard Delete (their leads and
 * estimates go with them). Each is one statement that checks the session is an admin's (`me`).
 */
import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, type PurgeAfterWrite } from '../../platform/edge-cache.ts';
import type { FeaturedAgent } from '../../platform/featured-agent.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, created, json, ok } from '../../platform/operation.ts';
import {
  ADMINS_ONLY,
  readJsonAsAdmin,
  sessionAgentCte,
  sessionOf,
  sessionParams,
} from '../auth/public/access.server.ts';
import { invitationEmail } from '../sign-in/public/auth-emails.ts';
import { INVITATION_HOURS } from '../auth/public/token-hours.ts';
import { duplicateError, duplicateFromInsert } from '../sign-in/public/auth-answers.server.ts';
import { enforceRateLimits, LIMITS, rateCheck } from '../../platform/rate-limit.server.ts';
import { PLEASE_LOG_IN } from '../auth/public/sessions.server.ts';
import { issueTokenCtes, newToken } from '../auth/public/tokens.server.ts';
import { newAgentCtes, newAgentParams } from '../sign-in/public/new-agent.server.ts';
import type { MailContext } from '../email/public/email.server.ts';
import {
  ADMIN_AGENT_MESSAGES,
  addAgentSchema,
  agentIdParams,
  agentStatusSchema,
  type AdminAgent,
  adminAgentListSchema,
  adminAgentAddedSchema,
  adminAgentChangedSchema,
} from './admin-agents.ts';

/** Admins only; the access table already answered 401 to a request without a session. */

/** `me_admin` of a statement: null when the session is no longer current, false for an agent. */
function requireAdmin(meAdmin: boolean | null | undefined): void {
  if (meAdmin === null || meAdmin === undefined) throw new HttpError(401, PLEASE_LOG_IN);
  if (!meAdmin) throw new HttpError(403, ADMINS_ONLY);
}

const AGENT_COLUMNS = `a.id, a.first_name, a.last_name, a.email, a.slug, a.brokerage, a.status, a.is_admin, a.created_at,
  a.last_sign_in_at, a.password_hash IS NULL AS invitation_open`;

/** Each agent's leads and estimates, from the per-day counts (migration 0011) rather than every row. */
const COUNT_COLUMNS = `
  (SELECT coalesce(sum(d.leads), 0)::int FROM agent_daily_counts d WHERE d.agent_id = a.id) AS lead_count,
  (SELECT coalesce(sum(d.estimates), 0)::int FROM agent_daily_counts d WHERE d.agent_id = a.id) AS estimate_count`;

interface DbAgent extends Omit<AdminAgent, 'created_at' | 'last_sign_in_at' | 'featured'> {
  created_at: Date;
  last_sign_in_at: Date | null;
}

type Featured = Pick<FeaturedAgent, 'slug' | 'email'>;

/** The featured agent is named by configuration: by slug or by e-mail, as Hard Delete tells them. */
const isFeatured = (featured: Featured, agent: { slug: string; email: string }): boolean =>
  agent.slug === featured.slug || agent.email.toLowerCase() === featured.email.toLowerCase();

const toAgent = (row: DbAgent, featured: Featured): AdminAgent => ({
  id: row.id,
  first_name: row.first_name,
  last_name: row.last_name,
  email: row.email,
  slug: row.slug,
  brokerage: row.brokerage,
  status: row.status,
  is_admin: row.is_admin,
  created_at: row.created_at.toISOString(),
  lead_count: row.lead_count,
  estimate_count: row.estimate_count,
  featured: isFeatured(featured, row),
  last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null,
  invitation_open: row.invitation_open,
});

const isAgentRow = <Row extends Partial<DbAgent>>(row: Row): row is Row & DbAgent => typeof row.id === 'number';

export interface AdminAgentRoutesDeps {
  db: Db;
  mail: MailContext;
  /** The site's featured agent (FEATURED_AGENT_SLUG / _EMAIL): the public pages need them. */
  featured: Pick<FeaturedAgent, 'slug' | 'email'>;
  /** A status change or a deletion changes the agent's public answer (an added agent has none yet). */
  purge: PurgeAfterWrite;
}

export const adminAgentsApi = apiGroup(
  (deps: AdminAgentRoutesDeps) => deps,
  (op) => [
    /** One round trip: who asks, and every agent (newest first) with their counts. */
    op({
      method: 'GET',
      path: '/api/admin/agents',
      access: 'admin',
      summary: 'Every agent',
      tag: 'Admin',
      success: ok('The agents', adminAgentListSchema),
      handler: async (c, { db, featured }) => {
        const rows = await db.query<Partial<DbAgent> & { me_admin: boolean | null }>(
          `WITH ${sessionAgentCte(1)}
           SELECT head.me_admin, list.*
             FROM (SELECT (SELECT is_admin FROM me) AS me_admin) head
             LEFT JOIN LATERAL (
               SELECT ${AGENT_COLUMNS}, ${COUNT_COLUMNS}
                 FROM agents a WHERE head.me_admin
             ) list ON true
            ORDER BY list.created_at DESC, list.id DESC`,
          sessionParams(sessionOf(c)),
        );
        requireAdmin(rows[0]?.me_admin);
        return c.json({ success: true, agents: rows.filter(isAgentRow).map((row) => toAgent(row, featured)) });
      },
    }),

    /**
     * One statement: the pending agent (no password), their settings row, a set-password token and
     * the queued invitation, or (taken e-mail or slug, or not an admin) nothing. The e-mail is
     * delivered after the response.
     */
    op({
      method: 'POST',
      path: '/api/admin/agents',
      access: 'admin',
      summary: 'Adds an agent; an e-mailed link sets their password',
      tag: 'Admin',
      body: json(addAgentSchema),
      success: created('Added', adminAgentAddedSchema),
      errors: [409],
      handler: async (c, { db, mail, featured }) => {
        const body = await readJsonAsAdmin(c, db, addAgentSchema);
        const { token, hash } = newToken();
        const message = invitationEmail({ token, siteUrl: mail.siteUrl(c.req.raw), firstName: body.first_name });
        type Row = Partial<DbAgent> & {
          me_admin: boolean | null;
          delivery_id: number | null;
          email_taken: boolean;
          slug_taken: boolean;
        };
        let row: Row | undefined;
        try {
          [row] = await db.query<Row>(
            `WITH ${sessionAgentCte(1)},
             ${newAgentCtes(3, 'invitation', { cte: 'me', when: 'me.is_admin' })}
             SELECT (SELECT is_admin FROM me) AS me_admin, (SELECT id FROM queued) AS delivery_id,
                    taken.email_taken, taken.slug_taken, ${AGENT_COLUMNS}, 0 AS lead_count, 0 AS estimate_count
               FROM taken LEFT JOIN agent a ON true`,
            [
              ...sessionParams(sessionOf(c)),
              ...newAgentParams({ ...body, passwordHash: null }, { purpose: 'invitation', tokenHash: hash, message }),
            ],
          );
        } catch (error) {
          throw duplicateFromInsert(error);
        }
        requireAdmin(row?.me_admin);
        if (!row || !isAgentRow(row)) throw duplicateError(row?.email_taken ?? false, row?.slug_taken ?? false);
        if (row.delivery_id !== null) mail.deliverSoon([row.delivery_id], c.req.raw);
        return c.json({ success: true, message: ADMIN_AGENT_MESSAGES.added, agent: toAgent(row, featured) }, 201);
      },
    }),
    /**
     * One statement. Leaving `active` raises session_version, so the agent's open sessions end at
     * their next request; an admin cannot change their own status (they would lock themselves out),
     * and the featured agent stays active (the public pages carry their name).
     */
    op({
      method: 'PATCH',
      path: '/api/admin/agents/:id',
      access: 'admin',
      summary: 'Activates or deactivates an agent (the featured agent stays active)',
      tag: 'Admin',
      params: agentIdParams,
      body: json(agentStatusSchema),
      success: ok('Changed', adminAgentChangedSchema),
      errors: [404, 409],
      handler: async (c, { db, featured, purge }, input) => {
        const { id } = input.params();
        const { status } = await readJsonAsAdmin(c, db, agentStatusSchema);
        const [row] = await db.query<{
          me_admin: boolean | null;
          me_id: number | null;
          featured: boolean | null;
          updated: number | null;
        }>(
          `WITH ${sessionAgentCte(1)},
           target AS (
             SELECT a.id, (a.slug = $5 OR lower(a.email) = lower($6)) AS featured FROM agents a WHERE a.id = $3
           ),
           updated AS (
             UPDATE agents a
                SET status = $4,
                    session_version = CASE WHEN $4 <> 'active' AND a.status = 'active'
                                           THEN a.session_version + 1 ELSE a.session_version END,
                    updated_at = now()
               FROM me, target t
              WHERE a.id = t.id AND me.is_admin AND me.id <> a.id AND NOT (t.featured AND $4 <> 'active')
             RETURNING a.id
           )
           SELECT (SELECT is_admin FROM me) AS me_admin, (SELECT id FROM me) AS me_id,
                  (SELECT featured FROM target) AS featured, (SELECT id FROM updated) AS updated`,
          [...sessionParams(sessionOf(c)), id, status, featured.slug, featured.email],
        );
        requireAdmin(row?.me_admin);
        if (row?.me_id === id) throw new HttpError(409, ADMIN_AGENT_MESSAGES.statusSelf);
        if (row?.featured && status !== 'active') throw new HttpError(409, ADMIN_AGENT_MESSAGES.statusFeatured);
        if (row?.updated === null || row?.updated === undefined)
          throw new HttpError(404, ADMIN_AGENT_MESSAGES.notFound);
        await purge(c.req.raw, [CACHE_TAGS.agent(id)]);
        return c.json({ success: true, message: ADMIN_AGENT_MESSAGES.statusChanged });
      },
    }),

    /**
     * One statement: the agent goes with their leads, estimates, settings and tokens (ON DELETE
     * CASCADE), unless it is the caller, the last admin or the featured agent. The admins are
     * locked (FOR UPDATE) so two admins deleting each other at once cannot leave the site without
     * one: the second statement waits, then counts only the admin still there.
     */
    op({
      method: 'DELETE',
      path: '/api/admin/agents/:id',
      access: 'admin',
      summary: 'Deletes an agent (not oneself, the last admin or the featured agent)',
      tag: 'Admin',
      params: agentIdParams,
      success: ok('Deleted', adminAgentChangedSchema),
      errors: [404, 409],
      handler: async (c, { db, featured, purge }, input) => {
        const { id } = input.params();
        const [row] = await db.query<{
          me_admin: boolean | null;
          found: boolean;
          refusal: string | null;
          deleted: boolean;
        }>(
          `WITH ${sessionAgentCte(1)},
           admins AS (SELECT id FROM agents WHERE is_admin AND EXISTS (SELECT 1 FROM me WHERE me.is_admin) FOR UPDATE),
           target AS (
             SELECT a.id, a.is_admin, a.slug, a.email FROM agents a, me WHERE a.id = $3 AND me.is_admin
           ),
           refusal AS (
             SELECT CASE
                      WHEN t.id = (SELECT id FROM me) THEN 'self'
                      WHEN t.is_admin AND NOT EXISTS (SELECT 1 FROM admins WHERE admins.id <> t.id) THEN 'last_admin'
                      WHEN t.slug = $4 OR lower(t.email) = lower($5) THEN 'featured'
                    END AS reason
               FROM target t
           ),
           gone AS (
             DELETE FROM agents a USING target t
              WHERE a.id = t.id AND (SELECT reason FROM refusal) IS NULL
             RETURNING a.id
           )
           SELECT (SELECT is_admin FROM me) AS me_admin, EXISTS (SELECT 1 FROM target) AS found,
                  (SELECT reason FROM refusal) AS refusal, EXISTS (SELECT 1 FROM gone) AS deleted`,
          [...sessionParams(sessionOf(c)), id, featured.slug, featured.email],
        );
        requireAdmin(row?.me_admin);
        if (!row?.found) throw new HttpError(404, ADMIN_AGENT_MESSAGES.notFound);
        if (row.refusal === 'self') throw new HttpError(409, ADMIN_AGENT_MESSAGES.deleteSelf);
        if (row.refusal === 'last_admin') throw new HttpError(409, ADMIN_AGENT_MESSAGES.deleteLastAdmin);
        if (row.refusal === 'featured') throw new HttpError(409, ADMIN_AGENT_MESSAGES.deleteFeatured);
        if (!row.deleted) throw new HttpError(404, ADMIN_AGENT_MESSAGES.notFound);
        await purge(c.req.raw, [CACHE_TAGS.agent(id)]);
        return c.json({ success: true, message: ADMIN_AGENT_MESSAGES.deleted });
      },
    }),
    /**
     * Resend invitation, for an agent who never chose a password: the invitation e-mail again with a
     * new link (older links stop working). Round trips: 1 lookup (who asks, and the agent), 1 rate
     * limit per agent, 1 statement that issues the token and queues the e-mail; it re-checks that
     * the agent still has no password, so a password chosen meanwhile queues nothing.
     */
    op({
      method: 'POST',
      path: '/api/admin/agents/:id/invitation',
      access: 'admin',
      summary: 'Sends the invitation again to an agent who never chose a password',
      tag: 'Admin',
      params: agentIdParams,
      success: ok('Sent', adminAgentChangedSchema),
      errors: [404, 409, 429],
      handler: async (c, { db, mail }, input) => {
        const { id } = input.params();
        const [found] = await db.query<{
          me_admin: boolean | null;
          first_name: string | null;
          invitation_open: boolean | null;
        }>(
          `WITH ${sessionAgentCte(1)}
           SELECT (SELECT is_admin FROM me) AS me_admin, a.first_name, a.password_hash IS NULL AS invitation_open
             FROM (SELECT 1) one LEFT JOIN agents a ON a.id = $3 AND EXISTS (SELECT 1 FROM me WHERE me.is_admin)`,
          [...sessionParams(sessionOf(c)), id],
        );
        requireAdmin(found?.me_admin);
        if (!found?.first_name) throw new HttpError(404, ADMIN_AGENT_MESSAGES.notFound);
        if (!found.invitation_open) throw new HttpError(409, ADMIN_AGENT_MESSAGES.invitationNotNeeded);
        await enforceRateLimits(db, [rateCheck(LIMITS.invitationPerAgent, `invitation:agent:${id}`)]);
        const { token, hash } = newToken();
        const message = invitationEmail({ token, siteUrl: mail.siteUrl(c.req.raw), firstName: found.first_name });
        const [queued] = await db.query<{ delivery_id: number | null }>(
          `WITH agent AS (SELECT id, email, first_name, last_name FROM agents WHERE id = $1 AND password_hash IS NULL)
           ${issueTokenCtes('agent', '$2', "'invitation'", '$3')},
           queued AS (
             INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text)
             SELECT 'invitation', email, first_name || ' ' || last_name, $4, $5, $6 FROM agent
             RETURNING id
           )
           SELECT (SELECT id FROM queued) AS delivery_id`,
          [id, hash, INVITATION_HOURS, message.subject, message.html, message.text],
        );
        if (queued?.delivery_id === null || queued?.delivery_id === undefined) {
          throw new HttpError(409, ADMIN_AGENT_MESSAGES.invitationNotNeeded);
        }
        mail.deliverSoon([queued.delivery_id], c.req.raw);
        return c.json({ success: true, message: ADMIN_AGENT_MESSAGES.invitationSent });
      },
    }),
  ],
);
