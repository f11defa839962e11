/**
 * The signed-in agent's leads: the list (GET /api/leads), Clear All (DELETE /api/leads) and the CSV
 * export (GET /api/leads/export.csv). Each is one query that checks the session (sessionAgentCte)
 * and touches only the caller's rows, so an admin gets their own leads here too.
 */
import { Hono, type Context, type Handler } from 'hono';
import type { Db } from '../../server/db.ts';
import { HttpError, parseOrThrow, route } from '../../server/http.ts';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/access.server.ts';
import { PLEASE_LOG_IN, type SessionClaims } from '../auth/sessions.server.ts';
import {
  csvLine,
  LEAD_CSV_COLUMNS,
  LEAD_TIME_ZONE,
  leadCsvCells,
  leadCsvFileName,
  leadExportQuerySchema,
  leadListQuerySchema,
  type LeadFilters,
  type LeadRow,
} from './lead-list.ts';

const LEAD_COLUMNS = `l.id, l.first_name, l.last_name, l.email, l.phone, l.address, l.source, l.created_at,
  CASE WHEN l.synced_to_fub THEN 1 ELSE 0 END AS synced_to_fub, l.estimate_uuid, l.page_path`;

/** A lead of the CSV: the list row without its sync job. */
type CsvLead = Omit<LeadRow, 'crm_status' | 'crm_error'>;

interface DbLead extends Omit<CsvLead, 'created_at' | 'synced_to_fub'> {
  created_at: Date;
  synced_to_fub: number;
}

/** A lead of the list's page, with its crm_syncs job (LEFT JOIN: null without one). */
interface DbListedLead extends DbLead {
  crm_status?: LeadRow['crm_status'];
  crm_error?: string | null;
}

/** Named field by field: the query's rows also carry who asked and the total. */
const toCsvLead = (lead: DbLead): CsvLead => ({
  id: lead.id,
  first_name: lead.first_name,
  last_name: lead.last_name,
  email: lead.email,
  phone: lead.phone,
  address: lead.address,
  source: lead.source,
  created_at: lead.created_at.toISOString(),
  synced_to_fub: lead.synced_to_fub === 1 ? 1 : 0,
  estimate_uuid: lead.estimate_uuid,
  page_path: lead.page_path,
});

const toRow = (lead: DbListedLead): LeadRow => ({
  ...toCsvLead(lead),
  crm_status: lead.crm_status ?? null,
  crm_error: lead.crm_error ?? null,
});

/** `term` matched literally inside ILIKE: its %, _ and \ are not wildcards. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** A search that looks like (part of) a phone number is matched on its digits, however typed. */
const phoneDigits = (term: string): string | null =>
  /^[\d\s()+.-]+$/.test(term) && /\d/.test(term) ? term.replace(/\D/g, '') : null;

/**
 * A lead's name, e-mail and phone digits as one lower-cased text: exactly the expression of the
 * trigram index leads_search_trgm_idx (migration 0011), so a search reads only the leads that match.
 */
const SEARCH_TEXT =
  "lower(l.first_name || ' ' || l.last_name || ' ' || l.email || ' ' || regexp_replace(coalesce(l.phone, ''), '\\D', '', 'g'))";

/** What a search looks for in SEARCH_TEXT: a phone number by its digits, anything else as typed (any case). */
const searchPattern = (term: string): string => containing(phoneDigits(term) ?? term.toLowerCase());

/**
 * A CTE `matching` of the caller's leads that pass `filters`, parameters from `$first` on (the
 * session's two first), and `total`: an expression counting them. The agent is named by the
 * parameter (and the rows kept only while `me` exists), so the planner knows whose range of the
 * (agent_id, created_at, id) index it reads; only the filters given are in the SQL, so each query is
 * planned for what it asks. Without a search or source the total is summed from the per-day counts
 * (agent_daily_counts, migration 0011) instead of counting every lead; a search reads the few leads
 * the trigram index finds (MATERIALIZED: once, for the count and the page). With `agentId` (an
 * admin's export of another agent's leads) the rows are that agent's, kept only while `me` is an admin.
 */
function matchingCte(filters: LeadFilters, first: number, claims: SessionClaims, agentId?: number) {
  const params: unknown[] = [...sessionParams(claims)];
  const param = (value: unknown) => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  const agent = agentId === undefined ? `$${first}` : param(agentId);
  const allowed = agentId === undefined ? 'EXISTS (SELECT 1 FROM me)' : 'EXISTS (SELECT 1 FROM me WHERE me.is_admin)';
  // Only a date filter needs the time zone (an unused parameter has no type PostgreSQL can infer).
  let zone: string | undefined;
  const inNewYork = () => (zone ??= `${param(LEAD_TIME_ZONE)}::text`);
  const conditions: string[] = [];
  const dayBounds: string[] = [];
  if (filters.search) conditions.push(`${SEARCH_TEXT} LIKE ${param(searchPattern(filters.search))}`);
  if (filters.source) conditions.push(`l.source = ${param(filters.source)}`);
  if (filters.from) {
    const from = param(filters.from);
    conditions.push(`l.created_at >= (${from}::date::timestamp AT TIME ZONE ${inNewYork()})`);
    dayBounds.push(`day >= ${from}::date`);
  }
  if (filters.to) {
    const to = param(filters.to);
    conditions.push(`l.created_at < ((${to}::date + 1)::timestamp AT TIME ZONE ${inNewYork()})`);
    dayBounds.push(`day <= ${to}::date`);
  }
  const sql = `${sessionAgentCte(first)},
    matching AS ${filters.search ? 'MATERIALIZED' : 'NOT MATERIALIZED'} (
      SELECT ${LEAD_COLUMNS} FROM leads l
       WHERE l.agent_id = ${agent} AND ${allowed}${conditions.map((condition) => `\n         AND ${condition}`).join('')}
    )`;
  const total =
    filters.search || filters.source
      ? '(SELECT count(*)::int FROM matching)'
      : `(SELECT coalesce(sum(leads), 0)::int FROM agent_daily_counts
           WHERE agent_id = ${agent} AND ${allowed}${dayBounds.map((bound) => ` AND ${bound}`).join('')})`;
  return { sql, params, total };
}

