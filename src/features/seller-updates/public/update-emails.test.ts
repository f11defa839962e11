import { describe, expect, expectTypeOf, it } from 'vitest';
import { ESTIMATE_DISCLAIMER } from '../../email/public/templates.ts';
import { escapeHtml } from '../../email/public/html.ts';
import {
  netChangeSentence,
  sellerActiveEmail,
  sellerUpdateEmail,
  updateConfirmEmail,
  type RecentSaleLine,
  type UpdateAgent,
} from './update-emails.ts';

const agent: UpdateAgent = {
  first_name: 'Alex',
  last_name: 'Morgan',
  email: 'alex.morgan@example.com',
  phone: '6315550142',
  slug: 'alex-morgan',
};
const siteUrl = 'https://homes.example.com/';
const SCRIPT = '<script>alert("x")</script>';

const sales: RecentSaleLine[] = [
  { address: '12 Oak Street', priceCents: 61_200_000, soldDate: '2026-11-03', beds: 3, baths: 2, sqft: 1450 },
  { address: '8 Bay Drive', priceCents: null, soldDate: '2026-10-21', beds: 1, baths: 1.5, sqft: null },
  { address: '40 Main Road', priceCents: 99_900_000, soldDate: '2026-09-30', beds: null, baths: null, sqft: null },
];

const update = (overrides: Partial<Parameters<typeof sellerUpdateEmail>[0]> = {}) =>
  sellerUpdateEmail({
    agent,
    placeName: 'Massapequa',
    priceCents: 81_230_000,
    netCents: 28_334_134,
    previousNetCents: 27_914_134,
    direction: 'Home values in Massapequa rose 1.2% over the last three months.',
    sales,
    links: {
      sheet: 'https://homes.example.com/api/updates/go/s.1',
      agent: 'https://homes.example.com/api/updates/go/a.1',
    },
    asOf: '2026-11-27',
    siteUrl,
    ...overrides,
  });

/** The html's visible text, roughly: tags dropped and the five escapes undone, for "says the same". */
const visible = (html: string): string =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

function expectInBoth(email: { html: string; text: string }, expected: readonly string[]) {
  for (const value of expected) {
    expect(visible(email.html), `html shows ${value}`).toContain(value);
    expect(email.text, `text shows ${value}`).toContain(value);
  }
}

/** Every href of the html, unescaped. */
const hrefs = (html: string): string[] =>
  [...html.matchAll(/href="([^"]*)"/g)].map((match) => (match[1] ?? '').replace(/&amp;/g, '&'));

describe('netChangeSentence', () => {
  it('says up, down, no change to the whole dollar, and nothing before the first update', () => {
    expect(netChangeSentence(28_334_134, 27_914_134)).toBe('Up $4,200 since your last update.');
    expect(netChangeSentence(27_914_134, 28_334_134)).toBe('Down $4,200 since your last update.');
    expect(netChangeSentence(28_334_134, 28_334_134)).toBe('No change since your last update.');
    expect(netChangeSentence(28_334_134, 28_334_100)).toBe('No change since your last update.');
    expect(netChangeSentence(28_334_134, null)).toBeNull();
    expect(netChangeSentence(-500_000, -920_000)).toBe('Up $4,200 since your last update.');
  });
});

describe('updateConfirmEmail', () => {
  const confirmUrl = 'https://homes.example.com/updates/confirm?token=abc.def&x=1';
  const email = updateConfirmEmail({ agent, priceCents: 78_020_000, netCents: 27_934_100, confirmUrl, siteUrl });

  it('names the agent in the subject and shows the net, the price, the button and the agent in both parts', () => {
    expect(email.subject).toBe('Confirm your monthly net update from Alex Morgan');
    expectInBoth(email, [
      '$279,341.00',
      '$780,200',
      'Yes, send me monthly updates',
      'Alex Morgan',
      '(631) 555-0142',
      'alex.morgan@example.com',
      ESTIMATE_DISCLAIMER,
    ]);
    expect(hrefs(email.html)).toEqual(
      expect.arrayContaining([confirmUrl, 'tel:+16315550142', 'https://homes.example.com/r/alex-morgan']),
    );
    expect(email.text).toContain(`Yes, send me monthly updates: ${confirmUrl}`);
    expect(email.text).toContain('https://homes.example.com/r/alex-morgan');
    expect(email.html).toContain(escapeHtml(confirmUrl));
  });

  it('says what the seller would bring when the net is negative', () => {
    const negative = updateConfirmEmail({ agent, priceCents: 30_000_000, netCents: -1_250_000, confirmUrl, siteUrl });
    expectInBoth(negative, ['you would bring $12,500.00 to closing']);
    expect(negative.text).not.toContain('-$');
  });

  it('escapes the agent and the link', () => {
    const hostile = updateConfirmEmail({
      agent: { ...agent, first_name: SCRIPT, last_name: 'O"Neil' },
      priceCents: 1,
      netCents: 1,
      confirmUrl: `https://x.example/"><img src=x>`,
      siteUrl,
    });
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).not.toContain('<img');
    expect(hostile.html).toContain(escapeHtml(SCRIPT));
    expect(hostile.subject).not.toContain('\n');
  });
});

