import { describe, expect, it, vi } from 'vitest';
import { readPdf } from '../../../tests/support/pdf.ts';
import { renderNetSheetPdf, renderOffersPdf } from './net-sheet-pdf.server.ts';
import type { NetSheetPdfInput, OffersPdfInput } from './pdf-input.server.ts';

const LINK = 'https://homes.example.com/estimate/0c41e26d-f35a-4ee7-b658-9848aaafd430';

const sheet = (overrides: Partial<NetSheetPdfInput> = {}): NetSheetPdfInput => ({
  title: 'Net sheet',
  facts: [
    { label: 'Prepared for', value: 'Pat Seller' },
    { label: 'Property', value: 'Huntington, Suffolk County, NY' },
    { label: 'Estimated closing', value: 'April 15, 2026' },
  ],
  sections: [
    { heading: null, lines: [{ label: 'Sale Price', amountCents: 78_020_000, kind: 'sale' }] },
    {
      heading: 'Mortgages and liens',
      lines: [{ label: 'Mortgage Payoff', amountCents: 45_000_000, kind: 'deduction' }],
    },
    {
      heading: 'Property tax prorations',
      lines: [{ label: 'Property tax proration, 1st half', amountCents: 541_978, kind: 'credit' }],
    },
  ],
  netToSellerCents: 33_561_978,
  date: new Date('2026-03-01T15:00:00Z'),
  link: LINK,
  notes: ['Estimated closing: April 15, 2026.'],
  warnings: [],
  disclaimer: 'This net sheet is an estimate, not legal or tax advice.',
  agent: {
    name: 'Alex Morgan',
    title: 'Licensed Real Estate Salesperson',
    brokerage: 'Harbor Point Realty',
    phone: '(631) 555-0142',
    email: 'alex.morgan@example.com',
    photo: null,
    logo: null,
  },
  ...overrides,
});

