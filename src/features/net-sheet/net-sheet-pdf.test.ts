import { describe, expect, it, vi } from 'vitest';
import { readPdf } from '../../../tests/support/pdf.ts';
import { renderNetSheetPdf, type NetSheetPdfInput } from './net-sheet-pdf.server.ts';

const LINK = 'https://homes.example.com/estimate/0c41e26d-f35a-4ee7-b658-9848aaafd430';

const sheet = (overrides: Partial<NetSheetPdfInput> = {}): NetSheetPdfInput => ({
  title: 'Net Sheet for Pat Seller',
  lines: [
    { label: 'Sale Price', amountCents: 78_020_000, kind: 'credit' },
    { label: 'Mortgage Payoff', amountCents: 45_000_000, kind: 'deduction' },
  ],
  netToSellerCents: 33_020_000,
  date: new Date('2026-03-01T15:00:00Z'),
  link: LINK,
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

  it('fits a detailed sheet of 24 lines, one of them very long, on one page, every amount printed', async () => {
    const lines = Array.from({ length: 24 }, (_, index) => ({
      label: index === 5 ? `Title insurance ${'and a label that keeps going '.repeat(10)}` : `Fee number ${index + 1}`,
      amountCents: 100_00 * (index + 1) + 1,
      kind: index === 0 ? ('credit' as const) : ('deduction' as const),
    }));
    const pdf = await readPdf(await renderNetSheetPdf(sheet({ lines, netToSellerCents: -12_345_67 })));
    expect(pdf.pages).toBe(1);
    expect(pdf.text).toContain('$100.01');
    for (let index = 1; index < 24; index += 1) {
      expect(pdf.text).toContain(`-$${(100 * (index + 1)).toLocaleString('en-US')}.01`);
    }
    // A negative net is what the seller brings, as on the web page.
    expect(pdf.text).toContain('Amount you would bring to closing $12,345.67');
    expect(pdf.text).toContain('…');
    expect(pdf.text).toContain(LINK);
    for (const item of pdf.items) expect(item.x + item.width, item.str).toBeLessThanOrEqual(pdf.pageWidth);
    // Every amount and the net sit above the link and disclaimer at the foot of the page.
    const footer = pdf.items.find((item) => item.str.startsWith('View this estimate online'));
    const amounts = pdf.items.filter((item) => /^-?\$/.test(item.str));
    expect(amounts).toHaveLength(25);
    for (const amount of amounts) expect(amount.y, amount.str).toBeGreaterThan((footer?.y ?? Infinity) + 12);
  });

  it('prints characters the PDF font lacks as "?" rather than failing', async () => {
    const pdf = await readPdf(await renderNetSheetPdf(sheet({ title: 'Net Sheet for Zoë 🏠 Смирнова' })));
    expect(pdf.text).toContain('Net Sheet for Zoë ? ????????');
  });
});
