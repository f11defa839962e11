/**
 * GET /api/estimates/{uuid}/pdf: the stored estimate as a PDF for the seller who downloads it from
 * their estimate page, and its mailed twin for the estimate e-mail's attachment (see
 * src/app/api-app.ts). The uuid is the capability, as for GET /api/estimates/{uuid}. Finding 4 of
 * the security audit of 2026-11-26 (decision 0036): a PDF is rendered in a worker of the pool, with
 * the agent's images at print size (their print copies); the downloaded one once per version of what
 * it prints, then served from estimate_pdfs; the route has a per-IP limit. Finding 2 (decision 0040):
 * the mailed one carries only the product's words; the seller's name and town are on the downloaded one.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Db } from '../../../platform/db.ts';
import { HttpError } from '../../../platform/http.ts';
import { apiGroup } from '../../../platform/operation.ts';
import { WorkerPoolError } from '../../../platform/worker-pool.server.ts';
import { WorkersBusy } from '../../../platform/workers-busy.server.ts';
import { perIpCheck } from '../../../platform/per-ip.server.ts';
import { enforceRateLimits } from '../../../platform/rate-limit.server.ts';
import { ESTIMATE_LIMITS } from './estimate-limits.server.ts';
import { ESTIMATE_COLUMNS, estimateParams, toEstimate, type EstimateRow } from './estimate-row.server.ts';
import { netSheetLines } from './net-sheet.ts';
import { formatPhone } from '../../../ui/phone.ts';
import { netSheetDetailsSchema } from '../details.ts';
import { SHEET_GROUPS } from '../sheet-groups.ts';
import { longDate } from '../long-date.ts';
import { netSheetPdfJob } from '../net-sheet-pdf.server.ts';
import type { NetSheetPdfAgent, NetSheetPdfInput, OffersPdfInput, PdfImage } from '../pdf-input.server.ts';
import * as z from 'zod';

/**
 * The East End note names the place the visitor typed (a hamlet, a village): the mailed twin says
 * the same without it (finding 2), and the estimate online keeps the amount.
 */
const EAST_END_NOTE_BY_MAIL =
  'The buyer pays the Peconic Bay tax on an East End sale (its amount is on the estimate online): not a seller cost, but it weighs in negotiations.';

/** The PDF's title: the product's words, never a name a visitor typed (finding 2). */
export const PDF_TITLE = 'Net sheet';

/**
 * The sheet's fine print. The site's footer disclaimer is not printed: it speaks of the site (its
 * marketing figures) and may be edited to anything (newcomer audit 2026-11-26, minor 14).
 */
export const PDF_DISCLAIMER =
  'This net sheet is an estimate, not legal or tax advice, and not a guarantee; the closing statement your attorney prepares is final.';

/** The estimate, its agent's card and the site's disclaimer, as read in one statement. */
/** The agent's card with the print copies of the photo and logo (AGENT_CARD_COLUMNS, AGENT_CARD_JOINS). */
export interface SheetAgentRow {
  first_name: string;
  last_name: string;
  professional_title: string | null;
  brokerage: string | null;
  phone: string | null;
  email: string;
  photo_type: PdfImage['contentType'] | null;
  photo_bytes: Uint8Array | null;
  logo_type: PdfImage['contentType'] | null;
  logo_bytes: Uint8Array | null;
}

/** The estimate and its agent's card, as read in one statement. */
interface SheetRow extends EstimateRow, SheetAgentRow {
  /** The PDF made before, and the version of what it printed. */
  pdf_version: string | null;
  pdf_bytes: Uint8Array | null;
}

/**
 * Bumped when the sheet's drawing changes, so that PDFs made before are made again. Part of every
 * PDF's version.
 */
const RENDERER_VERSION = 'net-sheet-3';

/**
 * An image made before print copies existed (uploaded before migration 0022) has none: it is
 * printed as it is only if it is this small, else left off the sheet until it is uploaded again.
 */
