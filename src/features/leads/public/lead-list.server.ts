/**
 * Lists of leads, by scope. The signed-in agent's own: the list (GET /api/leads) and the deletion
 * of the leads it matches (DELETE /api/leads, with the list's filters); an admin's of every agent (GET /api/admin/leads) through the same queries,
 * which the CSV exports read too (lead-export.server.ts). Each is one query that checks
 * the session (sessionAgentCte) and touches only the scope's rows, so an admin gets their own leads
 * at /api/leads too.
 */
import type { Context } from 'hono';
import type * as z from 'zod';
import type { Db } from '../../../platform/db.ts';
import { HttpError } from '../../../platform/http.ts';
import { ADMINS_ONLY, sessionAgentCte, sessionOf, sessionParams } from '../../auth/public/access.server.ts';
import { PLEASE_LOG_IN, type SessionClaims } from '../../auth/public/sessions.server.ts';
import { townBySlug } from '../../towns/public/town-data.ts';
import { LEAD_ORIGINS } from '../../lead-origin/public/lead-origin.ts';
import { leadSourceLabel } from '../../lead-origin/public/lead-page.ts';
import {
  leadRowSchema,
  LEAD_TIME_ZONE,
  type adminLeadListQuerySchema,
  type AdminLeadFilters,
  type AdminLeadRow,
  type LeadFilters,
  type LeadListQuery,
  type LeadRow,
} from './lead-list.ts';
import type { ExportCursor } from './lead-export.ts';
import type { StoredEstimate } from '../../net-sheet/public/estimate.ts';
import {
  activeRecentlySql,
  isStoredState,
  recentActiveSql,
  subscriberState,
} from '../../seller-updates/public/subscriber-state.ts';

type AdminLeadListQuery = z.output<typeof adminLeadListQuerySchema>;

const LEAD_COLUMNS = `l.id, l.agent_id, l.first_name, l.last_name, l.email, l.phone, l.address, l.message, l.source, l.created_at,
  CASE WHEN l.synced_to_fub THEN 1 ELSE 0 END AS synced_to_fub, l.estimate_uuid, l.page_path, l.origin, l.utm, l.host_page`;

/** A lead of the CSV: the list row without its sync job. */
type CsvLead = Omit<LeadRow, 'crm_status' | 'crm_error'>;

interface DbLead extends Omit<CsvLead, 'created_at' | 'synced_to_fub' | 'source_label' | 'origin' | 'utm' | 'updates'> {
  created_at: Date;
  synced_to_fub: number;
  origin: string;
  utm: unknown;
  /** The embedded calculator's host page (LEAD_COLUMNS; absent where a query reads no such column). */
  host_page?: string | null;
  /** The lead's seller_updates row (readPage's LEFT JOIN; absent or null without one). */
  updates_state?: string | null;
  updates_since_click?: number | null;
  updates_active_at?: Date | null;
}

/** A lead's seller updates, from readPage's columns (null: the seller never asked). */
const updatesOf = (lead: DbLead): CsvLead['updates'] =>
  isStoredState(lead.updates_state)
    ? {
        state: subscriberState(lead.updates_state, lead.updates_since_click ?? 0),
        active_at: lead.updates_active_at ? lead.updates_active_at.toISOString() : null,
      }
    : null;

/** A stored utm document read back through its schema: one written by hand that does not fit is left out. */
const storedUtm = (utm: unknown): CsvLead['utm'] => {
  const parsed = leadRowSchema.shape.utm.safeParse(utm);
  return parsed.success ? parsed.data : null;
};

/** A lead of a page, with its crm_syncs job (LEFT JOIN: null without one), agent and keyset. */
export interface DbListedLead extends DbLead {
  crm_status?: LeadRow['crm_status'];
  crm_error?: string | null;
  agent_id: number;
  agent_name: string;
  cursor_at: string;
}

/**
 * A lead of a page that asked for `estimates`: its estimate's columns, prefixed `estimate_` (all
 * null when it has none), and a detailed sheet's net (null for a quick estimate).
 */
export type DbLeadWithEstimate = DbListedLead & {
  [Column in keyof StoredEstimate as `estimate_${Column}`]: number | null;
} & {
  estimate_sheet_net_cents: number | null;
};

