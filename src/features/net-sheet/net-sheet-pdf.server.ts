/**
 * The printable net sheet and offers comparison, drawn with pdf-lib on as many Letter pages as they
 * need (docs/decisions/0016-pdf-net-sheets.md, 0040-the-printed-sheets.md). The renderers take plain
 * sections of lines and meta, not an estimate, so any net sheet (the quick one, the detailed Long
 * Island one, an offer's) prints through them unchanged.
 * It runs as a job of the worker pool (netSheetPdfJob, decision 0036), never
 * on the event loop; so this module imports only what a worker can run (see the pool's module).
 */
// Types only: pdf-lib takes ~300 ms to load, so the first sheet loads it, not the API function's
// cold start (decision 0026).
import type { Color, PDFDocument, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import * as z from 'zod';
import { workerJob } from '../../server/worker-pool.server.ts';
import { centsToDollars, formatMoney } from '../../ui/money.ts';
import { onFirstUse } from '../../ui/on-first-use.ts';

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
interface PdfCommon {
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

/** US Letter in points (72 per inch). */
const PAGE = { width: 612, height: 792 } as const;
const MARGIN = 54;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
/** The sheet's colours as [red, green, blue], 0 to 1. */
const INK = [0.1, 0.12, 0.16] as const;
const MUTED = [0.38, 0.42, 0.48] as const;
const RULE = [0.85, 0.87, 0.9] as const;
/** The web sheet's notice-warning: a pale amber box with an amber edge. */
const WARNING_FILL = [1, 0.97, 0.88] as const;
const WARNING_EDGE = [0.85, 0.6, 0.1] as const;

/** The lowest baseline of the flowing text; the page number sits below it. */
const BOTTOM = MARGIN;
const PAGE_NUMBER_Y = MARGIN - 24;
/** The size of a sheet's lines: the same on every sheet, which runs onto more pages when it is long. */
const LINE_SIZE = 10;
const GRID_SIZE = 9;

const nyDate = onFirstUse(() => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'America/New_York' }));

/** The estimate's date as a New York reader would say it, whatever the server's time zone. */
export const formatNewYorkDate = (date: Date): string => nyDate().format(date);

const money = (cents: number): string => formatMoney(centsToDollars(cents));

/**
 * The standard fonts encode WinAnsi only: anything else (an emoji in a name, Cyrillic) would make
 * pdf-lib throw, so it is replaced by "?" rather than losing the whole sheet. Typographic dashes
 * and quotes are in WinAnsi and stay.
 */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(text.replace(/\s+/g, ' ').trim(), (char) =>
    known.has(char.codePointAt(0) ?? 0) ? char : '?',
  ).join('');
}

/** `text` cut to `width` with an ellipsis when it does not fit. */
function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let end = text.length;
  while (end > 0 && font.widthOfTextAtSize(`${text.slice(0, end).trimEnd()}…`, size) > width) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * `text` in at most `maxLines` lines of `width`: broken between words (inside a word too long for
 * a line), the last line cut with an ellipsis when the text goes on.
 */
export function wrapText(font: PDFFont, text: string, size: number, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  const words = text.split(' ').filter(Boolean);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    const candidate = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    // A word wider than the line is split where it reaches the edge.
    while (font.widthOfTextAtSize(current, size) > width && lines.length < maxLines) {
      let end = current.length - 1;
      while (end > 1 && font.widthOfTextAtSize(current.slice(0, end), size) > width) end -= 1;
      lines.push(current.slice(0, end));
      current = current.slice(end);
    }
    if (lines.length >= maxLines) {
      const last = lines.slice(0, maxLines);
      const rest = [last.pop() ?? '', current, ...words.slice(index + 1)].join(' ');
      return [...last, fit(font, rest, size, width)];
    }
  }
  if (current) lines.push(current);
  return lines;
}

