/**
 * GET /api/estimates/{uuid}/pdf: the stored estimate as a one-page PDF, and the same PDF for the
 * estimate e-mail's attachment (see src/server/api-app.ts). The uuid is the capability, as for
 * GET /api/estimates/{uuid}. Finding 4 of the security audit of 2026-11-26 (decision 0036): a PDF is
 * rendered in a worker of the pool, with the agent's images at print size (their print copies), once
 * per version of what it prints, then served from estimate_pdfs; the route has a per-IP limit.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Db } from '../../server/db.ts';
import { HttpError, route } from '../../server/http.ts';
import { WorkerPoolError } from '../../server/worker-pool.server.ts';
import { WorkersBusy } from '../../server/workers-busy.server.ts';
import { perIpCheck } from '../auth/auth-routes.server.ts';
import { enforceRateLimits } from '../auth/rate-limit.server.ts';
import { ESTIMATE_LIMITS } from '../estimate/estimate-limits.server.ts';
import { ESTIMATE_COLUMNS, estimateParams, toEstimate, type EstimateRow } from '../estimate/estimate-row.server.ts';
import { netSheetLines } from '../estimate/net-sheet.ts';
import type { Estimate } from '../estimate/estimate-request.ts';
import { siteContentSchema } from '../content/site-content-schema.ts';
import type { DeliverOptions } from '../email/email.server.ts';
import { netSheetPdfJob, type NetSheetPdfInput, type NetSheetPdfLine, type PdfImage } from './net-sheet-pdf.server.ts';

/** The PDF's title: the product's words, never a name a visitor typed (finding 2). */
export const PDF_TITLE = 'Net sheet';

/** Printed under the site's own disclaimer, which speaks of the site and may be edited to anything. */
export const PDF_DISCLAIMER =
  'This net sheet is an estimate, not legal or tax advice, and not a guarantee; the closing statement your attorney prepares is final.';

/** The estimate, its agent's card and the site's disclaimer, as read in one statement. */
interface SheetRow extends EstimateRow {
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
  disclaimer: unknown;
  /** The PDF made before, and the version of what it printed. */
  pdf_version: string | null;
  pdf_bytes: Uint8Array | null;
}

/**
 * Bumped when the sheet's drawing changes, so that PDFs made before are made again. Part of every
 * PDF's version.
 */
const RENDERER_VERSION = 'net-sheet-1';

/**
 * An image made before print copies existed (uploaded before migration 0022) has none: it is
 * printed as it is only if it is this small, else left off the sheet until it is uploaded again.
 */
const UNCOPIED_IMAGE_MAX_BYTES = 64 * 1024;

const image = (contentType: PdfImage['contentType'] | null, bytes: Uint8Array | null): PdfImage | null =>
  contentType && bytes ? { contentType, bytes: new Uint8Array(bytes) } : null;

/**
 * One round trip: the estimate, its agent's card with the print copies of the photo and logo only
 * while the agent shows them (agents.profile_photo and logo are /api/images/{hash}.{ext} URLs of the
 * images table; an image without a print copy gives its own bytes while they are small), the site's
 * disclaimer, and the PDF made before.
 */
async function findSheet(db: Db, uuid: string): Promise<SheetRow | undefined> {
  const [row] = await db.query<SheetRow>(
    `SELECT ${ESTIMATE_COLUMNS.replace(/(\w+)/g, 'e.$1')}, a.slug AS agent_slug,
            a.first_name, a.last_name, a.professional_title, a.brokerage, a.phone, a.email,
            COALESCE(pp.content_type, p.content_type) AS photo_type, COALESCE(pp.bytes, p.bytes) AS photo_bytes,
            COALESCE(lp.content_type, l.content_type) AS logo_type, COALESCE(lp.bytes, l.bytes) AS logo_bytes,
            (SELECT disclaimer FROM site_content WHERE id = 1) AS disclaimer,
            d.version AS pdf_version, d.bytes AS pdf_bytes
       FROM estimates e
       JOIN agents a ON a.id = e.agent_id
       LEFT JOIN image_print_copies pp ON a.show_profile_photo
             AND pp.hash = substring(a.profile_photo from '/api/images/([0-9a-f]{64})\\.')
       LEFT JOIN images p ON a.show_profile_photo AND pp.hash IS NULL AND octet_length(p.bytes) <= $2
             AND p.hash = substring(a.profile_photo from '/api/images/([0-9a-f]{64})\\.')
       LEFT JOIN image_print_copies lp ON a.show_logo
             AND lp.hash = substring(a.logo from '/api/images/([0-9a-f]{64})\\.')
       LEFT JOIN images l ON a.show_logo AND lp.hash IS NULL AND octet_length(l.bytes) <= $2
             AND l.hash = substring(a.logo from '/api/images/([0-9a-f]{64})\\.')
       LEFT JOIN estimate_pdfs d ON d.estimate_uuid = e.uuid
      WHERE e.uuid = $1`,
    [uuid, UNCOPIED_IMAGE_MAX_BYTES],
  );
  return row;
}