/** Named field by field: the query's rows also carry who asked and the total. */
export const toCsvLead = (lead: DbLead): CsvLead => ({
  id: lead.id,
  first_name: lead.first_name,
  last_name: lead.last_name,
  email: lead.email,
  phone: lead.phone,
  address: lead.address,
  message: lead.message,
  source: lead.source,
  created_at: lead.created_at.toISOString(),
  synced_to_fub: lead.synced_to_fub === 1 ? 1 : 0,
  estimate_uuid: lead.estimate_uuid,
  page_path: lead.page_path,
  origin: LEAD_ORIGINS.find((origin) => origin === lead.origin) ?? 'other',
  source_label: leadSourceLabel(lead.source, lead.page_path, lead.host_page),
  utm: storedUtm(lead.utm),
  updates: updatesOf(lead),
});

const toRow = (lead: DbListedLead): LeadRow => ({
  ...toCsvLead(lead),
  crm_status: lead.crm_status ?? null,
  crm_error: lead.crm_error ?? null,
});

export const toAdminRow = (lead: DbListedLead): AdminLeadRow => ({
  ...toRow(lead),
  agent_id: lead.agent_id,
  agent_name: lead.agent_name,
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
 * Whose leads a query reads: the caller's own, or every agent's (an admin's list, where rows are
 * kept only while `me` is an admin).
 */
export type LeadScope = 'own' | 'all';

const signedOut = () => new HttpError(401, PLEASE_LOG_IN);

/** The keyset of a page read after another: the last lead's created_at (ISO, to the microsecond) and id. */
type After = ExportCursor;

/**
 * The distinct towns of the town-page leads that pass `where` (on `leads l`), sorted: a loose index
 * scan, one probe of an index on (…, origin, page_town) per town found and one more, instead of a
 * DISTINCT over every town-page lead. On 100,000 leads, a quarter from 119 town pages, the DISTINCT
 * made the admin's list page 24 times slower (npm run bench:api -- --lead-towns; decision 0052).
 * An agent's own leads are probed by leads_agent_origin_town_idx (migration 0029), every agent's by
 * leads_origin_created_id_idx (migration 0025).
 */
export const townsOfLeads = (where: string): string => {
  const next = (after: string) => `(SELECT l.page_town FROM leads l
        WHERE ${where} AND l.origin = 'town' AND l.page_town ${after} ORDER BY l.page_town LIMIT 1)`;
  return `(WITH RECURSIVE found (town) AS (
       SELECT ${next('IS NOT NULL')}
       UNION ALL
       SELECT ${next('> found.town')} FROM found WHERE found.town IS NOT NULL
     ) SELECT coalesce(array_agg(town ORDER BY town), '{}') FROM found WHERE town IS NOT NULL)`;
};

/**
 * A CTE `matching` of the scope's leads that pass `filters`, parameters from `$first` on (the
 * session's two first), and `total`: an expression counting them. The caller's own leads are named
 * by the agent's parameter (kept only while `me` exists), so the planner knows whose range of the
 * (agent_id, created_at, id) index it reads; every agent's are read by (created_at, id) (migration
 * 0014) or, for one agent, by the agent's index. Only the filters given are in the SQL, so each query
 * is planned for what it asks. Without a search, source or CRM status the total is summed from the
 * per-day counts (agent_daily_counts, migration 0011) instead of counting every lead; a search reads
 * the few leads the trigram index finds (MATERIALIZED: once, for the count and the page).
 */
export function matchingCte(
  filters: AdminLeadFilters,
  scope: LeadScope,
  first: number,
  claims: SessionClaims,
  after?: After,
) {
  const params: unknown[] = [...sessionParams(claims)];
  const param = (value: unknown) => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  // The scope, for the leads and for the per-day counts alike.
  const allowed = scope === 'own' ? 'EXISTS (SELECT 1 FROM me)' : 'EXISTS (SELECT 1 FROM me WHERE me.is_admin)';
  const agent = scope === 'own' ? `$${first}` : filters.agent === undefined ? null : param(filters.agent);
  // Only a date filter needs the time zone (an unused parameter has no type PostgreSQL can infer).
  let zone: string | undefined;
  const inNewYork = () => (zone ??= `${param(LEAD_TIME_ZONE)}::text`);
  const conditions: string[] = agent ? [`l.agent_id = ${agent}`, allowed] : [allowed];
  // The town pages the scope's leads came from, whatever the other filters: the Source filter's towns.
  const towns = townsOfLeads(conditions.join(' AND '));
  const dayBounds: string[] = agent ? [`agent_id = ${agent}`, allowed] : [allowed];
  if (filters.search) conditions.push(`${SEARCH_TEXT} LIKE ${param(searchPattern(filters.search))}`);
  // A town filter is a town page's leads (its slug beside origin, as the index leads_origin_created_id_idx has them).
  const origin = filters.town ? 'town' : filters.source;
  if (origin) conditions.push(`l.origin = ${param(origin)}`);
  if (filters.town) conditions.push(`l.page_town = ${param(filters.town)}`);
  if (scope === 'all' && filters.crm_status === 'none') {
    conditions.push('NOT EXISTS (SELECT 1 FROM crm_syncs s WHERE s.lead_id = l.id)');
  } else if (scope === 'all' && filters.crm_status) {
    conditions.push(
      `EXISTS (SELECT 1 FROM crm_syncs s WHERE s.lead_id = l.id AND s.status = ${param(filters.crm_status)})`,
    );
  }
  // The sellers ready to sell: a probe of seller_updates' unique lead_id per lead.
  if (filters.updates === 'active') {
    conditions.push(`EXISTS (SELECT 1 FROM seller_updates su WHERE su.lead_id = l.id AND ${activeRecentlySql('su')})`);
  }
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
  if (after) conditions.push(`(l.created_at, l.id) < (${param(after.at)}::timestamptz, ${param(after.id)}::int)`);
  const searched = filters.search || origin || filters.updates || (scope === 'all' && filters.crm_status);
  const sql = `${sessionAgentCte(first)},
    matching AS ${filters.search ? 'MATERIALIZED' : 'NOT MATERIALIZED'} (
      SELECT ${LEAD_COLUMNS} FROM leads l
       WHERE ${conditions.join('\n         AND ')}
    )`;
  const total = searched
    ? '(SELECT count(*)::int FROM matching)'
    : `(SELECT coalesce(sum(leads), 0)::int FROM agent_daily_counts WHERE ${dayBounds.join(' AND ')})`;
  return { sql, params, total, towns };
}

interface Head {
  me_id: number | null;
  is_admin: boolean | null;
  total: number;
  towns: string[];
}

/** The towns of the Source filter, by name; a slug the site no longer has is left out. */
const namedTowns = (slugs: string[]) =>
  slugs
    .flatMap((slug) => {
      const town = townBySlug(slug);
      return town ? [{ slug, name: town.name }] : [];
    })
    .sort((a, b) => a.name.localeCompare(b.name));

/**
 * A lead's estimate (DbLeadWithEstimate): the columns its figures are computed from (estimateFigures)
 * and a detailed sheet's net, read out of the sheet here rather than the whole sheet.
 */
const ESTIMATE_OF_LEAD = `e.sale_price_cents AS estimate_sale_price_cents,
                e.mortgage_payoff_cents AS estimate_mortgage_payoff_cents,
                e.commission_percent AS estimate_commission_percent,
                e.transfer_tax_rate_per_1000 AS estimate_transfer_tax_rate_per_1000,
                e.attorney_fee_cents AS estimate_attorney_fee_cents,
                e.recording_fee_cents AS estimate_recording_fee_cents,
                (e.sheet->>'net_cents')::bigint AS estimate_sheet_net_cents`;

/**
 * One round trip: the session, the total (when asked) and a page of `matching`, newest first. The
 * page is a LATERAL join to a one-row header, so an empty page still answers who asked and how many
 * there are. LIMIT and OFFSET are sub-selects: a plain parameter there makes every plan of the
 * prepared statement a custom one (PostgreSQL prices its generic plan for an unknown LIMIT), planned
 * anew on each call; as sub-selects both plans are priced alike and the generic one is kept. Each
 * lead of the page carries its sync job (crm_syncs is unique by lead_id: at most one row a lead), its
 * agent's name and its keyset (`cursor_at`: created_at to the microsecond, which a Date loses).
 */
export async function readPage(
  db: Db,
  matching: ReturnType<typeof matchingCte>,
  page: { limit: number; offset: number; total: boolean; towns?: boolean; estimates?: boolean },
): Promise<{ head: Head; leads: DbListedLead[] }> {
  const limit = matching.params.length + 1;
  const rows = await db.query<Partial<DbListedLead> & Head>(
    `WITH ${matching.sql}
     SELECT head.me_id, head.is_admin, head.total, head.towns, page.*
       FROM (SELECT (SELECT id FROM me) AS me_id, (SELECT is_admin FROM me) AS is_admin,
                    ${page.total ? matching.total : '0'} AS total,
                    ${page.towns ? matching.towns : "'{}'::text[]"} AS towns) head
       LEFT JOIN LATERAL (
         SELECT m.*, s.status AS crm_status, s.last_error AS crm_error,
                su.state AS updates_state, su.updates_since_click, ${recentActiveSql('su.active_at')} AS updates_active_at,
                a.first_name || ' ' || a.last_name AS agent_name,
                to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at
                ${page.estimates ? `, ${ESTIMATE_OF_LEAD}` : ''}
           FROM (
             SELECT * FROM matching ORDER BY created_at DESC, id DESC LIMIT (SELECT $${limit}::int) OFFSET (SELECT $${limit + 1}::int)
           ) m
           LEFT JOIN crm_syncs s ON s.lead_id = m.id
           LEFT JOIN seller_updates su ON su.lead_id = m.id
           JOIN agents a ON a.id = m.agent_id
           ${page.estimates ? 'LEFT JOIN estimates e ON e.uuid = m.estimate_uuid' : ''}
       ) page ON true
      ORDER BY page.created_at DESC, page.id DESC`,
    [...matching.params, page.limit, page.offset],
  );
  const [head] = rows;
  if (!head || head.me_id === null) throw signedOut();
  return { head, leads: rows.filter(isLead) };
}

/**
 * GET /api/leads (its DELETE below; its POST, the public lead form, is in leads.server.ts): one round
 * trip: the session, the total and the page of the caller's leads.
 */
export async function listOwnLeads(c: Context, db: Db, query: LeadListQuery): Promise<Response> {
  const { head, leads } = await readPage(db, matchingCte(query, 'own', 1, sessionOf(c)), pageOf(query));
  return c.json({
    success: true,
    leads: leads.map(toRow),
    towns: namedTowns(head.towns),
    total: head.total,
    page: query.page,
    per_page: query.per_page,
  });
}

/**
 * DELETE /api/leads: one statement: the caller's leads that pass the filters go (every one without a
 * filter, the spec's Clear All), chosen by the list's own `matching`, so the table's rows and the
 * deleted ones cannot differ; their e-mail delivery rows stay (lead_id is set null).
 */
export async function clearOwnLeads(c: Context, db: Db, filters: LeadFilters): Promise<Response> {
  const matching = matchingCte(filters, 'own', 1, sessionOf(c));
  const [row] = await db.query<{ me_id: number | null; deleted: number }>(
    `WITH ${matching.sql},
     gone AS (DELETE FROM leads WHERE id IN (SELECT id FROM matching) RETURNING 1)
     SELECT (SELECT id FROM me) AS me_id, (SELECT count(*)::int FROM gone) AS deleted`,
    matching.params,
  );
  if (!row || row.me_id === null) throw signedOut();
  return c.json({ success: true, deleted: row.deleted });
}

const pageOf = (query: { page: number; per_page: number }) => ({
  limit: query.per_page,
  offset: (query.page - 1) * query.per_page,
  total: true,
  towns: true,
});

/** A row of the LATERAL join that carries a lead (an empty page gives one row without). */
const isLead = <Row extends Partial<DbListedLead>>(row: Row): row is Row & DbListedLead => typeof row.id === 'number';

/** An agent who is not an admin, on an admin route. */

/** GET /api/admin/leads: every agent's leads, one round trip (403 to an agent who is not an admin). */
export async function listAllLeads(c: Context, db: Db, query: AdminLeadListQuery): Promise<Response> {
  const { head, leads } = await readPage(db, matchingCte(query, 'all', 1, sessionOf(c)), pageOf(query));
  if (!head.is_admin) throw new HttpError(403, ADMINS_ONLY);
  return c.json({
    success: true,
    leads: leads.map(toAdminRow),
    towns: namedTowns(head.towns),
    total: head.total,
    page: query.page,
    per_page: query.per_page,
  });
}
