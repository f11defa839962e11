/**
 * The agent's list of leads, shared by the leads table (which builds its requests from these) and
 * the API (which parses them): the query, the list row, the CSV columns and cell encoding.
 */
import * as z from 'zod/mini';
import { formatPhone } from '../../../ui/phone.ts';
import { recordIdParam } from '../../forms/public/record-id.ts';
import { LEAD_SOURCES, UTM_KEYS } from './lead.ts';
import { LEAD_ORIGINS, type LeadOrigin } from '../../lead-origin/public/lead-origin.ts';
import { leadSyncSchema } from '../../crm/public/lead-sync.ts';
import { onFirstUse } from '../../../ui/on-first-use.ts';
import { LEAD_TIME_ZONE } from './lead-time-zone.ts';
import { leadUpdatesSchema, SUBSCRIBER_STATE_LABELS } from '../../seller-updates/public/subscriber-state.ts';

export { LEAD_TIME_ZONE };

export const LEAD_LIST = {
  perPage: 25,
  maxPerPage: 100,
  maxSearch: 100,
} as const;

/**
 * The Source filter's values before issue 23 (the form's `source`), still taken from bookmarked
 * URLs and scripts, each read as the kind of page it stood for.
 */
const ORIGIN_OF_OLD_SOURCE: Readonly<Record<(typeof LEAD_SOURCES)[number], LeadOrigin>> = {
  showcase: 'home',
  calculator: 'agent_page',
  nassau_county_page: 'nassau_county',
  suffolk_county_page: 'suffolk_county',
};
const oldSource = (value: unknown) => {
  const old = LEAD_SOURCES.find((source) => source === value);
  return old === undefined ? value : ORIGIN_OF_OLD_SOURCE[old];
};

