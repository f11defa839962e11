/**
 * The leads CSV export in pages (decision 0029), shared by the server, which answers one page a
 * request, and the browser, which asks for the pages one after another and saves them as one file.
 *
 * Netlify ends a function's answer at 6 MB when it is buffered (20 MB when streamed) and its run at
 * 60 s, so one answer cannot carry 200,000 leads (~26 MB). A page is at most LEAD_EXPORT.pageRows
 * leads and LEAD_EXPORT.pageBytes bytes; its answer says in headers how many leads it holds, how
 * many match (on the first page) and where the next page starts (on every page but the last). The
 * pages are read by keyset, newest first (created_at, id), so each costs the same however deep, and
 * a lead added during the export, newer than the first page, is neither in it nor moves the pages.
 * The first page starts with the byte order mark and the header line; the others are rows only, so
 * the file is the pages' bodies end to end.
 */
import * as z from 'zod/mini';
import { MAX_RECORD_ID } from '../../forms/public/record-id.ts';
import { adminLeadFilterFields, leadFilterFields, leadQueryString, withDatesInOrder } from './lead-list.ts';

export const LEAD_EXPORT = {
  /**
   * Bytes a page's body holds at most: a third of the 6 MB Netlify lets a buffered answer carry,
   * so a page fits whether the platform buffers or streams it.
   */
  pageBytes: 2 * 1024 * 1024,
  /**
   * Leads a page holds at most: ~1.3 MB at the ~130 bytes a typical lead takes (npm run
   * bench:export), so pages end on this count and only leads of unusual length end one on bytes.
   * A page of this many reads in well under a second, far from the 60 s a function may run.
   */
  pageRows: 10_000,
} as const;

/** The answer's headers of the protocol (names as the browser's Headers reads them). */
export const EXPORT_HEADERS = {
  /** Leads in this page. */
  rows: 'X-Export-Rows',
  /** Leads that matched when the export began (first page only): the progress's "of N". */
  total: 'X-Export-Total',
  /** The cursor of the next page; absent on the last one. */
  next: 'X-Export-Next',
} as const;

/** Where a page starts: after the lead of this created_at (ISO, to the microsecond) and id. */
export interface ExportCursor {
  at: string;
  id: number;
}

const CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_(\d{1,10})$/;
const CURSOR_MESSAGE = 'Cursor must be the X-Export-Next header of the previous page: start the export again';

/** The cursor after `lead`, as X-Export-Next gives it and the `cursor` parameter takes it. */
export const exportCursor = (lead: ExportCursor): string => `${lead.at}_${lead.id}`;

/** The `cursor` parameter: an X-Export-Next value, read back into where the page starts. */
export const exportCursorSchema = z.pipe(
  z.string({ error: CURSOR_MESSAGE }).check(
    z.maxLength(40, CURSOR_MESSAGE),
    z.regex(CURSOR_PATTERN, CURSOR_MESSAGE),
    z.refine((value) => {
      const [, at = '', id = ''] = CURSOR_PATTERN.exec(value) ?? [];
      // The moment must exist (Date rounds to the millisecond: compare without the microseconds).
      const moment = new Date(at);
      return (
        !Number.isNaN(moment.getTime()) &&
        moment.toISOString().slice(0, 23) === at.slice(0, 23) &&
        Number(id) >= 1 &&
        Number(id) <= MAX_RECORD_ID
      );
    }, CURSOR_MESSAGE),
  ),
  z.transform((value): ExportCursor => {
    const [, at = '', id = ''] = CURSOR_PATTERN.exec(value) ?? [];
    return { at, id: Number(id) };
  }),
);

const cursorField = {
  cursor: z.pipe(
    z.transform((value) => (value === '' ? undefined : value)),
    z.optional(exportCursorSchema),
  ),
};

/** GET /api/leads/export.csv: the list's filters and, after the first page, the cursor. */
export const leadExportQuerySchema = withDatesInOrder({ ...leadFilterFields, ...cursorField });

/** GET /api/admin/leads/export.csv: the admin's filters and the cursor. */
export const adminLeadExportQuerySchema = withDatesInOrder({ ...adminLeadFilterFields, ...cursorField });

export type LeadExportQuery = z.output<typeof adminLeadExportQuerySchema>;

/** A count header: a whole number of leads (a missing one is not 0: the page is not one of ours). */
const countHeader = z.pipe(z.string().check(z.regex(/^\d{1,9}$/)), z.transform(Number));

/** An error answer of a page (the API's one shape). */
const errorAnswerSchema = z.object({ error: z.string() });

/** A page the server refused or could not give: its status and the API's message. */
export class LeadExportError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface LeadExportProgress {
  /** Leads received so far. */
  done: number;
  /** Leads that matched when the export began (null until the first page says). */
  total: number | null;
}

/**
 * Every page of the export at `path` with `filters`, one after another: the bodies in order (the
 * file is their concatenation). `fetchPage` is the browser's fetch in the islands, a test's or the
 * benchmark's client elsewhere. A page answering an error ends the export with a LeadExportError.
 */
export async function fetchLeadExport(
  path: string,
  filters: Readonly<Record<string, string | number | undefined>>,
  fetchPage: (url: string) => Promise<Response>,
  onProgress: (progress: LeadExportProgress) => void = () => {},
): Promise<Blob[]> {
  const bodies: Blob[] = [];
  const progress: LeadExportProgress = { done: 0, total: null };
  let cursor: string | undefined;
  do {
    const response = await fetchPage(`${path}${leadQueryString({ ...filters, cursor })}`);
    if (!response.ok) {
      const answer = errorAnswerSchema.safeParse(await response.json().catch(() => null));
      throw new LeadExportError(
        response.status,
        answer.success ? answer.data.error : `Request failed (${response.status})`,
      );
    }
    bodies.push(await response.blob());
    const rows = countHeader.safeParse(response.headers.get(EXPORT_HEADERS.rows));
    const total = countHeader.safeParse(response.headers.get(EXPORT_HEADERS.total));
    const next = response.headers.get(EXPORT_HEADERS.next) ?? undefined;
    // Each page starts after the last one's last lead; a page that does not move on would repeat.
    if (!rows.success || (next !== undefined && (rows.data === 0 || next === cursor))) {
      throw new LeadExportError(response.status, 'Unexpected answer from the server');
    }
    progress.done += rows.data;
    if (total.success) progress.total = total.data;
    onProgress({ ...progress });
    cursor = next;
  } while (cursor !== undefined);
  return bodies;
}
