import { describe, expect, it } from 'vitest';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';
import { escapeHtml } from './html.ts';
import { ESTIMATE_DISCLAIMER, estimateEmail, newLeadEmail, type EmailLead } from './templates.ts';
import { WORKED_EXAMPLE } from '../../net-sheet/worked-example.fixture.ts';

const estimate: Estimate = WORKED_EXAMPLE;

const agent = { first_name: 'Alex', last_name: 'Morgan', email: 'alex.morgan@example.com', phone: '6315550142' };
const siteUrl = 'https://homes.example.com/';
const link = 'https://homes.example.com/estimate/8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e42';

const lead: EmailLead = {
  first_name: 'Dana',
  last_name: 'Lopez',
  email: 'dana.lopez@example.com',
  phone: '516-555-0123',
  address: '12 Elm Street, Garden City, NY 11530',
  message: 'Please call me after 5pm.',
  source: 'nassau_county_page',
};

const SCRIPT = '<script>alert("x")</script>';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('leaves other text alone, non-ASCII included', () => {
    expect(escapeHtml('Zoë Ñúñez 李 $279,341.00')).toBe('Zoë Ñúñez 李 $279,341.00');
  });
});

describe('estimateEmail', () => {
  const email = estimateEmail({ estimate, agent, siteUrl });

  it('lists every non-zero line and the net, in html and text', () => {
    for (const part of [email.html, email.text]) {
      for (const expected of [
        'Sale Price',
        '$780,200.00',
        'Mortgage Payoff',
        '$450,000.00',
        'Commission (6%)',
        '$46,812.00',
        'Transfer Tax',
        '$3,122.00',
        'Attorney Fee',
        '$750.00',
        'Recording Fee',
        '$175.00',
        'Your Net Proceeds',
        '$279,341.00',
      ]) {
        expect(part).toContain(expected);
      }
    }
    expect(email.subject).toBe('Your estimated net proceeds: $279,341.00');
  });

  it("greets with the product's words only and links to the estimate page", () => {
    expect(email.text.startsWith("Hello, here's your estimated net proceeds:")).toBe(true);
    expect(email.text).toContain(`View your estimate online: ${link}`);
    expect(email.html).toContain(`href="${link}"`);
  });

  it("gives the agent's name, phone and e-mail, and the disclaimer", () => {
    for (const part of [email.html, email.text]) {
      expect(part).toContain('Alex Morgan');
      expect(part).toContain('(631) 555-0142');
      expect(part).toContain('alex.morgan@example.com');
    }
    expect(email.text).toContain(ESTIMATE_DISCLAIMER);
    expect(email.html).toContain(escapeHtml(ESTIMATE_DISCLAIMER));
    expect(email.html).toContain('href="tel:6315550142"');
    expect(email.html).toContain('href="mailto:alex.morgan@example.com"');
  });

  it('leaves out zero lines and an agent without a phone', () => {
    const bare = estimateEmail({
      estimate: { ...estimate, mortgage_payoff: 0, lawyer_fee: 0, recording_fee: 0, net_to_seller: 730266 },
      agent: { ...agent, phone: null },
      siteUrl,
    });
    for (const part of [bare.html, bare.text]) {
      expect(part).not.toContain('Mortgage Payoff');
      expect(part).not.toContain('Attorney Fee');
      expect(part).not.toContain('Recording Fee');
      expect(part).not.toContain('Phone');
      expect(part).toContain('Transfer Tax');
    }
  });

  it('names a negative net as the amount to bring to closing', () => {
    const under = estimateEmail({
      estimate: { ...estimate, mortgage_payoff: 800000, net_to_seller: -70659 },
      agent,
      siteUrl,
    });
    expect(under.subject).toBe('Your home sale estimate: $70,659.00 to bring to closing');
    for (const part of [under.html, under.text]) {
      expect(part).toContain('Amount to bring to closing');
      expect(part).toContain('$70,659.00');
      expect(part).not.toContain('Your Net Proceeds');
      expect(part).not.toContain('-$70,659.00');
    }
  });

  // Newcomer audit 2026-11-26, minor 14: the e-mail printed a tax-proration credit as a bare figure.
  it('writes a credit as a credit, with its plus and the word, in text and html', () => {
    const sale = { key: 'sale_price', label: 'Sale price', amount: -500000, why: '', group: 'sale' as const };
    const credit = {
      key: 'proration_suffolk_1',
      label: 'Property tax proration, 1st half',
      amount: -5419.78,
      why: '',
      group: 'proration' as const,
    };
    const cost = { key: 'attorney_fee', label: 'Attorney fee', amount: 750, why: '', group: 'fee' as const };
    const detailed = estimateEmail({
      estimate: {
        ...estimate,
        sale_price: 500000,
        net_to_seller: 504669.78,
        sheet: {
          lines: [sale, credit, cost],
          net_to_seller: 504669.78,
          closing_date: '2027-03-31',
          notes: [],
          warnings: [],
        },
      },
      agent,
      siteUrl,
    });
    expect(detailed.text).toContain('Sale price: $500,000.00');
    expect(detailed.text).toContain('Property tax proration, 1st half: +$5,419.78 credit');
    expect(detailed.text).toContain('Attorney fee: -$750.00');
    expect(detailed.html).toContain('+$5,419.78 credit');
    expect(detailed.html).toContain('−$750.00');
  });

  it('escapes markup in the names in html and keeps it plain in text', () => {
    const hostile = estimateEmail({
      estimate,
      agent: { ...agent, first_name: '<b>Alex</b>', last_name: 'O"Morgan' },
      siteUrl,
    });
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).not.toContain('<b>Alex</b>');
    expect(hostile.html).toContain('&lt;b&gt;Alex&lt;/b&gt; O&quot;Morgan');
    expect(hostile.text).toContain('<b>Alex</b> O"Morgan');
  });
});