interface Pen {
  document: PDFDocument;
  page: PDFPage;
  regular: PDFFont;
  bold: PDFFont;
  /** The baseline of the next line, from the bottom of the page. */
  y: number;
  colors: { ink: Color; muted: Color; rule: Color; warningFill: Color; warningEdge: Color };
  /** What heads each page after the first: the sheet's title and the agent's name. */
  running: string;
}

/** A new page, headed by the running title, when less than `height` is left above the bottom. */
function room(pen: Pen, height: number): void {
  if (pen.y - height >= BOTTOM) return;
  pen.page = pen.document.addPage([PAGE.width, PAGE.height]);
  pen.y = PAGE.height - MARGIN;
  const text = printable(pen.regular, pen.running);
  pen.y -= 9;
  pen.page.drawText(fit(pen.regular, text, 9, CONTENT_WIDTH), {
    x: MARGIN,
    y: pen.y,
    size: 9,
    font: pen.regular,
    color: pen.colors.muted,
  });
  pen.y -= 8;
  rule(pen);
  pen.y -= 10;
}

function rule(pen: Pen): void {
  pen.page.drawLine({
    start: { x: MARGIN, y: pen.y },
    end: { x: PAGE.width - MARGIN, y: pen.y },
    color: pen.colors.rule,
  });
}

function write(
  pen: Pen,
  text: string,
  {
    size,
    bold = false,
    color = pen.colors.ink,
    x = MARGIN,
    width = CONTENT_WIDTH,
    maxLines = 1,
    gap = 1.3,
  }: {
    size: number;
    bold?: boolean;
    color?: Color;
    x?: number;
    width?: number;
    maxLines?: number;
    gap?: number;
  },
): void {
  const font = bold ? pen.bold : pen.regular;
  for (const line of wrapText(font, printable(font, text), size, width, maxLines)) {
    room(pen, size * gap);
    pen.y -= size * gap;
    pen.page.drawText(line, { x, y: pen.y, size, font, color });
  }
}

async function embed(document: PDFDocument, image: PdfImage | null): Promise<PDFImage | null> {
  if (!image) return null;
  return image.contentType === 'image/png' ? document.embedPng(image.bytes) : document.embedJpg(image.bytes);
}

/** Draws `image` scaled into a box of `width` x `height`, top-right corner at (right, top). */
function drawFitted(page: PDFPage, image: PDFImage, right: number, top: number, width: number, height: number): number {
  const scale = Math.min(width / image.width, height / image.height, 1);
  const drawn = { width: image.width * scale, height: image.height * scale };
  page.drawImage(image, { x: right - drawn.width, y: top - drawn.height, ...drawn });
  return drawn.width;
}

/**
 * A line's amount as the web sheet writes it: the sale price as it is, a cost with a minus, a
 * credit with a plus and the word (a bare figure beside minus signs reads as a cost).
 */
export function pdfAmount(amountCents: number, kind: NetSheetPdfLine['kind']): string {
  if (kind === 'deduction') return `-${money(amountCents)}`;
  if (kind === 'credit') return `+${money(amountCents)} credit`;
  return money(amountCents);
}

/** A document with its fonts, and the pen on its first page. */
async function openDocument(common: PdfCommon): Promise<Pen> {
  const pdfLib = await import('pdf-lib');
  const document = await pdfLib.PDFDocument.create();
  const regular = await document.embedFont(pdfLib.StandardFonts.Helvetica);
  const pen: Pen = {
    document,
    page: document.addPage([PAGE.width, PAGE.height]),
    regular,
    bold: await document.embedFont(pdfLib.StandardFonts.HelveticaBold),
    y: PAGE.height - MARGIN,
    colors: {
      ink: pdfLib.rgb(...INK),
      muted: pdfLib.rgb(...MUTED),
      rule: pdfLib.rgb(...RULE),
      warningFill: pdfLib.rgb(...WARNING_FILL),
      warningEdge: pdfLib.rgb(...WARNING_EDGE),
    },
    running: `${common.title} (continued) · ${common.agent.name}`,
  };
  document.setTitle(printable(regular, common.title));
  // Both dates are the sheet's own (pdf-lib stamps the modification date with the clock): the same
  // sheet is then the same bytes, so a retried e-mail's payload matches its idempotency key.
  document.setCreationDate(common.date);
  document.setModificationDate(common.date);
  return pen;
}

