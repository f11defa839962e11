/**
 * The leads CSV exports, a page a request (decision 0029; the protocol is lead-export.ts): the
 * agent's own (GET /api/leads/export.csv) and an admin's of every agent (GET
 * /api/admin/leads/export.csv). One handler serves both, reading the list's own query
 * (lead-list.server.ts) by scope, so the export's filters are the list's.
 */
import type { Context } from 'hono';
import * as z from 'zod';
import type { Db } from '../../../platform/db.ts';
import { HttpError } from '../../../platform/http.ts';
import { apiGroup } from '../../../platform/operation.ts';
import { ADMINS_ONLY, sessionOf } from '../../auth/public/access.server.ts';
import {
  EXPORT_HEADERS,
  exportCursor,
  LEAD_EXPORT,
  leadExportQuerySchema,
  type LeadExportQuery,
} from './lead-export.ts';
import {
  ADMIN_LEAD_CSV_COLUMNS,
  adminLeadCsvCells,
  csvLine,
  LEAD_CSV_COLUMNS,
  leadCsvCells,
  leadCsvFileName,
  type LeadEstimateFigures,
} from './lead-list.ts';
import {
  matchingCte,
  readPage,
  toAdminRow,
  toCsvLead,
  type DbLeadWithEstimate,
  type DbListedLead,
  type LeadScope,
} from './lead-list.server.ts';
import { estimateFigures } from '../../net-sheet/public/estimate-row.server.ts';
import type { StoredEstimate } from '../../net-sheet/public/estimate.ts';

/** How large a page may be; smaller than the platform's bounds only for tests (LEAD_EXPORT_PAGE_ROWS). */
export interface LeadExportLimits {
  pageRows: number;
  pageBytes: number;
}

/** LEAD_EXPORT_PAGE_ROWS: fewer leads a page (an export of a few leads in several pages, for tests). */
const pageRowsSchema = z
  .number()
  .int('LEAD_EXPORT_PAGE_ROWS must be a whole number')
  .min(1, 'LEAD_EXPORT_PAGE_ROWS must be at least 1')
  .max(LEAD_EXPORT.pageRows, `LEAD_EXPORT_PAGE_ROWS must be at most ${LEAD_EXPORT.pageRows} (decision 0029)`);

/** The platform's bounds, or fewer leads a page (refused beyond the bounds: the page would not fit). */
export function leadExportLimits(pageRows: number = LEAD_EXPORT.pageRows): LeadExportLimits {
  const parsed = pageRowsSchema.safeParse(pageRows);
  if (!parsed.success)
    throw new Error(`Invalid environment:\n  ${parsed.error.issues.map((issue) => issue.message).join('\n  ')}`);
  return { pageRows: parsed.data, pageBytes: LEAD_EXPORT.pageBytes };
}

/** The figures of a lead's estimate (readPage's `estimates` columns), or null without one. */
function figuresOf(lead: Partial<DbLeadWithEstimate>): LeadEstimateFigures | null {
  const stored = {
    sale_price_cents: lead.estimate_sale_price_cents,
    mortgage_payoff_cents: lead.estimate_mortgage_payoff_cents,
    commission_percent: lead.estimate_commission_percent,
    transfer_tax_rate_per_1000: lead.estimate_transfer_tax_rate_per_1000,
    attorney_fee_cents: lead.estimate_attorney_fee_cents,
    recording_fee_cents: lead.estimate_recording_fee_cents,
  };
  if (!isStoredEstimate(stored)) return null;
  return estimateFigures(stored, lead.estimate_sheet_net_cents ?? null);
}

/** Every column of the estimate read: the lead has one (a LEFT JOIN gives all null without). */
const isStoredEstimate = (row: {
  [Column in keyof StoredEstimate]: number | null | undefined;
}): row is StoredEstimate => Object.values(row).every((value) => typeof value === 'number');

/**
 * One page of the CSV of `scope`'s leads (GET /api/leads/export.csv here, GET /api/admin/leads/export.csv
 * in admin-leads.server.ts) that pass the filters, newest first, in one round trip:
 * the session, the total (first page only) and one lead more than a page holds, which says whether
 * another page follows. Lines are added while the body stays within pageBytes (at least one, so an
 * export always moves on); the next page starts after the last lead sent.
 */
export async function leadCsvPage(
  db: Db,
  c: Context,
  scope: LeadScope,
  { cursor, ...filters }: LeadExportQuery,
  limits: LeadExportLimits,
): Promise<Response> {
  const first = cursor === undefined;
  const { head, leads } = await readPage(db, matchingCte(filters, scope, 1, sessionOf(c), cursor), {
    limit: limits.pageRows + 1,
    offset: 0,
    total: first,
    estimates: true,
  });
  if (scope === 'all' && !head.is_admin) throw new HttpError(403, ADMINS_ONLY);
  const [columns, cells] =
    scope === 'all'
      ? [ADMIN_LEAD_CSV_COLUMNS, (lead: DbListedLead) => adminLeadCsvCells(toAdminRow(lead), figuresOf(lead))]
      : [LEAD_CSV_COLUMNS, (lead: DbListedLead) => leadCsvCells(toCsvLead(lead), figuresOf(lead))];
  // The BOM tells spreadsheet programs the file is UTF-8 (names with accents).
  const lines = first ? [`\uFEFF${csvLine(columns)}`] : [];
  let bytes = Buffer.byteLength(lines.join(''));
  let last: DbListedLead | undefined;
  for (const lead of leads.slice(0, limits.pageRows)) {
    const line = csvLine(cells(lead));
    const size = Buffer.byteLength(line);
    if (last && bytes + size > limits.pageBytes) break;
    lines.push(line);
    bytes += size;
    last = lead;
  }
  const sent = lines.length - (first ? 1 : 0);
  const headers: Record<string, string> = {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${leadCsvFileName(new Date())}"`,
    [EXPORT_HEADERS.rows]: String(sent),
  };
  if (first) headers[EXPORT_HEADERS.total] = String(head.total);
  if (last && sent < leads.length) headers[EXPORT_HEADERS.next] = exportCursor({ at: last.cursor_at, id: last.id });
  return c.body(lines.join(''), 200, headers);
}

/** A page of a leads CSV export (decision 0029), as the document says: the file is the pages' bodies end to end. */
export const leadCsvPageAnswer = {
  status: 200,
  description:
    'A page of the CSV: the first starts with the byte order mark and the header line, the others are rows only. ' +
    `Ask for the next page with cursor set to ${EXPORT_HEADERS.next} until an answer has none.`,
  media: 'text/csv',
  headers: {
    [EXPORT_HEADERS.rows]: 'Leads in this page',
    [EXPORT_HEADERS.total]: 'Leads that match the filters (first page only)',
    [EXPORT_HEADERS.next]: 'The cursor of the next page (absent on the last page)',
  },
} as const;

/** GET /api/leads/export.csv: a page of the caller's leads that pass the list's filters. */
export const leadExportApi = apiGroup(
  (deps: { db: Db; limits: LeadExportLimits }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/leads/export.csv',
      access: 'agent',
      summary: "The agent's leads as CSV, filtered, a page at a time",
      tag: 'Leads',
      query: leadExportQuerySchema,
      success: leadCsvPageAnswer,
      handler: (c, { db, limits }, input) => leadCsvPage(db, c, 'own', input.query(), limits),
    }),
  ],
);
