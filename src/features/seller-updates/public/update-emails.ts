/**
 * The e-mails of seller updates (issue 25, decision 0056) as pure templates: data in, { subject,
 * html, text } out. The seller's two (the double opt-in's confirmation and the monthly update) go
 * to an address someone typed, so they carry only the product's words, the agent's details and the
 * figures: their inputs have no field for text a visitor wrote. The agent's alert names the lead,
 * escaped, as the new-lead notice does. The unsubscribe line and header are added at delivery
 * (withUnsubscribeFooter), not here.
 */
import type { EmailAgent, EmailContent } from '../../email/public/templates.ts';
import { ESTIMATE_DISCLAIMER, oneLine } from '../../email/public/templates.ts';
import { escapeHtml, link } from '../../email/public/html.ts';
import { formatMoney, formatPrice } from '../../../ui/money.ts';
import { formatPhone, telHref } from '../../../ui/phone.ts';
import {
  agentCardHtml,
  agentCardText,
  button,
  formatDay,
  frame,
  fullName,
  headerRow,
  MUTED,
  origin,
  row,
  salesHtml,
  salesText,
  smallPrint,
  type RecentSaleLine,
} from '../update-email-parts.ts';

export type UpdateAgent = EmailAgent & { slug: string };

/** A recent sale in the seller's town, as the update lists it (newest first, up to three). */
export type { RecentSaleLine } from '../update-email-parts.ts';

const money = (cents: number): string => formatMoney(Math.abs(cents) / 100);
const price = (cents: number): string => formatPrice(cents / 100);

/** The net in the seller's words: a figure, or (costs above the price) what they would bring to closing. */
function sellerNet(netCents: number): { headline: string; sentence: string } {
  return netCents < 0
    ? {
        headline: `You would bring ${money(netCents)} to closing`,
        sentence: `you would bring ${money(netCents)} to closing`,
      }
    : { headline: money(netCents), sentence: `your estimated net is ${money(netCents)}` };
}

/**
 * The change of the net since the last update, to the whole dollar (a move of cents is no news):
 * "Up $4,200 since your last update.", "Down …", "No change …"; null before the first.
 */
export function netChangeSentence(netCents: number, previousNetCents: number | null): string | null {
  if (previousNetCents === null) return null;
  const dollars = Math.round((netCents - previousNetCents) / 100);
  if (dollars === 0) return 'No change since your last update.';
  return `${dollars > 0 ? 'Up' : 'Down'} ${formatPrice(Math.abs(dollars))} since your last update.`;
}

const DISCLAIMER_ROW = row(smallPrint(ESTIMATE_DISCLAIMER), '16px 0 0');

/** The double opt-in's first e-mail: the seller's estimated net now and the button that confirms. */
export function updateConfirmEmail(input: {
  agent: UpdateAgent;
  priceCents: number;
  netCents: number;
  confirmUrl: string;
  siteUrl: string;
}): EmailContent {
  const { agent, priceCents, netCents, confirmUrl, siteUrl } = input;
  const agentName = fullName(agent);
  const subject = oneLine(`Confirm your monthly net update from ${agentName}`);
  const intro = `Please confirm that you want ${agentName} to send you your estimated net about once a month.`;
  const today = `Today ${sellerNet(netCents).sentence}, at a sale price of ${price(priceCents)}.`;
  const unasked = 'Nothing more is sent until you confirm. If you did not ask for this, ignore this e-mail.';
  const action = 'Yes, send me monthly updates';
  const html = frame(subject, [
    headerRow(`From ${agentName}`),
    row(`<h1 style="margin:0;font-size:24px;line-height:30px">Confirm your monthly update</h1>`),
    row(`<p style="margin:0">${escapeHtml(intro)}</p>`),
    row(`<p style="margin:0;font-size:18px;line-height:26px"><strong>${escapeHtml(today)}</strong></p>`),
    row(button(confirmUrl, action), '8px 0 16px'),
    row(`<p style="margin:0;font-size:14px;line-height:20px;color:${MUTED}">${escapeHtml(unasked)}</p>`),
    row(agentCardHtml(agent, siteUrl, 'Your agent'), '8px 0 0'),
    DISCLAIMER_ROW,
  ]);
  const text = [
    `From ${agentName}`,
    '',
    intro,
    '',
    today,
    '',
    `${action}: ${confirmUrl}`,
    '',
    unasked,
    '',
    ...agentCardText(agent, siteUrl, 'Your agent'),
    '',
    ESTIMATE_DISCLAIMER,
    '',
  ].join('\n');
  return { subject, html, text };
}

