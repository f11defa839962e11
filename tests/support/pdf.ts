/** A PDF as a reader sees it: its pages, its text and where each piece of text sits (unpdf). */
import { extractText, extractTextItems, getDocumentProxy } from 'unpdf';

export interface ReadPdf {
  pages: number;
  /** The text of every page, pieces joined by single spaces. */
  text: string;
  /** Each piece of text with its left edge, baseline (from the bottom) and width, in points. */
  items: { str: string; x: number; y: number; width: number }[];
  /** The first page's width in points. */
  pageWidth: number;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  // pdf.js takes the buffer over: give it a copy so the caller's bytes stay readable.
  const document = await getDocumentProxy(new Uint8Array(bytes));
  const [{ totalPages, text }, { items }, first] = await Promise.all([
    extractText(document, { mergePages: true }),
    extractTextItems(document),
    document.getPage(1),
  ]);
  return {
    pages: totalPages,
    text: text.replace(/\s+/g, ' '),
    items: items.flat().map(({ str, x, y, width }) => ({ str, x, y, width })),
    pageWidth: first.view[2] ?? 0,
  };
}
