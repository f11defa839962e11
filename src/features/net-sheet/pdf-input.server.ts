/**
 * What a printed sheet is made of (plain sections of lines and meta, not an estimate), and its
 * schemas as it crosses to the worker that draws it (net-sheet-pdf.server.ts).
 */
import * as z from 'zod';

export interface NetSheetPdfLine {
  label: string;
  /** Integer cents, never negative: `kind` says which way it counts. */
  amountCents: number;
  /**
   * 'sale' is the price the proceeds start from; 'credit' adds to them (a prorated tax the buyer
   * pays back), printed "+$… credit" as on the web sheet; 'deduction' is taken from them.
   */
  kind: 'sale' | 'credit' | 'deduction';
}

/** Lines under one heading of the web sheet (SHEET_GROUPS); the sale price has none. */
export interface NetSheetPdfSection {
  heading: string | null;
  lines: readonly NetSheetPdfLine[];
}

export interface PdfImage {
  bytes: Uint8Array;
  contentType: 'image/jpeg' | 'image/png';
}

export interface NetSheetPdfAgent {
  name: string;
  title: string | null;
  brokerage: string | null;
  /** As it is to be printed (formatted by the caller). */
  phone: string | null;
  email: string;
  /** Only when the agent shows it on their page. */
  photo: PdfImage | null;
  logo: PdfImage | null;
}

/** What every printed sheet has: whose it is, what it is about, where it leads back to. */
export interface PdfCommon {
  title: string;
  /** Printed in the head: "Prepared for", "Property", "Estimated closing"; a null value is left out. */
  facts: readonly { label: string; value: string | null }[];
  /** When it was made; printed as a New York date. */
  date: Date;
  /** The page it was printed from, so the paper leads back to it. */
  link: string;
  /** The sheet's own notes, each a paragraph above the disclaimer. */
  notes: readonly string[];
  /**
   * What is legal but unusual (guard-rails.ts: a closing already past, large concessions), printed
   * in a box under the head as the web sheet shows it: the paper goes to an attorney (issue 22).
   */
  warnings: readonly string[];
  disclaimer: string;
  agent: NetSheetPdfAgent;
}

export interface NetSheetPdfInput extends PdfCommon {
  sections: readonly NetSheetPdfSection[];
  netToSellerCents: number;
}

/** One cell of the offers' grid: text already formatted, or a line's amount. */
export type OffersPdfCell = string | { amountCents: number; kind: NetSheetPdfLine['kind'] } | null;

export interface OffersPdfInput extends PdfCommon {
  /** "Offer 1", "Offer 2 (best net)": one per column. */
  columns: readonly string[];
  /** The terms, the net and the standing of each offer, one row each. */
  summary: readonly { label: string; cells: readonly OffersPdfCell[]; bold?: boolean }[];
  /** Each offer's sheet, line by line, the same line of every offer on one row. */
  sections: readonly { heading: string | null; rows: readonly { label: string; cells: readonly OffersPdfCell[] }[] }[];
}

export const bytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array);
const pdfImageSchema = z.object({ bytes: bytesSchema, contentType: z.enum(['image/jpeg', 'image/png']) }).nullable();

const kindSchema = z.enum(['sale', 'credit', 'deduction']);

/** What every sheet has, as it crosses to the worker. */
const commonSchema = z.object({
  title: z.string(),
  facts: z.array(z.object({ label: z.string(), value: z.string().nullable() })).readonly(),
  date: z.date(),
  link: z.string(),
  notes: z.array(z.string()).readonly(),
  warnings: z.array(z.string()).readonly(),
  disclaimer: z.string(),
  agent: z.object({
    name: z.string(),
    title: z.string().nullable(),
    brokerage: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string(),
    photo: pdfImageSchema,
    logo: pdfImageSchema,
  }),
});

/** NetSheetPdfInput, as it crosses to the worker. */
export const netSheetPdfInputSchema = commonSchema.extend({
  sections: z
    .array(
      z.object({
        heading: z.string().nullable(),
        lines: z.array(z.object({ label: z.string(), amountCents: z.number(), kind: kindSchema })).readonly(),
      }),
    )
    .readonly(),
  netToSellerCents: z.number(),
}) satisfies z.ZodType<NetSheetPdfInput>;

const cellSchema = z.union([z.string(), z.object({ amountCents: z.number(), kind: kindSchema }), z.null()]);

/** OffersPdfInput, as it crosses to the worker. */
export const offersPdfInputSchema = commonSchema.extend({
  columns: z.array(z.string()).readonly(),
  summary: z
    .array(z.object({ label: z.string(), cells: z.array(cellSchema).readonly(), bold: z.boolean().optional() }))
    .readonly(),
  sections: z
    .array(
      z.object({
        heading: z.string().nullable(),
        rows: z.array(z.object({ label: z.string(), cells: z.array(cellSchema).readonly() })).readonly(),
      }),
    )
    .readonly(),
}) satisfies z.ZodType<OffersPdfInput>;
