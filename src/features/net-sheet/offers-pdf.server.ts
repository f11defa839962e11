/**
 * GET /api/offers/{uuid}/pdf: a stored offers comparison as a PDF, downloaded from the offers view
 * (/offers/{uuid}). The uuid is the capability, as for GET /api/offers/{uuid}. Made as the estimate's
 * PDF is (decision 0036): in a worker of the same pool, with the agent's print-size images, under the
 * same per-IP allowance of PDFs. Not stored: see decision 0040.
 */
import type { Context } from 'hono';
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup } from '../../platform/operation.ts';
import { formatMoney, centsToDollars } from '../../ui/money.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';
import { enforceRateLimits } from '../../platform/rate-limit.server.ts';
import { ESTIMATE_LIMITS } from './public/estimate-limits.server.ts';
import { formatPercent } from './public/estimate.ts';
import { productLabel } from './public/net-sheet.ts';
import {
  AGENT_CARD_COLUMNS,
  AGENT_CARD_JOINS,
  agentCard,
  PDF_DISCLAIMER,
  printedVersion,
  storePdf,
  propertyOf,
  renderInWorker,
  UNCOPIED_IMAGE_MAX_BYTES,
  type SheetAgentRow,
} from './public/estimate-pdf.server.ts';
import { financingLabel } from './financing.ts';
import { comparisonParams } from './offer-comparisons.server.ts';
import { longDate } from './long-date.ts';
import { offersPdfJob } from './net-sheet-pdf.server.ts';
import type { OffersPdfCell, OffersPdfInput } from './pdf-input.server.ts';
import { SHEET_GROUPS } from './sheet-groups.ts';
import { storedOfferSchema, type StoredOffer } from './stored-sheet.ts';

export const OFFERS_PDF_TITLE = 'Offers side by side';

/**
 * Bumped when the comparison's drawing changes, so that PDFs made before are made again. Part of
 * every offers PDF's version (printedVersion).
 */
const OFFERS_RENDERER_VERSION = 'offers-1';

interface ComparisonCardRow extends SheetAgentRow {
  uuid: string;
  comparison: unknown;
  created_at: Date;
  details: unknown;
  /** The PDF made before, and the version of what it printed. */
  pdf_version: string | null;
  pdf_bytes: Uint8Array | null;
}

async function findComparisonCard(db: Db, uuid: string): Promise<ComparisonCardRow | undefined> {
  const [row] = await db.query<ComparisonCardRow>(
    `SELECT o.uuid, o.comparison, o.created_at, e.details, ${AGENT_CARD_COLUMNS},
            d.version AS pdf_version, d.bytes AS pdf_bytes
       FROM offer_comparisons o
       JOIN estimates e ON e.uuid = o.estimate_uuid
       JOIN agents a ON a.id = e.agent_id
       ${AGENT_CARD_JOINS}
       LEFT JOIN offer_pdfs d ON d.comparison_uuid = o.uuid
      WHERE o.uuid = $1`,
    [uuid, UNCOPIED_IMAGE_MAX_BYTES],
  );
  return row;
}

const kindOf = (line: { group: string; amount_cents: number }): 'sale' | 'credit' | 'deduction' =>
  line.group === 'sale' ? 'sale' : line.amount_cents > 0 ? 'deduction' : 'credit';

/**
 * Every offer's sheet as rows of one grid: under each heading of the web sheet, each line (by its
 * key) on one row, in the order the offers first list it; an offer without that line has a dash.
 * Labels in the product's words, as on the estimate's PDF (a file travels; finding 2).
 */
export function offerGrid(offers: readonly StoredOffer[]): OffersPdfInput['sections'] {
  return SHEET_GROUPS.map(({ group, heading }) => {
    const labels = new Map<string, string>();
    for (const offer of offers) {
      for (const line of offer.sheet.lines) {
        if (line.group === group && !labels.has(line.key)) labels.set(line.key, productLabel(line));
      }
    }
    const rows = [...labels].map(([key, label]) => ({
      label,
      cells: offers.map((offer): OffersPdfCell => {
        const line = offer.sheet.lines.find((candidate) => candidate.key === key);
        return line ? { amountCents: Math.abs(line.amount_cents), kind: kindOf(line) } : null;
      }),
    }));
    return { heading, rows };
  });
}

const netText = (cents: number): string =>
  cents < 0 ? `${formatMoney(centsToDollars(-cents))} to bring` : formatMoney(centsToDollars(cents));

