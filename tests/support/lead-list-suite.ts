/** Leads written straight to the table, and the CSV export read back: for the lead list suites. */
import { expect } from 'vitest';
import * as z from 'zod';
import type { Db } from '../../src/platform/db.ts';
import { EXPORT_HEADERS, fetchLeadExport } from '../../src/features/leads/public/lead-export.ts';
import { LEAD_ORIGINS, UTM_KEYS } from '../../src/features/lead-origin/public/lead-origin.ts';

/** A row of the leads list exactly as the API answers it (strict: no field more). */
export const listedLead = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  message: z.string().nullable(),
  source: z.string(),
  created_at: z.string(),
  synced_to_fub: z.union([z.literal(0), z.literal(1)]),
  estimate_uuid: z.string().nullable(),
  page_path: z.string().nullable(),
  origin: z.enum(LEAD_ORIGINS),
  source_label: z.string(),
  utm: z.partialRecord(z.enum(UTM_KEYS), z.string()).nullable(),
  crm_status: z.enum(['queued', 'sending', 'synced', 'ignored', 'stopped', 'rejected']).nullable(),
  crm_error: z.string().nullable(),
  updates: z
    .strictObject({
      state: z.enum(['pending', 'monthly', 'quarterly', 'stopped', 'paused', 'unsubscribed']),
      active_at: z.string().nullable(),
    })
    .nullable(),
});

/** A page of the list with `row`s, as the API answers it. */
export const listedPage = <Row extends z.core.$ZodType>(row: Row) =>
  z.strictObject({
    success: z.literal(true),
    leads: z.array(row),
    towns: z.array(z.strictObject({ slug: z.string(), name: z.string() })),
    total: z.number(),
    page: z.number(),
    per_page: z.number(),
  });

export interface SeedLead {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string | null;
  address?: string | null;
  source?: string;
  created_at?: string;
  page_path?: string | null;
  utm?: Record<string, string> | null;
}

let seeded = 0;

/** Writes leads for `agentId` straight to the table (dates and odd text a form would not send). */
export async function addLeads(db: Db, agentId: number, leads: SeedLead[]): Promise<number[]> {
  const ids: number[] = [];
  for (const lead of leads) {
    seeded += 1;
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, source, consent_marketing, created_at,
                          page_path, utm)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8, $9, $10) RETURNING id`,
      [
        agentId,
        lead.first_name ?? 'Lee',
        lead.last_name ?? `Visitor${seeded}`,
        lead.email ?? `lee.${seeded}@example.com`,
        lead.phone === undefined ? '5165550100' : lead.phone,
        lead.address === undefined ? null : lead.address,
        lead.source ?? 'calculator',
        lead.created_at ?? new Date(Date.UTC(2026, 0, 1) + seeded * 60_000).toISOString(),
        lead.page_path ?? null,
        lead.utm ? JSON.stringify(lead.utm) : null,
      ],
    );
    if (!row) throw new Error('addLeads: no row');
    ids.push(row.id);
  }
  return ids;
}

/** `count` leads one minute apart from `start`, oldest first. */
export const series = (count: number, start = Date.UTC(2026, 5, 1), change: SeedLead = {}): SeedLead[] =>
  Array.from({ length: count }, (_, index) => ({
    last_name: `Series${index + 1}`,
    created_at: new Date(start + index * 60_000).toISOString(),
    ...change,
  }));

/** The CSV's records (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  expect(cell, 'the CSV ends with CRLF').toBe('');
  return records;
}

/** The body as sent, byte order mark included (Response.text() drops it). */
export const csvText = async (response: Response) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());

/** A page of an export as the client got it: its status, body size, leads and how long it took. */
export interface ExportedPage {
  url: string;
  status: number;
  bytes: number;
  rows: number;
  ms: number;
}

/**
 * Every page of the CSV export at `path` with `filters`, asked for as the browser's Export CSV asks
 * (fetchLeadExport, the islands' own loop) through `get`: the file (the pages end to end, byte
 * order mark kept) and each page as it came.
 */
export async function exportCsv(
  get: (url: string) => Promise<Response>,
  path: string,
  filters: Readonly<Record<string, string | number | undefined>> = {},
): Promise<{ text: string; pages: ExportedPage[] }> {
  const pages: ExportedPage[] = [];
  const bodies = await fetchLeadExport(path, filters, async (url) => {
    const started = performance.now();
    const response = await get(url);
    const body = await response.arrayBuffer();
    pages.push({
      url,
      status: response.status,
      bytes: body.byteLength,
      rows: Number(response.headers.get(EXPORT_HEADERS.rows)),
      ms: performance.now() - started,
    });
    return new Response(body, { status: response.status, headers: response.headers });
  });
  const bytes = new Uint8Array(await new Blob(bodies).arrayBuffer());
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), pages };
}