const SAMPLE_NOTE = 'SAMPLE: this is the update your sellers get, about a sample seller. It was sent to you only.';

/** The monthly update. */
export function sellerUpdateEmail(input: {
  agent: UpdateAgent;
  placeName: string;
  priceCents: number;
  netCents: number;
  previousNetCents: number | null;
  direction: string | null;
  sales: readonly RecentSaleLine[];
  links: { sheet: string; agent: string };
  asOf: string;
  sample?: boolean;
  siteUrl: string;
}): EmailContent {
  const { agent, placeName, priceCents, netCents, previousNetCents, direction, sales, links, asOf, siteUrl } = input;
  const sample = input.sample === true;
  const net = sellerNet(netCents);
  const day = formatDay(asOf);
  const subject = oneLine(
    `${sample ? 'SAMPLE: ' : ''}` +
      (netCents < 0
        ? `Your home sale update: ${money(netCents)} to bring to closing`
        : `Your estimated net this month: ${money(netCents)}`),
  );
  const label = netCents < 0 ? `Your estimate on ${day}` : `Your estimated net on ${day}`;
  const basis = `At a sale price of ${price(priceCents)}: your estimate’s price, updated for the change in home values in ${placeName}.`;
  const change = netChangeSentence(netCents, previousNetCents);
  const sheetAction = 'See my updated sheet';
  const agentAction = `Talk to ${agent.first_name}`.trim();
  const why = `You asked ${fullName(agent)} for monthly updates of your estimated net.`;

  const sampleRow = sample
    ? [
        row(
          '<p role="note" style="margin:0;padding:10px 12px;background:#fff8e1;border-left:4px solid #d99a1a;' +
            `border-radius:4px;font-size:14px;line-height:20px"><strong>${escapeHtml(SAMPLE_NOTE)}</strong></p>`,
        ),
      ]
    : [];
  const html = frame(subject, [
    ...sampleRow,
    headerRow(`Your monthly update from ${fullName(agent)}`),
    row(`<p style="margin:0;font-size:14px;line-height:20px;color:${MUTED}">${escapeHtml(label)}</p>`, '0 0 4px'),
    row(
      `<h1 style="margin:0;font-size:${netCents < 0 ? '26px;line-height:32px' : '36px;line-height:42px'}">` +
        `${escapeHtml(net.headline)}</h1>`,
      '0 0 8px',
    ),
    row(`<p style="margin:0">${escapeHtml(basis)}</p>`, '0 0 12px'),
    ...(change ? [row(`<p style="margin:0"><strong>${escapeHtml(change)}</strong></p>`, '0 0 12px')] : []),
    ...(direction ? [row(`<p style="margin:0">${escapeHtml(direction)}</p>`, '0 0 12px')] : []),
    row(button(links.sheet, sheetAction), '8px 0 12px'),
    row(button(links.agent, agentAction, true), '0 0 24px'),
    ...(sales.length > 0 ? [row(salesHtml(sales.slice(0, 3)), '0 0 24px')] : []),
    row(agentCardHtml(agent, siteUrl, 'Your agent')),
    row(smallPrint(why), '8px 0 0'),
    DISCLAIMER_ROW,
  ]);
  const text = [
    ...(sample ? [SAMPLE_NOTE, ''] : []),
    `Your monthly update from ${fullName(agent)}`,
    '',
    `${label}: ${netCents < 0 ? `you would bring ${money(netCents)} to closing` : money(netCents)}`,
    basis,
    ...(change ? [change] : []),
    ...(direction ? [direction] : []),
    '',
    `${sheetAction}: ${links.sheet}`,
    `${agentAction}: ${links.agent}`,
    '',
    ...(sales.length > 0 ? [...salesText(sales.slice(0, 3)), ''] : []),
    ...agentCardText(agent, siteUrl, 'Your agent'),
    '',
    why,
    '',
    ESTIMATE_DISCLAIMER,
    '',
  ].join('\n');
  return { subject, html, text };
}