/** The agent's card with photo and logo, the title, and the facts (prepared for, property, closing). */
async function drawHead(pen: Pen, common: PdfCommon, dateLabel: string): Promise<void> {
  const [photo, logo] = await Promise.all([
    embed(pen.document, common.agent.photo),
    embed(pen.document, common.agent.logo),
  ]);
  const top = pen.y;
  let right = PAGE.width - MARGIN;
  if (logo) right -= drawFitted(pen.page, logo, right, top, 120, 60) + 12;
  if (photo) right -= drawFitted(pen.page, photo, right, top, 72, 72) + 12;
  const cardWidth = right - MARGIN;
  const { agent } = common;
  write(pen, agent.name, { size: 16, bold: true, width: cardWidth, maxLines: 2 });
  for (const detail of [agent.title, agent.brokerage, [agent.phone, agent.email].filter(Boolean).join('  ·  ')]) {
    if (detail) write(pen, detail, { size: 10, color: pen.colors.muted, width: cardWidth, maxLines: 2 });
  }
  pen.y = Math.min(pen.y, top - 72) - 18;
  rule(pen);

  write(pen, common.title, { size: 20, bold: true, maxLines: 2, gap: 1.4 });
  pen.y -= 6;
  const labelWidth = 110;
  const facts = [...common.facts, { label: dateLabel, value: formatNewYorkDate(common.date) }];
  for (const { label, value } of facts) {
    if (value === null) continue;
    // The label first, so that the text reads "Prepared for Pat Seller" when it is copied.
    room(pen, 11 * 1.45);
    pen.page.drawText(printable(pen.regular, label), {
      x: MARGIN,
      y: pen.y - 11 * 1.45,
      size: 10,
      font: pen.regular,
      color: pen.colors.muted,
    });
    write(pen, value, { size: 11, x: MARGIN + labelWidth, width: CONTENT_WIDTH - labelWidth, maxLines: 2, gap: 1.45 });
  }
  pen.y -= 16;
}

/**
 * The sheet's warnings in a box headed "Please check", above the figures as on the web sheet
 * (SheetWarnings); nothing when there are none. Kept on one page: a box is at most a few lines.
 */
function drawWarnings(pen: Pen, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  const size = 9.5;
  const heading = { size: size + 1, gap: 1.4 };
  // The heading's line height already leaves room above its capitals: less padding on top.
  const pad = { top: 4, bottom: 7, side: 8 };
  const width = CONTENT_WIDTH - 2 * pad.side - 4;
  const wrapped = warnings.map((warning) =>
    wrapText(pen.regular, printable(pen.regular, warning), size, width - 10, 6),
  );
  const textHeight =
    heading.size * heading.gap + wrapped.reduce((total, lines) => total + lines.length * size * 1.35 + 3, 0);
  const height = pad.top + textHeight + pad.bottom;
  room(pen, height + 6);
  pen.page.drawRectangle({
    x: MARGIN,
    y: pen.y - height,
    width: CONTENT_WIDTH,
    height,
    color: pen.colors.warningFill,
  });
  pen.page.drawRectangle({ x: MARGIN, y: pen.y - height, width: 3, height, color: pen.colors.warningEdge });
  pen.y -= pad.top;
  const x = MARGIN + pad.side + 4;
  write(pen, 'Please check'.toUpperCase(), { size: heading.size, bold: true, x, width, gap: heading.gap });
  for (const lines of wrapped) {
    pen.y -= 3;
    lines.forEach((line, index) => {
      pen.y -= size * 1.35;
      if (index === 0) pen.page.drawText('•', { x, y: pen.y, size, font: pen.regular, color: pen.colors.ink });
      pen.page.drawText(line, { x: x + 10, y: pen.y, size, font: pen.regular, color: pen.colors.ink });
    });
  }
  pen.y -= pad.bottom + 6;
}

