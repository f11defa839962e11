/**
 * GET /api/estimates/{uuid}/pdf: the stored estimate as a one-page PDF, and the same PDF for the
 * estimate e-mail's attachment (made when the e-mail is sent, see src/server/api-app.ts). The uuid is
 * the capability, as for GET /api/estimates/{uuid}.
 */
import { Hono } from 'hono';
import type { Db } from '../../server/db.ts';
import { HttpError, route } from '../../server/http.ts';
import { ESTIMATE_COLUMNS, estimateParams, toEstimate, type EstimateRow } from '../estimate/estimate-row.server.ts';
import { netSheetLines } from '../estimate/net-sheet.ts';
import type { Estimate } from '../estimate/estimate-request.ts';
import { siteContentSchema } from '../content/site-content-schema.ts';
import type { DeliverOptions } from '../email/email.server.ts';
import { renderNetSheetPdf, type NetSheetPdfLine, type PdfImage } from './net-sheet-pdf.server.ts';

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
}

const image = (contentType: PdfImage['contentType'] | null, bytes: Uint8Array | null): PdfImage | null =>
  contentType && bytes ? { contentType, bytes: new Uint8Array(bytes) } : null;

/**
 * One round trip: the estimate, its agent's card with the photo and logo bytes only while the agent
 * shows them (agents.profile_photo and logo are /api/images/{hash}.{ext} URLs of the images table),
 * and the site's disclaimer.
 */
async function findSheet(db: Db, uuid: string): Promise<SheetRow | undefined> {
  const [row] = await db.query<SheetRow>(
    `SELECT ${ESTIMATE_COLUMNS.replace(/(\w+)/g, 'e.$1')}, a.slug AS agent_slug,
            a.first_name, a.last_name, a.professional_title, a.brokerage, a.phone, a.email,
            p.content_type AS photo_type, p.bytes AS photo_bytes, l.content_type AS logo_type, l.bytes AS logo_bytes,
            (SELECT disclaimer FROM site_content WHERE id = 1) AS disclaimer
       FROM estimates e
       JOIN agents a ON a.id = e.agent_id
       LEFT JOIN images p ON a.show_profile_photo AND p.hash = substring(a.profile_photo from '/api/images/([0-9a-f]{64})\\.')
       LEFT JOIN images l ON a.show_logo AND l.hash = substring(a.logo from '/api/images/([0-9a-f]{64})\\.')
      WHERE e.uuid = $1`,
    [uuid],
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

/**
 * The estimate `uuid` as a PDF, or undefined when there is no such estimate. `siteUrl` is the
 * origin its printed link points at. Throws when the stored disclaimer breaks the content's rules
 * (a hand-made change), as the build does, rather than print it.
 */
export async function estimatePdf(db: Db, uuid: string, siteUrl: string): Promise<Uint8Array | undefined> {
  const row = await findSheet(db, uuid.toLowerCase());
  if (!row) return undefined;
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
  return renderNetSheetPdf({
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
  });
}

/** The PDF's file name: the estimate's own id, which the recipient already has in the link. */
export const estimatePdfFilename = (uuid: string): string => `net-sheet-${uuid.toLowerCase()}.pdf`;

export function estimatePdfRoutes(db: Db, siteUrl: (request: Request) => string): Hono {
  const app = new Hono();
  route(app, '/estimates/:uuid/pdf', {
    GET: async (c) => {
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
 * PDF, made as it is sent (see deliverQueued); other kinds carry nothing.
 */
export const estimateAttachments =
  (db: Db, siteUrl: string): NonNullable<DeliverOptions['attachments']> =>
  async ({ kind, estimateUuid }) => {
    if (kind !== 'estimate' || !estimateUuid) return [];
    const pdf = await estimatePdf(db, estimateUuid, siteUrl);
    return pdf ? [{ filename: estimatePdfFilename(estimateUuid), contentType: 'application/pdf', content: pdf }] : [];
  };