/** What the comparison's PDF prints, from the row. */
export function offersInput(row: ComparisonCardRow, siteUrl: string): OffersPdfInput {
  const offers = z.array(storedOfferSchema).parse(row.comparison);
  const money = (cents: number) => formatMoney(centsToDollars(cents));
  return {
    title: OFFERS_PDF_TITLE,
    facts: [{ label: 'Property', value: propertyOf(row.details, 'seller') }],
    date: row.created_at,
    link: `${siteUrl}/offers/${row.uuid}`,
    notes: [
      "Each offer's net is the price less the seller concessions, the listing and buyer's agent commissions, the mortgage payoff, New York State transfer tax and the closing fees, on the estimate's terms.",
    ],
    // Each offer's own, named by its column (a past closing is one offer's, not the comparison's).
    warnings: offers.flatMap((offer, index) =>
      offer.sheet.warnings.map((warning) => `Offer ${index + 1}: ${warning.text}`),
    ),
    disclaimer: PDF_DISCLAIMER,
    agent: agentCard(row),
    columns: offers.map((offer, index) => `Offer ${index + 1}${offer.best ? ' (best net)' : ''}`),
    summary: [
      { label: 'Price', cells: offers.map((offer) => money(offer.price_cents)) },
      { label: 'Seller concessions', cells: offers.map((offer) => money(offer.concessions_cents)) },
      { label: "Buyer's agent", cells: offers.map((offer) => formatPercent(offer.buyer_agent_percent)) },
      { label: 'Closing date', cells: offers.map((offer) => longDate(offer.closing_date)) },
      { label: 'Financing', cells: offers.map((offer) => financingLabel(offer.financing)) },
      { label: 'Net to seller', cells: offers.map((offer) => netText(offer.net_cents)), bold: true },
      {
        label: 'Against the best',
        cells: offers.map((offer) =>
          offer.best
            ? 'Best'
            : offer.behind_best_cents === 0
              ? 'Same as best'
              : `${money(offer.behind_best_cents)} less`,
        ),
      },
    ],
    sections: offerGrid(offers),
  };
}

/**
 * The comparison's PDF: served from offer_pdfs while what it prints is unchanged (the estimate PDF's
 * way, estimatePdf), else rendered in a worker and stored; 503 when no worker can make it.
 */
async function offersPdf(db: Db, row: ComparisonCardRow, siteUrl: string): Promise<Uint8Array> {
  const input = offersInput(row, siteUrl);
  const version = printedVersion(OFFERS_RENDERER_VERSION, input);
  if (row.pdf_bytes && row.pdf_version === version) return new Uint8Array(row.pdf_bytes);
  const pdf = await renderInWorker(() => offersPdfJob.run(input));
  await storePdf(db, 'offers', row.uuid, version, pdf);
  return pdf;
}

export const offersPdfFilename = (uuid: string): string => `offers-${uuid.toLowerCase()}.pdf`;

/** A stored offer comparison as a PDF. */
export const offersPdfApi = apiGroup(
  (deps: { db: Db; siteUrl: (request: Request) => string; clientIp: (c: Context) => string }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/offers/:uuid/pdf',
      access: 'public',
      summary: 'A stored offer comparison as a PDF: the offers side by side, then their sheets line by line',
      tag: 'Net sheet',
      params: comparisonParams,
      success: { status: 200, description: 'The PDF', media: 'application/pdf' },
      errors: [404, 429],
      handler: async (c, { db, siteUrl, clientIp }, input) => {
        // One allowance for every PDF an address asks for (the estimate's and the offers').
        await enforceRateLimits(db, perIpCheck(clientIp(c), ESTIMATE_LIMITS.pdfsPerIp, 'estimate-pdf'));
        // A malformed id is a comparison that does not exist, as on the offers page.
        const params = input.validParams();
        const row = params ? await findComparisonCard(db, params.uuid.toLowerCase()) : undefined;
        if (!row) throw new HttpError(404, 'Offers not found');
        const pdf = await offersPdf(db, row, siteUrl(c.req.raw));
        return c.body(new Uint8Array(pdf), 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `inline; filename="${offersPdfFilename(row.uuid)}"`,
          // The uuid is the capability: kept by no shared cache.
          'Cache-Control': 'private, no-store',
        });
      },
    }),
  ],
);