/** A detailed estimate's closing date and notes, printed above the disclaimer. */
function sheetNotes(estimate: Estimate): string[] {
  if (!estimate.sheet) return [];
  const closing = new Date(`${estimate.sheet.closing_date}T12:00:00Z`).toLocaleDateString('en-US', {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
  // The sheet's own disclaimer note is said by PDF_DISCLAIMER.
  const notes = estimate.sheet.notes.filter((note) => note.key !== 'disclaimer').map((note) => note.text);
  return [`Estimated closing: ${closing}.`, ...notes];
}

/** What the sheet prints, from the row. */
function sheetInput(row: SheetRow, siteUrl: string): NetSheetPdfInput {
  const disclaimer = siteContentSchema.shape.disclaimer.parse(row.disclaimer);
  const estimate = toEstimate(row);
  // The lines are in dollars of whole cents (cents / 100): × 100 and rounding gives the cents back exactly.
  // The product's words only (finding 2): the PDF is mailed to typed addresses and travels as a file;
  // the visitor's names of their lines stay on the estimate page its link opens.
  const lines: NetSheetPdfLine[] = netSheetLines(estimate, 'product').map((line) => ({
    label: line.label,
    amountCents: Math.round(line.dollars * 100),
    kind: line.deduction ? 'deduction' : 'credit',
  }));
  return {
    title: PDF_TITLE,
    lines,
    netToSellerCents: Math.round(estimate.net_to_seller * 100),
    date: row.created_at,
    link: `${siteUrl}/estimate/${estimate.uuid}`,
    disclaimer: [...sheetNotes(estimate), PDF_DISCLAIMER, disclaimer].join(' '),
    agent: {
      name: `${row.first_name} ${row.last_name}`.trim(),
      title: row.professional_title,
      brokerage: row.brokerage,
      phone: row.phone,
      email: row.email,
      photo: image(row.photo_type, row.photo_bytes),
      logo: image(row.logo_type, row.logo_bytes),
    },
  };
}

/** The version of a sheet: a hash of everything it prints (the images by their bytes' hash) and of the renderer. */
function versionOf(input: NetSheetPdfInput): string {
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const printed = JSON.stringify(input, (_key, value: unknown) =>
    value instanceof Uint8Array ? digest(value) : value,
  );
  return createHash('sha256').update(RENDERER_VERSION).update(printed).digest('hex');
}

export const PDF_MESSAGES = {
  busy: 'We are busy making other net sheets. Please try again in a minute.',
  tooSlow: 'This net sheet could not be made just now. Please try again in a minute.',
} as const;

/**
 * The estimate `uuid` as a PDF, or undefined when there is no such estimate. `siteUrl` is the
 * origin its printed link points at. Served from estimate_pdfs while what it prints is unchanged,
 * else rendered in a worker and stored. Throws when the stored disclaimer breaks the content's rules
 * (a hand-made change), as the build does, rather than print it; 503 when no worker can make it.
 */
export async function estimatePdf(db: Db, uuid: string, siteUrl: string): Promise<Uint8Array | undefined> {
  const row = await findSheet(db, uuid.toLowerCase());
  if (!row) return undefined;
  const input = sheetInput(row, siteUrl);
  const version = versionOf(input);
  if (row.pdf_bytes && row.pdf_version === version) return new Uint8Array(row.pdf_bytes);
  let pdf: Uint8Array;
  try {
    pdf = await netSheetPdfJob.run(input);
  } catch (error) {
    if (error instanceof WorkerPoolError) {
      throw new WorkersBusy(error.reason === 'busy' ? PDF_MESSAGES.busy : PDF_MESSAGES.tooSlow);
    }
    throw error;
  }
  // The newest version wins; an estimate deleted meanwhile stores nothing.
  await db.query(
    `INSERT INTO estimate_pdfs (estimate_uuid, version, bytes)
     SELECT uuid, $2, $3 FROM estimates WHERE uuid = $1
     ON CONFLICT (estimate_uuid) DO UPDATE SET version = excluded.version, bytes = excluded.bytes, created_at = now()`,
    [row.uuid, version, Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)],
  );
  return pdf;
}

/** The PDF's file name: the estimate's own id, which the recipient already has in the link. */
export const estimatePdfFilename = (uuid: string): string => `net-sheet-${uuid.toLowerCase()}.pdf`;

export function estimatePdfRoutes(
  db: Db,
  siteUrl: (request: Request) => string,
  clientIp: (c: Context) => string,
): Hono {
  const app = new Hono();
  route(app, '/estimates/:uuid/pdf', {
    GET: async (c) => {
      // Counted before anything is read: a script fetching PDFs is held to its allowance.
      await enforceRateLimits(db, perIpCheck(clientIp(c), ESTIMATE_LIMITS.pdfsPerIp, 'estimate-pdf'));
      // A malformed id is an estimate that does not exist, as on the estimate page.
      const parsed = estimateParams.safeParse(c.req.param());
      const uuid = parsed.success ? parsed.data.uuid : undefined;
      const pdf = uuid === undefined ? undefined : await estimatePdf(db, uuid, siteUrl(c.req.raw));
      if (!pdf || uuid === undefined) throw new HttpError(404, 'Estimate not found');
      return c.body(new Uint8Array(pdf), 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${estimatePdfFilename(uuid)}"`,
        // The uuid is the capability and the sheet names the seller: kept by no shared cache.
        'Cache-Control': 'private, no-store',
      });
    },
  });
  return app;
}

/**
 * DeliverOptions.attachments for the e-mail worker: an estimate e-mail carries its net sheet as a
 * PDF, the same stored one the route serves (made now if it is not yet); other kinds carry nothing.
 */
export const estimateAttachments =
  (db: Db, siteUrl: string): NonNullable<DeliverOptions['attachments']> =>
  async ({ kind, estimateUuid }) => {
    if (kind !== 'estimate' || !estimateUuid) return [];
    const pdf = await estimatePdf(db, estimateUuid, siteUrl);
    return pdf ? [{ filename: estimatePdfFilename(estimateUuid), contentType: 'application/pdf', content: pdf }] : [];
  };