export const UNCOPIED_IMAGE_MAX_BYTES = 64 * 1024;

const image = (contentType: PdfImage['contentType'] | null, bytes: Uint8Array | null): PdfImage | null =>
  contentType && bytes ? { contentType, bytes: new Uint8Array(bytes) } : null;

/** The columns of SheetAgentRow, from agents `a` and AGENT_CARD_JOINS. */
export const AGENT_CARD_COLUMNS = `a.first_name, a.last_name, a.professional_title, a.brokerage, a.phone, a.email,
  COALESCE(pp.content_type, p.content_type) AS photo_type, COALESCE(pp.bytes, p.bytes) AS photo_bytes,
  COALESCE(lp.content_type, l.content_type) AS logo_type, COALESCE(lp.bytes, l.bytes) AS logo_bytes`;

/** The agent's images at print size (see findSheet); $2 is UNCOPIED_IMAGE_MAX_BYTES. */
export const AGENT_CARD_JOINS = `
  LEFT JOIN image_print_copies pp ON a.show_profile_photo
        AND pp.hash = substring(a.profile_photo from '/api/images/([0-9a-f]{64})\\.')
  LEFT JOIN images p ON a.show_profile_photo AND pp.hash IS NULL AND octet_length(p.bytes) <= $2
        AND p.hash = substring(a.profile_photo from '/api/images/([0-9a-f]{64})\\.')
  LEFT JOIN image_print_copies lp ON a.show_logo
        AND lp.hash = substring(a.logo from '/api/images/([0-9a-f]{64})\\.')
  LEFT JOIN images l ON a.show_logo AND lp.hash IS NULL AND octet_length(l.bytes) <= $2
        AND l.hash = substring(a.logo from '/api/images/([0-9a-f]{64})\\.')`;

/**
 * One round trip: the estimate, its agent's card with the print copies of the photo and logo only
 * while the agent shows them (agents.profile_photo and logo are /api/images/{hash}.{ext} URLs of the
 * images table; an image without a print copy gives its own bytes while they are small), and the
 * PDF made before.
 */
async function findSheet(db: Db, uuid: string): Promise<SheetRow | undefined> {
  const [row] = await db.query<SheetRow>(
    `SELECT ${ESTIMATE_COLUMNS.replace(/(\w+)/g, 'e.$1')}, a.slug AS agent_slug, ${AGENT_CARD_COLUMNS},
            d.version AS pdf_version, d.bytes AS pdf_bytes
       FROM estimates e
       JOIN agents a ON a.id = e.agent_id
       ${AGENT_CARD_JOINS}
       LEFT JOIN estimate_pdfs d ON d.estimate_uuid = e.uuid
      WHERE e.uuid = $1`,
    [uuid, UNCOPIED_IMAGE_MAX_BYTES],
  );
  return row;
}

/**
 * Who the PDF is for. `seller`: downloaded from the estimate page, which already shows whatever the
 * visitor typed, so it may carry the seller's name and town. `mail`: attached to an e-mail sent to a
 * typed address, so only the product's words (security audit 2026-11-26, finding 2).
 */
export type PdfAudience = 'seller' | 'mail';

/** The two details the PDF's head names; anything else in the column is the sheet's business. */
const placeDetailsSchema = z.object({
  county: z.catch(netSheetDetailsSchema.shape.county, undefined),
  town: z.catch(netSheetDetailsSchema.shape.town, undefined),
});

/** "Huntington, Suffolk County" for the seller; the county alone (the product's word) in the mail. */
export function propertyOf(details: unknown, audience: PdfAudience): string | null {
  const parsed = placeDetailsSchema.safeParse(details);
  if (!parsed.success) return null;
  const { county, town } = parsed.data;
  const parts = [audience === 'seller' ? town : undefined, county ? `${county} County, NY` : undefined];
  const named = parts.filter((part): part is string => Boolean(part));
  return named.length > 0 ? named.join(', ') : null;
}

