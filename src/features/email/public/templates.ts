/**
 * The e-mails the product sends, as pure functions: data in, { subject, html, text } out. Every
 * interpolated value is HTML-escaped in the html part and left plain in the text part.
 */
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';
import { lineAmount, netSheetLines, type LineLabels } from '../../net-sheet/public/net-sheet.ts';
import { formatMoney } from '../../../ui/money.ts';
import { formatPhone } from '../../../ui/phone.ts';
import { leadSourceLabel } from '../../lead-origin/public/lead-page.ts';
import { escapeHtml, FONT, link } from './html.ts';

export interface EmailContent {
  subject: string;
  html: string;
  text: string;
}

/** The agent a message is from (estimate) or for (new lead). */
export interface EmailAgent {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}

export interface EmailLead {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  address: string | null;
  message: string | null;
  source: string;
  /** The site path of the page the lead's form was on, when it said. */
  page_path?: string | null;
}

export const ESTIMATE_DISCLAIMER =
  'This is an estimate for information only, not a guarantee of sale price or proceeds. Actual figures depend on ' +
  'your contract, your lender’s payoff statement and your closing costs; ask your attorney for exact amounts.';

/** A subject is one line: line breaks and other control characters become spaces. */
export function oneLine(value: string): string {
  return value
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

export const estimateUrl = (siteUrl: string, uuid: string): string =>
  `${siteUrl.replace(/\/+$/, '')}/estimate/${encodeURIComponent(uuid)}`;

const fullName = (person: { first_name: string; last_name: string }): string =>
  `${person.first_name} ${person.last_name}`.trim();

/**
 * Who reads the sheet: the seller ("Your Net Proceeds") or their agent, to whom it is the seller's
 * net, not theirs (newcomer audit minor 27: the agent's notice and CRM note said "Your Net Proceeds").
 */
export type SheetReader = 'seller' | 'agent';

/** The net, or when the costs exceed the price what the seller brings to closing, in the reader's words. */
function netLine(estimate: Estimate, reader: SheetReader): { label: string; amount: string } {
  const negative = estimate.net_to_seller < 0;
  const label =
    reader === 'seller'
      ? negative
        ? 'Amount to bring to closing'
        : 'Your Net Proceeds'
      : negative
        ? 'Seller would bring to closing'
        : 'Estimated net to seller';
  return { label, amount: formatMoney(Math.abs(estimate.net_to_seller)) };
}

/** The shared frame of every HTML message: a simple, centred, single-column layout. */
function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f4f6f8;color:#1a2733;${FONT}">`,
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">',
    body,
    '</div></body></html>',
  ].join('\n');
}

/** The sheet's warnings (guard-rails.ts), in the words the web sheet uses; none on a quick estimate. */
const warningsOf = (estimate: Estimate): string[] => estimate.sheet?.warnings.map((warning) => warning.text) ?? [];

/**
 * The sheet's warnings as the web sheet's "Please check" box, above the figures (issue 22): a
 * closing already past or large concessions must reach whoever reads the mail, not only the page.
 */
function warningsHtml(estimate: Estimate): string {
  const warnings = warningsOf(estimate);
  if (warnings.length === 0) return '';
  return (
    '<div role="note" style="margin:8px 0 16px;padding:12px 16px;background:#fff8e1;border-left:4px solid #d99a1a;border-radius:4px">' +
    '<p style="margin:0 0 6px;font-weight:bold">Please check</p>' +
    `<ul style="margin:0;padding-left:20px">${warnings.map((warning) => `<li style="margin:4px 0">${escapeHtml(warning)}</li>`).join('')}</ul>` +
    '</div>\n'
  );
}

/** The net sheet as an HTML table: its warnings, every non-zero line, then the net, largest. */
function estimateTableHtml(estimate: Estimate, labels: LineLabels, reader: SheetReader): string {
  const rows = netSheetLines(estimate, labels).map(
    (line) =>
      `<tr><th scope="row" style="text-align:left;font-weight:normal;padding:6px 0">${escapeHtml(line.label)}</th>` +
      `<td style="text-align:right;padding:6px 0">${escapeHtml(lineAmount(line, '−'))}</td></tr>`,
  );
  const net = netLine(estimate, reader);
  rows.push(
    `<tr><th scope="row" style="text-align:left;padding:12px 0 0;border-top:1px solid #d5dde5;font-size:18px">` +
      `${escapeHtml(net.label)}</th><td style="text-align:right;padding:12px 0 0;border-top:1px solid #d5dde5;` +
      `font-size:24px;font-weight:bold">${escapeHtml(net.amount)}</td></tr>`,
  );
  return `${warningsHtml(estimate)}<table role="presentation" style="width:100%;border-collapse:collapse">\n${rows.join('\n')}\n</table>`;
}

/** The net sheet as lines of text: its warnings, every non-zero line, then the net. */
export function estimateLinesText(estimate: Estimate, reader: SheetReader, labels: LineLabels = 'typed'): string[] {
  const net = netLine(estimate, reader);
  const warnings = warningsOf(estimate);
  return [
    ...(warnings.length > 0 ? ['Please check:', ...warnings.map((warning) => `- ${warning}`), ''] : []),
    ...netSheetLines(estimate, labels).map((line) => `${line.label}: ${lineAmount(line)}`),
    `${net.label}: ${net.amount}`,
  ];
}

