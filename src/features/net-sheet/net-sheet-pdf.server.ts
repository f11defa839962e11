/**
 * The printable net sheet and offers comparison, drawn with pdf-lib on as many Letter pages as they
 * need (docs/decisions/0016-pdf-net-sheets.md, 0040-the-printed-sheets.md). The renderers take plain
 * sections of lines and meta, not an estimate, so any net sheet (the quick one, the detailed Long
 * Island one, an offer's) prints through them unchanged.
 * It runs as a job of the worker pool (netSheetPdfJob, decision 0036), never
 * on the event loop; so this module imports only what a worker can run (see the pool's module).
 */
import { workerJob } from '../../platform/worker-pool.server.ts';
import { centsToDollars, formatMoney } from '../../ui/money.ts';
import { onFirstUse } from '../../ui/on-first-use.ts';
import {
  bytesSchema,
  netSheetPdfInputSchema,
  offersPdfInputSchema,
  type NetSheetPdfInput,
  type NetSheetPdfLine,
  type OffersPdfCell,
  type OffersPdfInput,
  type PdfCommon,
} from './pdf-input.server.ts';
import {
  CONTENT_WIDTH,
  drawFitted,
  embed,
  finish,
  fit,
  MARGIN,
  openDocument,
  PAGE,
  printable,
  room,
  rule,
  wrapText,
  write,
  type Pen,
} from './pdf-pages.server.ts';
import { LONG_ISLAND_TIME_ZONE } from '../../ui/long-island-time.ts';

/** The size of a sheet's lines: the same on every sheet, which runs onto more pages when it is long. */
const LINE_SIZE = 10;
const GRID_SIZE = 9;

const nyDate = onFirstUse(
  () => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: LONG_ISLAND_TIME_ZONE }),
);

/** The estimate's date as a New York reader would say it, whatever the server's time zone. */
export const formatNewYorkDate = (date: Date): string => nyDate().format(date);

const money = (cents: number): string => formatMoney(centsToDollars(cents));

/**
 * A line's amount as the web sheet writes it: the sale price as it is, a cost with a minus, a
 * credit with a plus and the word (a bare figure beside minus signs reads as a cost).
 */
export function pdfAmount(amountCents: number, kind: NetSheetPdfLine['kind']): string {
  if (kind === 'deduction') return `-${money(amountCents)}`;
  if (kind === 'credit') return `+${money(amountCents)} credit`;
  return money(amountCents);
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