const signedOut = () => new HttpError(401, PLEASE_LOG_IN);

/** GET and DELETE of /api/leads (its POST, the public lead form, is in leads.server.ts). */
export function leadListHandlers(db: Db): { GET: Handler; DELETE: Handler } {
  return {
    /**
     * One round trip: the session, the total and the page. The page is a LATERAL join to a
     * one-row header, so an empty page still answers who asked and how many there are. LIMIT and
     * OFFSET are sub-selects: a plain parameter there makes every plan of the prepared statement
     * a custom one (PostgreSQL prices its generic plan for an unknown LIMIT), planned anew on each
     * call; as sub-selects both plans are priced alike and the generic one is kept. Each lead of
     * the page carries its sync job (crm_syncs is unique by lead_id: at most one row a lead).
     */
    GET: async (c) => {
      const query = parseOrThrow(leadListQuerySchema, c.req.query());
      const matching = matchingCte(query, 1, sessionOf(c));
      const limit = matching.params.length + 1;
      const rows = await db.query<Partial<DbListedLead> & { me_id: number | null; total: number }>(
        `WITH ${matching.sql}
         SELECT head.me_id, head.total, page.*
           FROM (SELECT (SELECT id FROM me) AS me_id, ${matching.total} AS total) head
           LEFT JOIN LATERAL (
             SELECT m.*, s.status AS crm_status, s.last_error AS crm_error
               FROM (
                 SELECT * FROM matching ORDER BY created_at DESC, id DESC LIMIT (SELECT $${limit}::int) OFFSET (SELECT $${limit + 1}::int)
               ) m
               LEFT JOIN crm_syncs s ON s.lead_id = m.id
           ) page ON true
          ORDER BY page.created_at DESC, page.id DESC`,
        [...matching.params, query.per_page, (query.page - 1) * query.per_page],
      );
      const [head] = rows;
      if (!head || head.me_id === null) throw signedOut();
      const leads = rows.filter(isLead).map(toRow);
      return c.json({ success: true, leads, total: head.total, page: query.page, per_page: query.per_page });
    },
    /** One statement: the caller's leads go; their e-mail delivery rows stay (lead_id is set null). */
    DELETE: async (c) => {
      const [row] = await db.query<{ me_id: number | null; deleted: number }>(
        `WITH ${sessionAgentCte(1)},
         gone AS (DELETE FROM leads WHERE agent_id = (SELECT id FROM me) RETURNING 1)
         SELECT (SELECT id FROM me) AS me_id, (SELECT count(*)::int FROM gone) AS deleted`,
        sessionParams(sessionOf(c)),
      );
      if (!row || row.me_id === null) throw signedOut();
      return c.json({ success: true, deleted: row.deleted });
    },
  };
}

/** A row of the LATERAL join that carries a lead (an empty page gives one row without). */
const isLead = <Row extends Partial<DbLead>>(row: Row): row is Row & DbLead => typeof row.id === 'number';

/** Rows encoded per chunk of the CSV stream. */
const CSV_CHUNK_ROWS = 500;

/**
 * GET /api/leads/export.csv: every lead of the caller that passes the filters, newest first; with
 * agent_id (admins only: 403 for an agent), that agent's.
 */
export function leadExportRoutes(db: Db): Hono {
  const app = new Hono();
  route(app, '/leads/export.csv', {
    GET: async (c: Context) => {
      const { agent_id: agentId, ...filters } = parseOrThrow(leadExportQuerySchema, c.req.query());
      const matching = matchingCte(filters, 1, sessionOf(c), agentId);
      // One round trip; the rows carry who asked (a signed-in agent with no lead gets one empty row).
      const rows = await db.query<Partial<DbLead> & { me_id: number | null; me_admin: boolean | null }>(
        `WITH ${matching.sql}
         SELECT head.me_id, head.me_admin, page.*
           FROM (SELECT (SELECT id FROM me) AS me_id, (SELECT is_admin FROM me) AS me_admin) head
           LEFT JOIN LATERAL (SELECT * FROM matching) page ON true
          ORDER BY page.created_at DESC, page.id DESC`,
        matching.params,
      );
      if (!rows[0] || rows[0].me_id === null) throw signedOut();
      if (agentId !== undefined && !rows[0].me_admin) throw new HttpError(403, 'Admins only');
      const leads = rows.filter(isLead);
      const encoder = new TextEncoder();
      let next = 0;
      // Encoded a chunk at a time as the client reads, rather than as one string of every lead.
      // The BOM tells spreadsheet programs the file is UTF-8 (names with accents).
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(LEAD_CSV_COLUMNS)}`));
        },
        pull(controller) {
          const chunk = leads.slice(next, next + CSV_CHUNK_ROWS);
          next += CSV_CHUNK_ROWS;
          if (chunk.length === 0) return controller.close();
          controller.enqueue(encoder.encode(chunk.map((lead) => csvLine(leadCsvCells(toCsvLead(lead)))).join('')));
        },
      });
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${leadCsvFileName(new Date())}"`,
      });
    },
  });
  return app;
}