function agentContactHtml(agent: EmailAgent): string {
  const parts = [`<strong>${escapeHtml(fullName(agent))}</strong>`];
  if (agent.phone) parts.push(`Phone: ${link(`tel:${agent.phone.replace(/[^\d+]/g, '')}`, formatPhone(agent.phone))}`);
  parts.push(`Email: ${link(`mailto:${agent.email}`, agent.email)}`);
  return `<p style="margin:16px 0">${parts.join('<br>\n')}</p>`;
}

function agentContactText(agent: EmailAgent): string[] {
  return [fullName(agent), ...(agent.phone ? [`Phone: ${formatPhone(agent.phone)}`] : []), `Email: ${agent.email}`];
}

/**
 * The estimate e-mailed to a visitor: every non-zero line, the net, a link, the agent, a disclaimer.
 * It goes to an address someone typed, which has not shown it is theirs, so it carries only the
 * product's words and the figures (security audit 2026-11-26, finding 2): no name in the greeting,
 * the lines a visitor named (liens, other costs) by their number; their names stay on the estimate
 * page behind the link.
 */
export function estimateEmail({
  estimate,
  agent,
  siteUrl,
}: {
  estimate: Estimate;
  agent: EmailAgent;
  siteUrl: string;
}): EmailContent {
  const url = estimateUrl(siteUrl, estimate.uuid);
  const net = netLine(estimate, 'seller');
  const subject =
    estimate.net_to_seller < 0
      ? `Your home sale estimate: ${net.amount} to bring to closing`
      : `Your estimated net proceeds: ${net.amount}`;
  const greeting = 'Hello,';
  const intro = "here's your estimated net proceeds:";
  const html = page(
    subject,
    [
      `<p style="margin:0 0 8px;font-size:16px">${escapeHtml(greeting)} ${escapeHtml(intro)}</p>`,
      estimateTableHtml(estimate, 'product', 'seller'),
      `<p style="margin:20px 0">${link(url, 'View your estimate online')}</p>`,
      '<p style="margin:16px 0 0">Questions about selling your home? Your agent is glad to help:</p>',
      agentContactHtml(agent),
      `<p style="margin:24px 0 0;font-size:12px;color:#5a6b7b">${escapeHtml(ESTIMATE_DISCLAIMER)}</p>`,
    ].join('\n'),
  );
  const text = [
    `${greeting} ${intro}`,
    '',
    ...estimateLinesText(estimate, 'seller', 'product'),
    '',
    `View your estimate online: ${url}`,
    '',
    'Questions about selling your home? Your agent is glad to help:',
    ...agentContactText(agent),
    '',
    ESTIMATE_DISCLAIMER,
    '',
  ].join('\n');
  return { subject, html, text };
}

/** The agent's notice of a new lead: who, how to reach them, where from, and their estimate if any. */
export function newLeadEmail({
  lead,
  estimate,
  agent,
  siteUrl,
}: {
  lead: EmailLead;
  estimate?: Estimate | null;
  agent: EmailAgent;
  siteUrl: string;
}): EmailContent {
  const name = fullName(lead);
  const subject = oneLine(`New lead: ${name}`);
  const details: { label: string; value: string; href?: string }[] = [
    { label: 'Name', value: name },
    { label: 'Email', value: lead.email, href: `mailto:${lead.email}` },
  ];
  if (lead.phone) {
    details.push({ label: 'Phone', value: formatPhone(lead.phone), href: `tel:${lead.phone.replace(/[^\d+]/g, '')}` });
  }
  if (lead.address) details.push({ label: 'Address', value: lead.address });
  details.push({ label: 'Source', value: leadSourceLabel(lead.source, lead.page_path) });
  const url = estimate ? estimateUrl(siteUrl, estimate.uuid) : null;
  const htmlParts = [
    `<p style="margin:0 0 12px;font-size:16px">Hello ${escapeHtml(agent.first_name)}, you have a new lead.</p>`,
    '<table role="presentation" style="width:100%;border-collapse:collapse">',
    ...details.map(
      ({ label, value, href }) =>
        `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;vertical-align:top;width:1%;white-space:nowrap">` +
        `${escapeHtml(label)}</th>` +
        `<td style="padding:4px 0">${href ? link(href, value) : escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
  ];
  const textParts = [
    `Hello ${agent.first_name}, you have a new lead.`,
    '',
    ...details.map(({ label, value }) => `${label}: ${value}`),
  ];
  if (lead.message) {
    htmlParts.push(
      '<p style="margin:16px 0 4px;font-weight:bold">Message</p>',
      `<p style="margin:0;white-space:pre-wrap">${escapeHtml(lead.message)}</p>`,
    );
    textParts.push('', 'Message:', lead.message);
  }
  if (estimate && url) {
    htmlParts.push(
      '<p style="margin:20px 0 8px;font-weight:bold">Their estimate</p>',
      estimateTableHtml(estimate, 'typed', 'agent'),
    );
    htmlParts.push(`<p style="margin:16px 0">${link(url, 'View the estimate online')}</p>`);
    textParts.push(
      '',
      'Their estimate:',
      ...estimateLinesText(estimate, 'agent'),
      '',
      `View the estimate online: ${url}`,
    );
  }
  const footer = 'You are receiving this because a visitor asked you to contact them.';
  htmlParts.push(`<p style="margin:24px 0 0;font-size:12px;color:#5a6b7b">${escapeHtml(footer)}</p>`);
  textParts.push('', footer, '');
  return { subject, html: page(subject, htmlParts.join('\n')), text: textParts.join('\n') };
}
