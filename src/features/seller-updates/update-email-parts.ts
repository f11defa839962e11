/**
 * The pieces the seller-update e-mails are made of (public/update-emails.ts): a table-based frame
 * and buttons, because many mail clients (Outlook's Word engine, Gmail's app) ignore CSS layout
 * and drop <style> blocks; inline styles only, one column no wider than 600px, so a phone shows
 * it without sideways scrolling.
 */
import type { EmailAgent } from '../email/public/templates.ts';
import { escapeHtml, FONT, link } from '../email/public/html.ts';
import { formatPhone, telHref } from '../../ui/phone.ts';
import { formatPrice } from '../../ui/money.ts';
import { homeFactsLine } from '../../ui/home-facts.ts';

export const TEXT_COLOR = '#1a2733';
export const MUTED = '#5a6b7b';
const BRAND = '#1d4f91';

export const fullName = (person: { first_name: string; last_name: string }): string =>
  `${person.first_name} ${person.last_name}`.trim();

const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "2026-11-27" as "November 27, 2026" (the day as written, whatever the server's time zone). */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : longDate.format(date);
}

/** The site's address without a trailing slash, so paths can be appended. */
export const origin = (siteUrl: string): string => siteUrl.replace(/\/+$/, '');

/** The agent's own page on the site (/r/{slug}). */
export const agentPageUrl = (siteUrl: string, slug: string): string =>
  `${origin(siteUrl)}/r/${encodeURIComponent(slug)}`;

/** One row of the card: each block of a message is its own table row, the layout mail clients keep. */
export const row = (html: string, padding = '0 0 16px'): string =>
  `<tr><td style="padding:${padding};${FONT};color:${TEXT_COLOR};font-size:16px;line-height:24px">${html}</td></tr>`;

/**
 * The frame of every seller-update message: a full-width background table holding one card table
 * of at most 600px. `rows` are <tr> elements (see row). The unsubscribe line is added at delivery,
 * before </body> (withUnsubscribeFooter).
 */
export function frame(title: string, rows: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="x-apple-disable-message-reformatting">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f4f6f8;color:${TEXT_COLOR};${FONT}">`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;background:#f4f6f8">',
    '<tr><td align="center" style="padding:24px 12px">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" ' +
      'style="width:100%;max-width:600px;background:#ffffff;border-radius:8px">',
    '<tr><td style="padding:24px">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%">',
    ...rows,
    '</table>',
    '</td></tr></table>',
    '</td></tr></table>',
    '</body></html>',
  ].join('\n');
}

/**
 * A button that survives mail clients: a coloured cell holding a block link, 48px tall (12px
 * padding and a 2px border around a 20px line), the full width of the card so a thumb finds it on a phone.
 * `secondary` is outlined, for the second of two actions.
 */
export function button(href: string, label: string, secondary = false): string {
  const background = secondary ? '#ffffff' : BRAND;
  const color = secondary ? BRAND : '#ffffff';
  return (
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%">' +
    `<tr><td align="center" style="border-radius:6px;background:${background}">` +
    `<a href="${escapeHtml(href)}" style="display:block;padding:12px 16px;border:2px solid ${BRAND};border-radius:6px;` +
    `background:${background};color:${color};${FONT};font-size:16px;line-height:20px;font-weight:bold;` +
    `text-align:center;text-decoration:none">${escapeHtml(label)}</a></td></tr></table>`
  );
}

/** The top line of a seller's message: who it is from (the agent's brand), over a rule. */
export const headerRow = (text: string): string =>
  row(
    `<p style="margin:0;padding:0 0 12px;border-bottom:1px solid #d5dde5;font-size:14px;line-height:20px;color:${MUTED}">` +
      `${escapeHtml(text)}</p>`,
  );

/** A small grey paragraph: why the message came, the disclaimer. */
export const smallPrint = (text: string): string =>
  `<p style="margin:0;font-size:12px;line-height:18px;color:${MUTED}">${escapeHtml(text)}</p>`;

/** The agent's card: name, phone, e-mail and their page, each a link where it can be one. */
export function agentCardHtml(agent: EmailAgent & { slug: string }, siteUrl: string, heading: string): string {
  const lines = [`<strong>${escapeHtml(fullName(agent))}</strong>`];
  if (agent.phone) lines.push(`Phone: ${link(telHref(agent.phone), formatPhone(agent.phone))}`);
  lines.push(`Email: ${link(`mailto:${agent.email}`, agent.email)}`);
  lines.push(link(agentPageUrl(siteUrl, agent.slug), `About ${agent.first_name}`.trim()));
  return (
    `<p style="margin:0 0 4px;font-size:14px;font-weight:bold;color:${MUTED}">${escapeHtml(heading)}</p>` +
    `<p style="margin:0">${lines.join('<br>\n')}</p>`
  );
}

export function agentCardText(agent: EmailAgent & { slug: string }, siteUrl: string, heading: string): string[] {
  return [
    `${heading}:`,
    fullName(agent),
    ...(agent.phone ? [`Phone: ${formatPhone(agent.phone)}`] : []),
    `Email: ${agent.email}`,
    `About ${agent.first_name}: ${agentPageUrl(siteUrl, agent.slug)}`.trim(),
  ];
}

/** A recent sale in the seller's town: its address comes from the sales data, never from a visitor. */
export interface RecentSaleLine {
  address: string;
  priceCents: number | null;
  soldDate: string /* YYYY-MM-DD */;
  beds: number | null;
  baths: number | null;
  sqft: number | null;
}

/** A recent sale's facts after its address: price (or that it was not disclosed), day, size. */
function saleFacts(sale: RecentSaleLine): { price: string; sold: string; size: string } {
  return {
    price: sale.priceCents === null ? 'Price not disclosed' : formatPrice(sale.priceCents / 100),
    sold: `Sold ${formatDay(sale.soldDate)}`,
    size: homeFactsLine(sale),
  };
}

export function salesHtml(sales: readonly RecentSaleLine[]): string {
  const items = sales.map((sale) => {
    const facts = saleFacts(sale);
    return (
      `<tr><td style="padding:10px 0;border-top:1px solid #d5dde5;font-size:15px;line-height:22px">` +
      `<strong>${escapeHtml(sale.address)}</strong><br>` +
      `${escapeHtml(facts.price)} · ${escapeHtml(facts.sold)}` +
      (facts.size ? `<br><span style="color:${MUTED}">${escapeHtml(facts.size)}</span>` : '') +
      '</td></tr>'
    );
  });
  return (
    '<h2 style="margin:0 0 4px;font-size:18px;line-height:24px">Recent sales nearby</h2>' +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%">${items.join('')}</table>`
  );
}

export function salesText(sales: readonly RecentSaleLine[]): string[] {
  return [
    'Recent sales nearby:',
    ...sales.map((sale) => {
      const facts = saleFacts(sale);
      return `- ${sale.address}: ${facts.price}, ${facts.sold}${facts.size ? `; ${facts.size}` : ''}`;
    }),
  ];
}