/** The agent's card as the PDFs print it: the phone as the site shows it. */
export function agentCard(row: SheetAgentRow): NetSheetPdfAgent {
  return {
    name: `${row.first_name} ${row.last_name}`.trim(),
    title: row.professional_title,
    brokerage: row.brokerage,
    phone: row.phone ? formatPhone(row.phone) : null,
    email: row.email,
    photo: image(row.photo_type, row.photo_bytes),
    logo: image(row.logo_type, row.logo_bytes),
  };
}

/** What the sheet prints, from the row. */
function sheetInput(row: SheetRow, siteUrl: string, audience: PdfAudience): NetSheetPdfInput {
  const estimate = toEstimate(row);
  // The lines are in dollars of whole cents (cents / 100): × 100 and rounding gives the cents back exactly.
  // The product's words only (finding 2): the PDF travels as a file; the visitor's names of their
  // lines stay on the estimate page its link opens.
  const lines = netSheetLines(estimate, 'product');
  const sections = SHEET_GROUPS.map(({ group, heading }) => ({
    heading,
    lines: lines
      .filter((line) => line.group === group)
      .map((line) => ({
        label: line.label,
        amountCents: Math.round(line.dollars * 100),
        kind: line.group === 'sale' ? ('sale' as const) : line.deduction ? ('deduction' as const) : ('credit' as const),
      })),
  }));
  const name = audience === 'seller' ? row.recipient_name?.trim() || null : null;
  return {
    title: PDF_TITLE,
    facts: [
      { label: 'Prepared for', value: name },
      { label: 'Property', value: propertyOf(row.details, audience) },
      { label: 'Estimated closing', value: estimate.sheet ? longDate(estimate.sheet.closing_date) : null },
    ],
    sections,
    netToSellerCents: Math.round(estimate.net_to_seller * 100),
    date: row.created_at,
    link: `${siteUrl}/estimate/${estimate.uuid}`,
    // The sheet's own disclaimer note is said by PDF_DISCLAIMER.
    notes:
      estimate.sheet?.notes
        .filter((note) => note.key !== 'disclaimer')
        .map((note) => (audience === 'mail' && note.key === 'east_end' ? EAST_END_NOTE_BY_MAIL : note.text)) ?? [],
    warnings: estimate.sheet?.warnings.map((warning) => warning.text) ?? [],
    disclaimer: PDF_DISCLAIMER,
    agent: agentCard(row),
  };
}

/**
 * The version of a printed sheet: a hash of everything it prints (the images by their bytes' hash)
 * and of its renderer's version. A stored PDF is served only while its version matches.
 */
export function printedVersion(renderer: string, input: NetSheetPdfInput | OffersPdfInput): string {
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const printed = JSON.stringify(input, (_key, value: unknown) =>
    value instanceof Uint8Array ? digest(value) : value,
  );
  return createHash('sha256').update(renderer).update(printed).digest('hex');
}

const versionOf = (input: NetSheetPdfInput): string => printedVersion(RENDERER_VERSION, input);

export const PDF_MESSAGES = {
  busy: 'We are busy making other net sheets. Please try again in a minute.',
  tooSlow: 'This net sheet could not be made just now. Please try again in a minute.',
} as const;

/** `render` in a worker of the pool; 503 (WorkersBusy) when no worker can make it. */
export async function renderInWorker(render: () => Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof WorkerPoolError) {
      throw new WorkersBusy(error.reason === 'busy' ? PDF_MESSAGES.busy : PDF_MESSAGES.tooSlow);
    }
    throw error;
  }
}

/**
 * The estimate `uuid` as a PDF for `audience`, or undefined when there is no such estimate.
 * `siteUrl` is the origin its printed link points at. The seller's is served from estimate_pdfs
 * while what it prints is unchanged, else rendered in a worker and stored. The mailed one is the
 * same file when both print the same (no name, no town); else it is rendered for each e-mail and
 * not stored (sends have their own limits; decision 0040): the same sheet renders to the same bytes, so
 * a retried e-mail carries the same file. 503 when no worker can make it.
 */