/** A query parameter that may be absent or empty (an empty box sends `?search=`). */
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** A YYYY-MM-DD day that exists on the calendar. */
const day = (label: string) =>
  z.pipe(
    z.transform(blankToUndefined),
    z.optional(
      z.string({ error: `${label} must be a date` }).check(
        z.regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date like 2026-01-31`),
        z.refine((value) => {
          const parsed = new Date(`${value}T00:00:00Z`);
          return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
        }, `${label} is not a real date`),
      ),
    ),
  );

const whole = (label: string, max: number, fallback: number) =>
  z.pipe(
    z.transform(blankToUndefined),
    z._default(
      z.coerce
        .number({ error: `${label} must be a whole number` })
        .check(
          z.int(`${label} must be a whole number`),
          z.gte(1, `${label} must be at least 1`),
          z.lte(max, `${label} must be at most ${max}`),
        ),
      fallback,
    ),
  );

/** The filters of the list and of the CSV export (lead-export.ts adds the export's cursor). */
export const leadFilterFields = {
  search: z.pipe(
    z.transform(blankToUndefined),
    z.optional(
      z
        .string({ error: 'Search must be text' })
        .check(z.trim(), z.maxLength(LEAD_LIST.maxSearch, `Search must be at most ${LEAD_LIST.maxSearch} characters`)),
    ),
  ),
  /** The kind of page the lead's form was on (lead-origin.ts). */
  source: z.pipe(
    z.transform((value) => oldSource(blankToUndefined(value))),
    z.optional(z.enum(LEAD_ORIGINS, { error: `Source must be one of ${LEAD_ORIGINS.join(', ')}` })),
  ),
  /** One town's page (its slug, as in /long-island-real-estate/{town}); the town pages' leads only. */
  town: z.pipe(
    z.transform(blankToUndefined),
    z.optional(
      z
        .string({ error: 'Town must be a town page name such as bay-shore' })
        .check(
          z.maxLength(100, 'Town must be at most 100 characters'),
          z.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Town must be a town page name such as bay-shore'),
        ),
    ),
  ),
  from: day('From date'),
  to: day('To date'),
  /** `active`: only the leads whose seller became active (seller updates) within the last 30 days. */
  updates: z.pipe(
    z.transform(blankToUndefined),
    z.optional(z.literal('active', { error: 'Updates must be "active" (the sellers ready to sell)' })),
  ),
};

/** From after To matches nothing: almost surely a slip, so it is said rather than answered empty. */
const datesInOrder = (query: { from?: string | undefined; to?: string | undefined }) =>
  !query.from || !query.to || query.from <= query.to;
const DATE_ORDER = { message: 'From date must be on or before To date', path: ['to'] };

/** `fields` (the filters and more) with From on or before To. */
export const withDatesInOrder = <Shape extends z.core.$ZodLooseShape>(fields: Shape) =>
  z.object(fields).check(z.refine(datesInOrder, DATE_ORDER));

/** The filters of the list and the CSV export: search (name, e-mail or phone), source, days. */
export const leadFilterSchema = withDatesInOrder(leadFilterFields);

/** GET /api/leads: the filters and the page (1-based) of `per_page` leads, newest first. */
export const leadListQuerySchema = z
  .object({
    ...leadFilterFields,
    page: whole('Page', 1_000_000, 1),
    per_page: whole('Per page', LEAD_LIST.maxPerPage, LEAD_LIST.perPage),
  })
  .check(z.refine(datesInOrder, DATE_ORDER));

export type LeadFilters = z.output<typeof leadFilterSchema>;
export type LeadListQuery = z.output<typeof leadListQuerySchema>;

/** An admin's CRM filter: a lead's crm_syncs status, or `none` for a lead without a sync job. */
export const CRM_STATUS_FILTERS = [...leadSyncSchema.shape.status.options, 'none'] as const;

/** The admin's further filters over every agent's leads: one agent (by id) and the CRM status. */
export const adminLeadFilterFields = {
  ...leadFilterFields,
  agent: z.pipe(
    z.transform(blankToUndefined),
    z.optional(
      recordIdParam({
        type: 'Agent must be an agent id',
        whole: 'Agent must be an agent id',
        min: 'Agent must be an agent id',
        max: 'Agent must be an agent id',
      }),
    ),
  ),
  crm_status: z.pipe(
    z.transform(blankToUndefined),
    z.optional(z.enum(CRM_STATUS_FILTERS, { error: `CRM status must be one of ${CRM_STATUS_FILTERS.join(', ')}` })),
  ),
};

/** The admin's filters, as the admin's list and export take them. */
export const adminLeadFilterSchema = withDatesInOrder(adminLeadFilterFields);

/** GET /api/admin/leads: the admin's filters and the page. */
export const adminLeadListQuerySchema = z
  .object({
    ...adminLeadFilterFields,
    page: whole('Page', 1_000_000, 1),
    per_page: whole('Per page', LEAD_LIST.maxPerPage, LEAD_LIST.perPage),
  })
  .check(z.refine(datesInOrder, DATE_ORDER));

export type AdminLeadFilters = z.output<typeof adminLeadFilterSchema>;

/** The query string of a list or export request; empty values are left out. */
export function leadQueryString(query: Readonly<Record<string, string | number | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A lead as the list shows it (the spec's list row, plus the page its form was on). */
export const leadRowSchema = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  address: z.nullable(z.string()),
  /** The seller's note from the contact form (newcomer audit minor 19), or null. */
  message: z._default(z.nullable(z.string()), null),
  source: z.string(),
  created_at: z.string(),
  synced_to_fub: z.union([z.literal(0), z.literal(1)]),
  estimate_uuid: z.nullable(z.string()),
  page_path: z.nullable(z.string()),
  /** The kind of page the lead's form was on, and where it came from in words ("Town page: Huntington"). */
  origin: z.enum(LEAD_ORIGINS),
  source_label: z.string(),
  /** The campaign the visitor arrived from (utm_* parameters without the prefix), or null. */
  utm: z.nullable(z.partialRecord(z.enum(UTM_KEYS), z.string())),
  /**
   * Where the lead's sync to Follow Up Boss stands (its crm_syncs job) and why it last failed; null
   * without a job. Defaulted so that a scope whose rows do not carry it still lists its leads.
   */
  crm_status: z._default(z.nullable(leadSyncSchema.shape.status), null),
  crm_error: z._default(z.nullable(z.string()), null),
  /** The seller's monthly updates (their state, and when they became active, if lately); null: never asked. */
  updates: z._default(z.nullable(leadUpdatesSchema), null),
});

export type LeadRow = z.output<typeof leadRowSchema>;

/** A town page that brought the scope's leads: the Source filter offers each. */
export const leadTownSchema = z.object({ slug: z.string(), name: z.string() });

export const leadListResponseSchema = z.object({
  success: z.literal(true),
  leads: z.array(leadRowSchema),
  /** The town pages the scope's leads came from (whatever the other filters), by name. */
  towns: z._default(z.array(leadTownSchema), []),
  total: z.number(),
  page: z.number(),
  per_page: z.number(),
});

export type LeadListResponse = z.output<typeof leadListResponseSchema>;

/** A lead of the admin's list: the agent's row plus whose lead it is. */
export const adminLeadRowSchema = z.extend(leadRowSchema, { agent_id: z.number(), agent_name: z.string() });

export type AdminLeadRow = z.output<typeof adminLeadRowSchema>;

export const adminLeadListResponseSchema = z.extend(leadListResponseSchema, { leads: z.array(adminLeadRowSchema) });

/** DELETE /api/leads: how many leads were cleared. */
export const clearLeadsResponseSchema = z.object({ success: z.literal(true), deleted: z.number() });

/**
 * The spec's columns (Name … Estimate UUID), the lead's estimate in figures (blank without one), then
 * where the lead came from.
 */
export const LEAD_CSV_COLUMNS = [
  'Name',
  'Email',
  'Phone',
  'Address',
  'Source',
  'Date',
  'FUB Synced',
  'Estimate UUID',
  'Sale price',
  'Mortgage payoff',
  'Estimated net',
  'Page',
  'Campaign',
  'Updates',
] as const;

/** A lead's estimate in the CSV: its price, payoff and the net it showed the seller, in cents. */
export interface LeadEstimateFigures {
  salePriceCents: number;
  mortgagePayoffCents: number;
  netCents: number;
}

const csvDate = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: LEAD_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    }),
);

/**
 * A moment as New York's day and time in ISO 8601 with the offset of that day,
 * `2026-11-23T14:05:09-05:00` (`-04:00` in summer): unambiguous wherever the file is opened, and
 * still the agent's own clock.
 */
export function newYorkDateTime(moment: Date): string {
  // Formatted once a cell (an export formats every lead's date), then picked apart.
  const parts = csvDate().formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  // "GMT-05:00"; a zero offset is written "GMT" alone.
  const offset = part('timeZoneName').replace(/^GMT/, '') || '+00:00';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}${offset}`;
}

/** Today in New York, YYYY-MM-DD. */
export const newYorkDay = (moment: Date): string => newYorkDateTime(moment).slice(0, 10);

export const leadCsvFileName = (now: Date): string => `leads-${newYorkDay(now)}.csv`;

/**
 * What a spreadsheet may read as a cell's first character: the cell's start, or just after a
 * separator a spreadsheet may split on (comma; semicolon where the locale's list separator is `;`,
 * as in much of Europe; tab; a line break), spaces allowed between.
 */
const CELL_START = /(?<=^|[,;\t\r\n])( *)(?=[=+\-@\t\r])/g;

/**
 * One CSV cell (RFC 4180), as OWASP's CSV-injection guidance advises: always quoted (a program that
 * splits on `;` then still sees one cell), inner quotes doubled, and every place a cell could start
 * with a formula character (=, +, -, @, tab, carriage return: a visitor typed it into a form) given a
 * leading apostrophe, at the start and after any separator, so it is shown as the text it is.
 */
export function csvCell(value: string | CsvAmount): string {
  // An amount is our own figure, never a visitor's text: a net below zero keeps its minus sign.
  if (typeof value !== 'string') return `"${(value.cents / 100).toFixed(2)}"`;
  return `"${value.replace(CELL_START, "$1'").replace(/"/g, '""')}"`;
}

/** A money cell: plain dollars with two decimals (`-1234.50`), which spreadsheets read as a number. */
export interface CsvAmount {
  cents: number;
}

export const csvLine = (cells: readonly (string | CsvAmount)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * A lead's cells, in LEAD_CSV_COLUMNS order (its sync job is not a column: "FUB Synced" says it),
 * with its estimate's figures (null: the lead has none, or it is gone).
 */
export const leadCsvCells = (
  lead: Omit<LeadRow, 'crm_status' | 'crm_error'>,
  estimate: LeadEstimateFigures | null,
): (string | CsvAmount)[] => [
  [lead.first_name, lead.last_name].filter(Boolean).join(' '),
  lead.email,
  lead.phone ? formatPhone(lead.phone) : '',
  lead.address ?? '',
  lead.source_label,
  newYorkDateTime(new Date(lead.created_at)),
  lead.synced_to_fub ? 'Yes' : 'No',
  lead.estimate_uuid ?? '',
  ...(estimate
    ? [{ cents: estimate.salePriceCents }, { cents: estimate.mortgagePayoffCents }, { cents: estimate.netCents }]
    : ['', '', '']),
  lead.page_path ?? '',
  utmText(lead.utm),
  updatesText(lead.updates),
];

/** A lead's seller updates in the CSV: "Active since 2026-11-20", the state ("Monthly"), or blank. */
export const updatesText = (updates: LeadRow['updates']): string =>
  updates === null
    ? ''
    : updates.active_at
      ? `Active since ${newYorkDay(new Date(updates.active_at))}`
      : SUBSCRIBER_STATE_LABELS[updates.state];

/** The utm_* parameters as one readable cell: "source=facebook; campaign=spring-sale". */
export const utmText = (utm: LeadRow['utm']): string =>
  utm ? UTM_KEYS.flatMap((key) => (utm[key] === undefined ? [] : [`${key}=${utm[key]}`])).join('; ') : '';

/** The admin's CSV: the agent's columns and whose lead it is. */
export const ADMIN_LEAD_CSV_COLUMNS = [...LEAD_CSV_COLUMNS, 'Agent'] as const;

export const adminLeadCsvCells = (
  lead: Omit<AdminLeadRow, 'crm_status' | 'crm_error' | 'agent_id'>,
  estimate: LeadEstimateFigures | null,
): (string | CsvAmount)[] => [...leadCsvCells(lead, estimate), lead.agent_name];