/** A heading of the web sheet's, kept with the row under it. */
function drawHeading(pen: Pen, heading: string, size: number): void {
  room(pen, size * 1.6 + 4 + size * 1.45 + 4);
  pen.y -= 4;
  write(pen, heading.toUpperCase(), { size: size - 1.5, bold: true, color: pen.colors.muted, gap: 1.6 });
  pen.y -= 2;
}

/** The notes, the link and the disclaimer, after the figures. */
function drawFoot(pen: Pen, common: PdfCommon): void {
  const lines = (text: string, size: number, maxLines: number) =>
    wrapText(pen.regular, printable(pen.regular, text), size, CONTENT_WIDTH, maxLines).length * size * 1.3;
  const height =
    common.notes.reduce((total, note) => total + lines(note, 9, 8), 0) +
    4 +
    lines(`View this online: ${common.link}`, 9, 2) +
    lines(common.disclaimer, 8, 8);
  // Kept together where it fits: on a page of its own the running head's rule stands in for this one.
  const page = pen.page;
  room(pen, height + 14);
  if (pen.page === page) {
    pen.y -= 14;
    rule(pen);
  }
  for (const note of common.notes) write(pen, note, { size: 9, maxLines: 8 });
  pen.y -= 4;
  write(pen, `View this online: ${common.link}`, { size: 9, color: pen.colors.muted, maxLines: 2 });
  write(pen, common.disclaimer, { size: 8, color: pen.colors.muted, maxLines: 8 });
}

/** "Page 1 of 2" at the foot of every page, once the pages are known. */
async function finish(pen: Pen): Promise<Uint8Array> {
  const pages = pen.document.getPages();
  pages.forEach((page, index) => {
    const text = `Page ${index + 1} of ${pages.length}`;
    page.drawText(text, {
      x: PAGE.width - MARGIN - pen.regular.widthOfTextAtSize(text, 8),
      y: PAGE_NUMBER_Y,
      size: 8,
      font: pen.regular,
      color: pen.colors.muted,
    });
  });
  return pen.document.save();
}

/** The net sheet as a PDF: as many Letter pages as its lines need. */
export async function renderNetSheetPdf(input: NetSheetPdfInput): Promise<Uint8Array> {
  const pen = await openDocument(input);
  await drawHead(pen, input, 'Estimated on');
  drawWarnings(pen, input.warnings);

  // The lines under the web sheet's headings: label on the left (wrapped), amount on the right.
  const size = LINE_SIZE;
  const amountWidth = 150;
  const labelWidth = CONTENT_WIDTH - amountWidth - 12;
  for (const section of input.sections) {
    if (section.lines.length === 0) continue;
    if (section.heading) drawHeading(pen, section.heading, size);
    for (const line of section.lines) {
      const label = wrapText(pen.regular, printable(pen.regular, line.label), size, labelWidth, 2);
      room(pen, label.length * size * 1.45 + 4);
      const amount = pdfAmount(line.amountCents, line.kind);
      const before = pen.y;
      write(pen, line.label, { size, width: labelWidth, maxLines: 2, gap: 1.45 });
      const amountX = PAGE.width - MARGIN - pen.regular.widthOfTextAtSize(amount, size);
      pen.page.drawText(amount, {
        x: amountX,
        y: before - size * 1.45,
        size,
        font: pen.regular,
        color: pen.colors.ink,
      });
      pen.y -= 4;
      rule(pen);
    }
  }

  // The net, largest; a negative net is what the seller brings to closing, as on the web page.
  const negative = input.netToSellerCents < 0;
  const netLabel = negative ? 'Amount you would bring to closing' : 'Your Net Proceeds';
  const net = money(Math.abs(input.netToSellerCents));
  room(pen, 14 * 1.8 + 10);
  pen.y -= 10;
  write(pen, netLabel, { size: 14, bold: true, gap: 1.8 });
  pen.page.drawText(net, {
    x: PAGE.width - MARGIN - pen.bold.widthOfTextAtSize(net, 18),
    y: pen.y,
    size: 18,
    font: pen.bold,
    color: pen.colors.ink,
  });

  drawFoot(pen, input);
  return finish(pen);
}

