/**
 * Letter pages drawn with pdf-lib: their size, margins and colours, the pen that writes text which
 * wraps and flows onto a new page, rules, images, and the page numbers once the pages are known.
 */
// Types only: pdf-lib takes ~300 ms to load, so the first sheet loads it, not the API function's
// cold start (decision 0026).
import type { Color, PDFDocument, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import type { PdfCommon, PdfImage } from './pdf-input.server.ts';

/** US Letter in points (72 per inch). */
export const PAGE = { width: 612, height: 792 } as const;
export const MARGIN = 54;
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
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

/**
 * The standard fonts encode WinAnsi only: anything else (an emoji in a name, Cyrillic) would make
 * pdf-lib throw, so it is replaced by "?" rather than losing the whole sheet. Typographic dashes
 * and quotes are in WinAnsi and stay.
 */
export function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(text.replace(/\s+/g, ' ').trim(), (char) =>
    known.has(char.codePointAt(0) ?? 0) ? char : '?',
  ).join('');
}

/** `text` cut to `width` with an ellipsis when it does not fit. */
export function fit(font: PDFFont, text: string, size: number, width: number): string {
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

export interface Pen {
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
export function room(pen: Pen, height: number): void {
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

export function rule(pen: Pen): void {
  pen.page.drawLine({
    start: { x: MARGIN, y: pen.y },
    end: { x: PAGE.width - MARGIN, y: pen.y },
    color: pen.colors.rule,
  });
}

export function write(
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

export async function embed(document: PDFDocument, image: PdfImage | null): Promise<PDFImage | null> {
  if (!image) return null;
  return image.contentType === 'image/png' ? document.embedPng(image.bytes) : document.embedJpg(image.bytes);
}

/** Draws `image` scaled into a box of `width` x `height`, top-right corner at (right, top). */
export function drawFitted(
  page: PDFPage,
  image: PDFImage,
  right: number,
  top: number,
  width: number,
  height: number,
): number {
  const scale = Math.min(width / image.width, height / image.height, 1);
  const drawn = { width: image.width * scale, height: image.height * scale };
  page.drawImage(image, { x: right - drawn.width, y: top - drawn.height, ...drawn });
  return drawn.width;
}

/** A document with its fonts, and the pen on its first page. */
export async function openDocument(common: PdfCommon): Promise<Pen> {
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

/** "Page 1 of 2" at the foot of every page, once the pages are known. */
export async function finish(pen: Pen): Promise<Uint8Array> {
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
