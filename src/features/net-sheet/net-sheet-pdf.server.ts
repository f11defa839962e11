/**
 * The printable net sheet: one Letter page drawn with pdf-lib (docs/decisions/0016-pdf-net-sheets.md).
 * The renderer takes plain lines ({ label, amountCents, kind }) and meta, not an estimate, so any
 * net sheet (today's quick one, the detailed Long Island one) prints through it unchanged.
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
  /** 'credit' adds to the seller's proceeds (the sale price), 'deduction' is taken from them. */
  kind: 'credit' | 'deduction';
}

export interface PdfImage {
  bytes: Uint8Array;
  contentType: 'image/jpeg' | 'image/png';
}

export interface NetSheetPdfAgent {
  name: string;
  title: string | null;
  brokerage: string | null;
  phone: string | null;
  email: string;
  /** Only when the agent shows it on their page. */
  photo: PdfImage | null;
  logo: PdfImage | null;
}

export interface NetSheetPdfInput {
  /** "Net Sheet for {name}" or "Your Net Sheet". */
  title: string;
  lines: readonly NetSheetPdfLine[];
  netToSellerCents: number;
  /** When the estimate was made; printed as a New York date. */
  date: Date;
  /** The estimate's page, printed so the paper leads back to it. */
  link: string;
  disclaimer: string;
  agent: NetSheetPdfAgent;
}

/** US Letter in points (72 per inch). */
const PAGE = { width: 612, height: 792 } as const;
const MARGIN = 54;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
/** The sheet's colours as [red, green, blue], 0 to 1. */
const INK = [0.1, 0.12, 0.16] as const;
const MUTED = [0.38, 0.42, 0.48] as const;
const RULE = [0.85, 0.87, 0.9] as const;

/** Where the link and disclaimer begin, from the bottom of the page. */
const FOOTER_TOP = MARGIN + 84;
/** The space the net takes under the lines. */
const NET_BLOCK_HEIGHT = 48;
/**
 * The smallest size the lines shrink to. At it about 30 one-line rows fit; a sheet with more would
 * reach the footer (no net sheet has that many).
 */
const MIN_LINE_SIZE = 7;

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
  page: PDFPage;
  regular: PDFFont;
  bold: PDFFont;
  /** The baseline of the next line, from the bottom of the page. */
  y: number;
  colors: { ink: Color; muted: Color; rule: Color };
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