/** A cell's text: formatted text as it is, an amount as the sheet writes it, a missing line as a dash. */
const cellText = (cell: OffersPdfCell): string =>
  cell === null ? '–' : typeof cell === 'string' ? cell : pdfAmount(cell.amountCents, cell.kind);

/** The offers side by side: their terms and nets, then their sheets line by line, one column each. */
export async function renderOffersPdf(input: OffersPdfInput): Promise<Uint8Array> {
  const pen = await openDocument(input);
  await drawHead(pen, input, 'Compared on');
  drawWarnings(pen, input.warnings);

  const size = GRID_SIZE;
  const labelWidth = 160;
  const columnWidth = (CONTENT_WIDTH - labelWidth) / Math.max(1, input.columns.length);
  const row = (label: string, cells: readonly OffersPdfCell[], bold = false): void => {
    const font = bold ? pen.bold : pen.regular;
    // An empty label (the columns' row) still takes its line.
    const lines = Math.max(1, wrapText(font, printable(font, label), size, labelWidth - 8, 2).length);
    room(pen, lines * size * 1.5 + 4);
    const before = pen.y;
    write(pen, label, { size, bold, width: labelWidth - 8, maxLines: 2, gap: 1.5 });
    pen.y = Math.min(pen.y, before - size * 1.5);
    cells.forEach((cell, index) => {
      const text = fit(font, printable(font, cellText(cell)), size, columnWidth - 6);
      const right = MARGIN + labelWidth + columnWidth * (index + 1);
      pen.page.drawText(text, {
        x: right - font.widthOfTextAtSize(text, size),
        y: before - size * 1.5,
        size,
        font,
        color: pen.colors.ink,
      });
    });
    pen.y -= 4;
    rule(pen);
  };

  row('', input.columns, true);
  for (const line of input.summary) row(line.label, line.cells, line.bold);
  for (const section of input.sections) {
    if (section.rows.length === 0) continue;
    if (section.heading) drawHeading(pen, section.heading, size + 1.5);
    for (const line of section.rows) row(line.label, line.cells);
  }

  drawFoot(pen, input);
  return finish(pen);
}

/**
 * The time a PDF job may take in its worker: a sheet with its print-size images renders in about a
 * tenth of a second; one still at work after this is stopped.
 */
export const PDF_BUDGET_MS = 5000;

const bytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array);
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
const netSheetPdfInputSchema = commonSchema.extend({
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
const offersPdfInputSchema = commonSchema.extend({
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

/** renderNetSheetPdf in a worker of the pool. */
export const netSheetPdfJob = workerJob({
  name: 'net-sheet-pdf',
  moduleUrl: import.meta.url,
  input: netSheetPdfInputSchema,
  output: bytesSchema,
  budgetMs: PDF_BUDGET_MS,
  async handler(input) {
    const pdf = await renderNetSheetPdf(input);
    // A copy in a buffer of its own, which moves to the caller rather than being cloned again.
    const own = new Uint8Array(pdf);
    return { output: own, transfer: [own.buffer] };
  },
});

/** renderOffersPdf in a worker of the pool: the same pool and budget as the net sheet's. */
export const offersPdfJob = workerJob({
  name: 'offers-pdf',
  moduleUrl: import.meta.url,
  input: offersPdfInputSchema,
  output: bytesSchema,
  budgetMs: PDF_BUDGET_MS,
  async handler(input) {
    const own = new Uint8Array(await renderOffersPdf(input));
    return { output: own, transfer: [own.buffer] };
  },
});