describe('estimateEmail of a detailed estimate (security audit finding 2)', () => {
  const SPAM = 'Your package is held pay customs now';
  const detailed: Estimate = {
    ...estimate,
    recipient_name: 'Dear Customer',
    sheet: {
      lines: [
        { key: 'sale_price', label: 'Sale price', amount: -780200, why: '', group: 'sale' },
        { key: 'lien_1_payoff', label: `${SPAM} payoff`, amount: 450000, why: '', group: 'payoff' },
        { key: 'lien_1_per_diem', label: `${SPAM} interest to closing`, amount: 20, why: '', group: 'payoff' },
        { key: 'lien_2_payoff', label: 'Mortgage payoff', amount: 1000, why: '', group: 'payoff' },
        { key: 'other_1', label: SPAM, amount: 150, why: '', group: 'other' },
        { key: 'other_2', label: 'Final water bill', amount: 80, why: '', group: 'other' },
      ],
      net_to_seller: 328950,
      closing_date: '2026-12-31',
      notes: [],
      warnings: [],
    },
  };

  it('names the lines a visitor named by number, in html and text; the agent’s notice keeps their names', () => {
    const mailed = estimateEmail({ estimate: detailed, agent, siteUrl });
    for (const part of [mailed.html, mailed.text, mailed.subject]) {
      expect(part).not.toContain(SPAM);
      expect(part).not.toContain('Final water bill');
      expect(part).not.toContain('Dear Customer');
    }
    for (const expected of [
      'Lien 1 payoff: -$450,000.00',
      'Lien 1 interest to closing: -$20.00',
      'Mortgage payoff: -$1,000.00',
      'Other cost 1: -$150.00',
      'Other cost 2: -$80.00',
    ]) {
      expect(mailed.text).toContain(expected);
    }
    const notice = newLeadEmail({ lead, estimate: detailed, agent, siteUrl });
    expect(notice.text).toContain(`${SPAM}: -$150.00`);
  });
});

describe('newLeadEmail', () => {
  it("lists the lead's name, e-mail, phone, address, message and source", () => {
    const email = newLeadEmail({ lead, agent, siteUrl });
    expect(email.subject).toBe('New lead: Dana Lopez');
    for (const part of [email.html, email.text]) {
      for (const expected of [
        'Hello Alex',
        'Dana Lopez',
        'dana.lopez@example.com',
        '(516) 555-0123',
        '12 Elm Street, Garden City, NY 11530',
        'Please call me after 5pm.',
        'Nassau County page',
      ]) {
        expect(part).toContain(expected);
      }
      expect(part).not.toContain('/estimate/');
    }
    expect(email.html).toContain('href="mailto:dana.lopez@example.com"');
    expect(email.html).toContain('href="tel:5165550123"');
  });

  it("adds the estimate summary and link when there is one, the net named as the seller's", () => {
    const email = newLeadEmail({ lead, estimate, agent, siteUrl });
    for (const part of [email.html, email.text]) {
      expect(part).toContain('$780,200.00');
      expect(part).toContain('$279,341.00');
      expect(part).toContain(link);
      // To the agent it is not "your" net (newcomer audit minor 27).
      expect(part).toContain('Estimated net to seller');
      expect(part).not.toContain('Your Net Proceeds');
    }
  });

  it('leaves out what the lead did not give', () => {
    const email = newLeadEmail({ lead: { ...lead, phone: null, address: null, message: null }, agent, siteUrl });
    for (const part of [email.html, email.text]) {
      expect(part).not.toContain('Phone');
      expect(part).not.toContain('Address');
      expect(part).not.toContain('Message');
    }
  });

  it('escapes markup everywhere in html, keeps it plain in text, and keeps the subject on one line', () => {
    const email = newLeadEmail({
      lead: {
        ...lead,
        first_name: SCRIPT,
        last_name: 'Lopez\r\nBcc: victim@example.com',
        address: `<img src=x onerror=alert(1)>`,
        message: `${SCRIPT}\n<a href="javascript:alert(1)">x</a>`,
      },
      agent: { ...agent, first_name: '<i>Alex</i>' },
      siteUrl,
    });
    expect(email.html).not.toMatch(/<script|<img|<i>|<a href="javascript/);
    expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain('Hello &lt;i&gt;Alex&lt;/i&gt;');
    expect(email.text).toContain(SCRIPT);
    expect(email.text).toContain('<img src=x onerror=alert(1)>');
    expect(email.subject).toBe(`New lead: ${SCRIPT} Lopez Bcc: victim@example.com`);
  });
});