describe('sellerUpdateEmail', () => {
  const email = update();

  it('says the net in the subject, and every figure, sale and link in both parts', () => {
    expect(email.subject).toBe('Your estimated net this month: $283,341.34');
    expectInBoth(email, [
      'Your estimated net on November 27, 2026',
      '$283,341.34',
      '$812,300',
      'home values in Massapequa',
      'Up $4,200 since your last update.',
      'Home values in Massapequa rose 1.2% over the last three months.',
      'See my updated sheet',
      'Talk to Alex',
      '12 Oak Street',
      '$612,000',
      'November 3, 2026',
      '3 beds · 2 baths · 1,450 sqft',
      '8 Bay Drive',
      'Price not disclosed',
      '1 bed · 1.5 baths',
      '40 Main Road',
      '$999,000',
      'September 30, 2026',
      '(631) 555-0142',
      'alex.morgan@example.com',
      'You asked Alex Morgan for monthly updates of your estimated net.',
      ESTIMATE_DISCLAIMER,
    ]);
    expect(hrefs(email.html)).toEqual(
      expect.arrayContaining([
        'https://homes.example.com/api/updates/go/s.1',
        'https://homes.example.com/api/updates/go/a.1',
        'mailto:alex.morgan@example.com',
      ]),
    );
    expect(email.text).toContain('See my updated sheet: https://homes.example.com/api/updates/go/s.1');
    expect(email.text).toContain('Talk to Alex: https://homes.example.com/api/updates/go/a.1');
  });

  it('keeps the sales in the order given (newest first) and leaves out an unknown size', () => {
    expect(email.text.indexOf('12 Oak Street')).toBeLessThan(email.text.indexOf('8 Bay Drive'));
    expect(email.text.indexOf('8 Bay Drive')).toBeLessThan(email.text.indexOf('40 Main Road'));
    expect(email.text).toContain('- 40 Main Road: $999,000, Sold September 30, 2026\n');
  });

  it('lists three sales at most', () => {
    const four = update({
      sales: [
        ...sales,
        { address: '99 Fourth Lane', priceCents: 1, soldDate: '2026-09-01', beds: null, baths: null, sqft: null },
      ],
    });
    for (const part of [four.html, four.text]) expect(part).not.toContain('99 Fourth Lane');
  });

  it('words the change down, none and first', () => {
    expectInBoth(update({ previousNetCents: 28_754_134 }), ['Down $4,200 since your last update.']);
    expectInBoth(update({ previousNetCents: 28_334_134 }), ['No change since your last update.']);
    const first = update({ previousNetCents: null });
    for (const part of [first.html, first.text]) expect(part).not.toMatch(/since your last update/);
  });

  it('leaves out the direction and the sales when there are none', () => {
    const bare = update({ direction: null, sales: [] });
    for (const part of [bare.html, bare.text]) {
      expect(part).not.toContain('Recent sales');
      expect(part).not.toContain('over the last three months');
    }
  });

  it('says what the seller would bring when the net is negative, never a minus sign', () => {
    const negative = update({ netCents: -1_250_000, previousNetCents: null });
    expect(negative.subject).toBe('Your home sale update: $12,500.00 to bring to closing');
    expectInBoth(negative, ['bring $12,500.00 to closing']);
    expect(visible(negative.html)).toContain('You would bring $12,500.00 to closing');
    for (const part of [negative.html, negative.text]) expect(part).not.toMatch(/[-−]\$/);
  });

  it('marks a sample in the subject and at the top of both parts; a real update is not marked', () => {
    const sample = update({ sample: true });
    expect(sample.subject).toMatch(/^SAMPLE: /);
    expect(sample.text.startsWith('SAMPLE:')).toBe(true);
    const body = visible(sample.html.slice(sample.html.indexOf('<body')));
    expect(body.trim().startsWith('SAMPLE:')).toBe(true);
    for (const part of [email.subject, email.html, email.text]) expect(part).not.toContain('SAMPLE');
  });

  it('escapes every value it is given', () => {
    const hostile = update({
      agent: { ...agent, first_name: SCRIPT },
      placeName: SCRIPT,
      direction: SCRIPT,
      sales: sales.map((sale) => ({ ...sale, address: SCRIPT })),
      links: { sheet: 'https://x.example/"onmouseover="x', agent: 'https://x.example/<b>' },
    });
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).not.toContain('"onmouseover');
    expect(hostile.html).not.toContain('<b>');
    expect(hostile.html.split(escapeHtml(SCRIPT)).length).toBeGreaterThan(4);
  });

  it('has no field for text a visitor wrote: only the agent, the place, the sales and the figures', () => {
    // Checked by the compiler (tsc, in CI): a seller's name or typed address added to either seller
    // e-mail's input breaks this test.
    expectTypeOf<keyof Parameters<typeof sellerUpdateEmail>[0]>().toEqualTypeOf<
      | 'agent'
      | 'placeName'
      | 'priceCents'
      | 'netCents'
      | 'previousNetCents'
      | 'direction'
      | 'sales'
      | 'links'
      | 'asOf'
      | 'sample'
      | 'siteUrl'
    >();
    expectTypeOf<keyof Parameters<typeof updateConfirmEmail>[0]>().toEqualTypeOf<
      'agent' | 'priceCents' | 'netCents' | 'confirmUrl' | 'siteUrl'
    >();
    expectTypeOf<keyof UpdateAgent>().toEqualTypeOf<'first_name' | 'last_name' | 'email' | 'phone' | 'slug'>();
    expectTypeOf<keyof RecentSaleLine>().toEqualTypeOf<
      'address' | 'priceCents' | 'soldDate' | 'beds' | 'baths' | 'sqft'
    >();
  });
});