export type ActiveReason = 'two_clicks' | 'rerun' | 'higher_net';

/** Why a seller is active, in the agent's words. */
export const ACTIVE_REASON_TEXT: Record<ActiveReason, string> = {
  two_clicks: 'Followed two links in their monthly updates within 14 days',
  rerun: 'Ran their estimate again',
  higher_net: 'Asked for a higher net than their last update showed',
};

/** To the agent: one of their sellers became active. */
export function sellerActiveEmail(input: {
  agent: UpdateAgent;
  lead: { first_name: string; last_name: string; email: string; phone: string | null };
  reasons: readonly ActiveReason[];
  netCents: number | null;
  leadUrl: string;
  siteUrl: string;
}): EmailContent {
  const { agent, lead, netCents, leadUrl, siteUrl } = input;
  const reasons = [...new Set(input.reasons)].map((reason) => ACTIVE_REASON_TEXT[reason]);
  const name = fullName(lead);
  const subject = oneLine(`Active seller: ${name}`);
  const hello = `Hello ${agent.first_name}, ${name} may be getting ready to sell.`;
  const details: { label: string; value: string; href?: string }[] = [
    { label: 'Email', value: lead.email, href: `mailto:${lead.email}` },
  ];
  if (lead.phone) details.push({ label: 'Phone', value: formatPhone(lead.phone), href: telHref(lead.phone) });
  if (netCents !== null) {
    details.push({
      label: 'Latest net',
      value: netCents < 0 ? `Would bring ${money(netCents)} to closing` : money(netCents),
    });
  }
  const action = 'Open the lead';
  const manage = `${origin(siteUrl)}/dashboard/updates`;
  const why =
    'You get this at most once a week per seller, when a seller who gets your monthly updates becomes active.';
  const html = frame(subject, [
    row(`<p style="margin:0;font-size:18px;line-height:26px">${escapeHtml(hello)}</p>`),
    ...(reasons.length > 0
      ? [
          row(
            '<p style="margin:0 0 4px;font-weight:bold">What they did</p>' +
              `<ul style="margin:0;padding-left:20px">${reasons.map((reason) => `<li style="margin:4px 0">${escapeHtml(reason)}</li>`).join('')}</ul>`,
          ),
        ]
      : []),
    row(
      '<table role="presentation" cellpadding="0" cellspacing="0" border="0">' +
        details
          .map(
            ({ label, value, href }) =>
              `<tr><td style="padding:4px 16px 4px 0;vertical-align:top;white-space:nowrap;font-weight:bold">${escapeHtml(label)}</td>` +
              `<td style="padding:4px 0">${href ? link(href, value) : escapeHtml(value)}</td></tr>`,
          )
          .join('') +
        '</table>',
    ),
    row(button(leadUrl, action), '8px 0 16px'),
    row(smallPrint(why)),
    row(`<p style="margin:0;font-size:14px;line-height:20px">${link(manage, 'Manage seller updates')}</p>`, '0'),
  ]);
  const text = [
    hello,
    '',
    ...(reasons.length > 0 ? ['What they did:', ...reasons.map((reason) => `- ${reason}`), ''] : []),
    ...details.map(({ label, value }) => `${label}: ${value}`),
    '',
    `${action}: ${leadUrl}`,
    '',
    why,
    `Manage seller updates: ${manage}`,
    '',
  ].join('\n');
  return { subject, html, text };
}