/** The net sheet as a one-page PDF. */
export async function renderNetSheetPdf(input: NetSheetPdfInput): Promise<Uint8Array> {
  const pdfLib = await import('pdf-lib');
  const document = await pdfLib.PDFDocument.create();
  const page = document.addPage([PAGE.width, PAGE.height]);
  const pen: Pen = {
    page,
    regular: await document.embedFont(pdfLib.StandardFonts.Helvetica),
    bold: await document.embedFont(pdfLib.StandardFonts.HelveticaBold),
    y: PAGE.height - MARGIN,
    colors: { ink: pdfLib.rgb(...INK), muted: pdfLib.rgb(...MUTED), rule: pdfLib.rgb(...RULE) },
  };
  document.setTitle(printable(pen.regular, input.title));
  // Both dates are the sheet's own (pdf-lib stamps the modification date with the clock): the same
  // sheet is then the same bytes, so a retried e-mail's payload matches its idempotency key.
  document.setCreationDate(input.date);
  document.setModificationDate(input.date);

  // Branding: photo and logo on the right, the agent's card beside them.
  const [photo, logo] = await Promise.all([embed(document, input.agent.photo), embed(document, input.agent.logo)]);
  const top = pen.y;
  let right = PAGE.width - MARGIN;
  if (logo) right -= drawFitted(page, logo, right, top, 120, 60) + 12;
  if (photo) right -= drawFitted(page, photo, right, top, 72, 72) + 12;
  const cardWidth = right - MARGIN;
  const { agent } = input;
  write(pen, agent.name, { size: 16, bold: true, width: cardWidth, maxLines: 2 });
  for (const detail of [agent.title, agent.brokerage, [agent.phone, agent.email].filter(Boolean).join('  ·  ')]) {
    if (detail) write(pen, detail, { size: 10, color: pen.colors.muted, width: cardWidth, maxLines: 2 });
  }
  pen.y = Math.min(pen.y, top - 72) - 18;
  page.drawLine({ start: { x: MARGIN, y: pen.y }, end: { x: PAGE.width - MARGIN, y: pen.y }, color: pen.colors.rule });

  write(pen, input.title, { size: 20, bold: true, maxLines: 2, gap: 1.4 });
  pen.y -= 4;
  write(pen, `Estimated on ${formatNewYorkDate(input.date)}`, { size: 10, color: pen.colors.muted });
  pen.y -= 14;

  // The lines: label on the left (wrapped), amount on the right, in the largest size at which all
  // of them, the net and the footer fit on the one page (a detailed sheet has many more lines).
  const amountWidth = 130;
  const labelWidth = CONTENT_WIDTH - amountWidth - 12;
  const rowsHeight = (size: number): number =>
    input.lines.reduce(
      (total, line) =>
        total + wrapText(pen.regular, printable(pen.regular, line.label), size, labelWidth, 2).length * size * 1.5 + 5,
      0,
    );
  const available = pen.y - (FOOTER_TOP + NET_BLOCK_HEIGHT);
  let size = 11;
  while (size > MIN_LINE_SIZE && rowsHeight(size) > available) size -= 0.5;
  for (const line of input.lines) {
    const amount = line.kind === 'deduction' ? `-${money(line.amountCents)}` : money(line.amountCents);
    const before = pen.y;
    write(pen, line.label, { size, width: labelWidth, maxLines: 2, gap: 1.5 });
    const amountX = PAGE.width - MARGIN - pen.regular.widthOfTextAtSize(amount, size);
    page.drawText(amount, { x: amountX, y: before - size * 1.5, size, font: pen.regular, color: pen.colors.ink });
    pen.y -= 5;
    page.drawLine({
      start: { x: MARGIN, y: pen.y },
      end: { x: PAGE.width - MARGIN, y: pen.y },
      color: pen.colors.rule,
    });
  }

  // The net, largest; a negative net is what the seller brings to closing, as on the web page.
  const negative = input.netToSellerCents < 0;
  const netLabel = negative ? 'Amount you would bring to closing' : 'Your Net Proceeds';
  const net = money(Math.abs(input.netToSellerCents));
  pen.y -= 10;
  write(pen, netLabel, { size: 14, bold: true, gap: 1.8 });
  page.drawText(net, {
    x: PAGE.width - MARGIN - pen.bold.widthOfTextAtSize(net, 18),
    y: pen.y,
    size: 18,
    font: pen.bold,
    color: pen.colors.ink,
  });

  // The link and the disclaimer at the foot of the page.
  pen.y = FOOTER_TOP;
  page.drawLine({ start: { x: MARGIN, y: pen.y }, end: { x: PAGE.width - MARGIN, y: pen.y }, color: pen.colors.rule });
  write(pen, `View this estimate online: ${input.link}`, { size: 9, color: pen.colors.muted, maxLines: 2 });
  write(pen, input.disclaimer, { size: 8, color: pen.colors.muted, maxLines: 5 });

  return document.save();
}

/**
 * The time a PDF job may take in its worker: a sheet with its print-size images renders in about a
 * tenth of a second; one still at work after this is stopped.
 */
export const PDF_BUDGET_MS = 5000;

const bytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array);
const pdfImageSchema = z.object({ bytes: bytesSchema, contentType: z.enum(['image/jpeg', 'image/png']) }).nullable();

/** NetSheetPdfInput, as it crosses to the worker. */
const netSheetPdfInputSchema = z.object({
  title: z.string(),
  lines: z
    .array(z.object({ label: z.string(), amountCents: z.number(), kind: z.enum(['credit', 'deduction']) }))
    .readonly(),
  netToSellerCents: z.number(),
  date: z.date(),
  link: z.string(),
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
}) satisfies z.ZodType<NetSheetPdfInput>;

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