describe('sellerActiveEmail', () => {
  const lead = { first_name: 'Dana', last_name: 'Lopez', email: 'dana.lopez@example.com', phone: '516-555-0123' };
  const leadUrl = 'https://homes.example.com/dashboard/leads?lead=42';
  const email = sellerActiveEmail({
    agent,
    lead,
    reasons: ['two_clicks', 'higher_net', 'two_clicks'],
    netCents: 28_334_134,
    leadUrl,
    siteUrl,
  });

  it('names the lead in the subject and shows why, how to reach them, the net and the link in both parts', () => {
    expect(email.subject).toBe('Active seller: Dana Lopez');
    expectInBoth(email, [
      'Hello Alex, Dana Lopez may be getting ready to sell.',
      'Followed two links in their monthly updates within 14 days',
      'Asked for a higher net than their last update showed',
      'dana.lopez@example.com',
      '(516) 555-0123',
      '$283,341.34',
      'Open the lead',
      'Manage seller updates',
    ]);
    expect(email.text.match(/Followed two links/g)).toHaveLength(1);
    expect(email.text).not.toContain('Ran their estimate again');
    expect(hrefs(email.html)).toEqual(
      expect.arrayContaining([
        leadUrl,
        'mailto:dana.lopez@example.com',
        'tel:+15165550123',
        'https://homes.example.com/dashboard/updates',
      ]),
    );
    expect(email.text).toContain(`Open the lead: ${leadUrl}`);
  });

  it('says a negative net as what the seller would bring, and leaves out an unknown net and phone', () => {
    const negative = sellerActiveEmail({ agent, lead, reasons: ['rerun'], netCents: -1_250_000, leadUrl, siteUrl });
    expectInBoth(negative, ['Would bring $12,500.00 to closing', 'Ran their estimate again']);
    const unknown = sellerActiveEmail({
      agent,
      lead: { ...lead, phone: null },
      reasons: ['rerun'],
      netCents: null,
      leadUrl,
      siteUrl,
    });
    for (const part of [unknown.html, unknown.text]) {
      expect(part).not.toContain('Latest net');
      expect(part).not.toContain('Phone');
    }
  });

  it("escapes the lead's name, keeps the subject on one line", () => {
    const hostile = sellerActiveEmail({
      agent,
      lead: { ...lead, first_name: `${SCRIPT}\r\nBcc: x@example.com`, email: 'a"b@example.com' },
      reasons: ['rerun'],
      netCents: null,
      leadUrl,
      siteUrl,
    });
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).toContain(escapeHtml(SCRIPT));
    expect(hostile.html).not.toContain('a"b');
    expect(hostile.subject).not.toMatch(/[\r\n]/);
  });
});