describe('renderNetSheetPdf', () => {
  // A retried e-mail must carry the very same bytes: Resend refuses a reused Idempotency-Key with
  // another payload (409), which would fail an estimate e-mail its provider had already taken.
  it('renders the same sheet to the same bytes, whenever it is rendered', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-01T15:00:05Z'));
      const first = await renderNetSheetPdf(sheet());
      vi.setSystemTime(new Date('2026-03-02T09:30:00Z'));
      const again = await renderNetSheetPdf(sheet());
      expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  // Newcomer audit 2026-11-26, minor 14: no "prepared for", no property, the closing date only in
  // the small print, no headings, and a credit printed as a bare "$5,419.78" beside minus signs.
  it('heads the sheet with whom it is for, the property and the closing date, and writes credits as credits', async () => {
    const pdf = await readPdf(await renderNetSheetPdf(sheet()));
    expect(pdf.text).toContain('Prepared for Pat Seller');
    expect(pdf.text).toContain('Property Huntington, Suffolk County, NY');
    expect(pdf.text).toContain('Estimated closing April 15, 2026');
    expect(pdf.text).toContain('Estimated on March 1, 2026');
    expect(pdf.text).toContain('MORTGAGES AND LIENS');
    expect(pdf.text).toContain('PROPERTY TAX PRORATIONS');
    expect(pdf.text).toContain('+$5,419.78 credit');
    expect(pdf.text).toContain('-$450,000.00');
    expect(pdf.text).toContain('$780,200.00');
    expect(pdf.text).not.toContain('+$780,200.00');
    // The head comes before the lines: the facts sit above the first amount.
    const facts = pdf.items.find((item) => item.str.startsWith('Pat Seller'));
    const price = pdf.items.find((item) => item.str === '$780,200.00');
    expect(facts?.y ?? 0).toBeGreaterThan(price?.y ?? Infinity);
  });

  // Issue 22, part F: the web sheet's "Please check" was missing from the paper an attorney reads.
  it('prints the warnings in a box above the figures, every word of a long one on the page', async () => {
    const long = `Seller concessions are 12% of the price: ${'more than 10% is unusual. '.repeat(8)}`;
    const pdf = await readPdf(
      await renderNetSheetPdf(
        sheet({ warnings: ['The closing date, March 1, 2026, has already passed.', long.trim()] }),
      ),
    );
    expect(pdf.text).toContain('PLEASE CHECK');
    expect(pdf.text).toContain('The closing date, March 1, 2026, has already passed.');
    expect(pdf.text).toContain('more than 10% is unusual. more than 10% is unusual.');
    for (const item of pdf.items) expect(item.x + item.width, item.str).toBeLessThanOrEqual(pdf.pageWidth - 54 + 0.5);
    const box = pdf.items.find((item) => item.str === 'PLEASE CHECK');
    const price = pdf.items.find((item) => item.str === '$780,200.00');
    expect(box?.y ?? 0).toBeGreaterThan(price?.y ?? Infinity);
  });

  it('prints no box when there is nothing to check', async () => {
    expect((await readPdf(await renderNetSheetPdf(sheet()))).text).not.toContain('PLEASE CHECK');
  });

  it('leaves out a fact it does not have', async () => {
    const pdf = await readPdf(await renderNetSheetPdf(sheet({ facts: [{ label: 'Prepared for', value: null }] })));
    expect(pdf.text).not.toContain('Prepared for');
  });

  it('runs a long sheet onto more pages, every amount printed and every piece of text on its page', async () => {
    const lines = Array.from({ length: 60 }, (_, index) => ({
      label: index === 5 ? `Title insurance ${'and a label that keeps going '.repeat(10)}` : `Fee number ${index + 1}`,
      amountCents: 100_00 * (index + 1) + 1,
      kind: 'deduction' as const,
    }));
    const pdf = await readPdf(
      await renderNetSheetPdf(sheet({ sections: [{ heading: 'Closing fees', lines }], netToSellerCents: -12_345_67 })),
    );
    expect(pdf.pages).toBeGreaterThanOrEqual(2);
    for (let index = 0; index < 60; index += 1) {
      expect(pdf.text).toContain(`-$${(100 * (index + 1)).toLocaleString('en-US')}.01`);
    }
    // A negative net is what the seller brings, as on the web page.
    expect(pdf.text).toContain('Amount you would bring to closing $12,345.67');
    expect(pdf.text).toContain('…');
    expect(pdf.text).toContain(LINK);
    expect(pdf.text).toContain(`Page 1 of ${pdf.pages}`);
    expect(pdf.text).toContain(`Page ${pdf.pages} of ${pdf.pages}`);
    expect(pdf.text).toContain('Net sheet (continued) · Alex Morgan');
    for (const item of pdf.items) {
      expect(item.x + item.width, item.str).toBeLessThanOrEqual(pdf.pageWidth);
      expect(item.y, item.str).toBeGreaterThanOrEqual(20);
    }
  });

  it('prints characters the PDF font lacks as "?" rather than failing', async () => {
    const pdf = await readPdf(
      await renderNetSheetPdf(sheet({ facts: [{ label: 'Prepared for', value: 'Zoë 🏠 Смирнова' }] })),
    );
    expect(pdf.text).toContain('Prepared for Zoë ? ????????');
  });
});

const offers = (overrides: Partial<OffersPdfInput> = {}): OffersPdfInput => {
  const base = sheet();
  return {
    title: 'Offers side by side',
    facts: [{ label: 'Property', value: 'Nassau County, NY' }],
    date: base.date,
    link: 'https://homes.example.com/offers/5b0c2ad4-5b47-4f34-8d1f-7a0cfb6bd0d1',
    notes: [],
    warnings: [],
    disclaimer: base.disclaimer,
    agent: base.agent,
    columns: ['Offer 1', 'Offer 2 (best net)', 'Offer 3', 'Offer 4'],
    summary: [
      { label: 'Price', cells: ['$850,000.00', '$1,240,000.00', '$845,000.00', '$900,000.00'] },
      {
        label: 'Net to seller',
        cells: ['$301,234.56', '$612,000.00', '$299,000.00', '$1,234.00 to bring'],
        bold: true,
      },
    ],
    sections: [
      {
        heading: 'Property tax prorations',
        rows: [
          {
            label: 'School tax proration, 2nd half',
            cells: [
              { amountCents: 245_856, kind: 'deduction' },
              { amountCents: 541_978, kind: 'credit' },
              null,
              { amountCents: 100, kind: 'deduction' },
            ],
          },
        ],
      },
    ],
    ...overrides,
  };
};

describe('renderOffersPdf', () => {
  it('prints four offers side by side, each cell inside the page, a missing line as a dash', async () => {
    const pdf = await readPdf(await renderOffersPdf(offers()));
    for (const piece of [
      'Offers side by side',
      'Compared on March 1, 2026',
      'Offer 2 (best net)',
      '$1,240,000.00',
      '$1,234.00 to bring',
      'PROPERTY TAX PRORATIONS',
      '-$2,458.56',
      '+$5,419.78 credit',
      '–',
    ]) {
      expect(pdf.text).toContain(piece);
    }
    for (const item of pdf.items) expect(item.x + item.width, item.str).toBeLessThanOrEqual(pdf.pageWidth);
    // The columns keep their order: offer 1's price left of offer 4's.
    const first = pdf.items.find((item) => item.str === '$850,000.00');
    const fourth = pdf.items.find((item) => item.str === '$900,000.00');
    expect(first?.x ?? Infinity).toBeLessThan(fourth?.x ?? 0);
  });
});