export async function estimatePdf(
  db: Db,
  uuid: string,
  siteUrl: string,
  audience: PdfAudience,
): Promise<Uint8Array | undefined> {
  const row = await findSheet(db, uuid.toLowerCase());
  if (!row) return undefined;
  const input = sheetInput(row, siteUrl, audience);
  const version = versionOf(input);
  // A sheet with no name and no town prints the same for both: the stored one is the mailed one too.
  if (row.pdf_bytes && row.pdf_version === version) return new Uint8Array(row.pdf_bytes);
  const pdf = await renderInWorker(() => netSheetPdfJob.run(input));
  // The seller's file is stored; the mailed one only when it is that same file, never over it.
  if (audience === 'mail' && versionOf(sheetInput(row, siteUrl, 'seller')) !== version) return pdf;
  await storePdf(db, 'estimate', row.uuid, version, pdf);
  return pdf;
}

/** Where each kind of PDF is stored, keyed by the row it prints (migrations 0023 and 0024). */
const PDF_STORES = {
  estimate: { table: 'estimate_pdfs', key: 'estimate_uuid', printed: 'estimates' },
  offers: { table: 'offer_pdfs', key: 'comparison_uuid', printed: 'offer_comparisons' },
} as const;

/**
 * Stores a rendered PDF as the one to serve while `version` matches. The newest version wins; a row
 * deleted meanwhile stores nothing (the insert reads it, and the stored PDF goes with it anyway).
 */
export async function storePdf(
  db: Db,
  kind: keyof typeof PDF_STORES,
  uuid: string,
  version: string,
  pdf: Uint8Array,
): Promise<void> {
  const { table, key, printed } = PDF_STORES[kind];
  await db.query(
    `INSERT INTO ${table} (${key}, version, bytes)
     SELECT uuid, $2, $3 FROM ${printed} WHERE uuid = $1
     ON CONFLICT (${key}) DO UPDATE SET version = excluded.version, bytes = excluded.bytes, created_at = now()`,
    [uuid, version, Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)],
  );
}

/** The PDF's file name: the estimate's own id, which the recipient already has in the link. */
export const estimatePdfFilename = (uuid: string): string => `net-sheet-${uuid.toLowerCase()}.pdf`;

/** The estimate's net sheet as a PDF, for the seller who downloads it. */
export const estimatePdfApi = apiGroup(
  (deps: { db: Db; siteUrl: (request: Request) => string; clientIp: (c: Context) => string }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/estimates/:uuid/pdf',
      access: 'public',
      summary: "The estimate's net sheet as a PDF, headed with the seller's name, the property and the closing date",
      tag: 'Estimates',
      params: estimateParams,
      success: { status: 200, description: 'The PDF', media: 'application/pdf' },
      errors: [404, 429],
      handler: async (c, { db, siteUrl, clientIp }, input) => {
        // Counted before anything is read: a script fetching PDFs is held to its allowance.
        await enforceRateLimits(db, perIpCheck(clientIp(c), ESTIMATE_LIMITS.pdfsPerIp, 'estimate-pdf'));
        // A malformed id is an estimate that does not exist, as on the estimate page.
        const uuid = input.validParams()?.uuid;
        const pdf = uuid === undefined ? undefined : await estimatePdf(db, uuid, siteUrl(c.req.raw), 'seller');
        if (!pdf || uuid === undefined) throw new HttpError(404, 'Estimate not found');
        return c.body(new Uint8Array(pdf), 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `inline; filename="${estimatePdfFilename(uuid)}"`,
          // The uuid is the capability and the sheet names the seller: kept by no shared cache.
          'Cache-Control': 'private, no-store',
        });
      },
    }),
  ],
);
