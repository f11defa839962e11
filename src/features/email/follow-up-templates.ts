/**
 * Follow-up messages an agent can send a seller about their estimate (POST /api/templates): an
 * e-mail subject and body and a text message, built from the estimate's own figures.
 */
import * as z from 'zod';
import type { Estimate } from '../net-sheet/public/estimate-request.ts';
import { MAX_NAME_LENGTH, UUID_PATTERN } from '../net-sheet/public/estimate-request.ts';
import { formatMoney } from '../../ui/money.ts';
import { estimateUrl, oneLine } from './public/templates.ts';

/** Longest text message we write: two SMS segments. */
export const MAX_SMS_LENGTH = 320;

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(MAX_NAME_LENGTH, `${label} must be at most ${MAX_NAME_LENGTH} characters`);

export const templatesRequestSchema = z.object({
  uuid: z.string({ error: 'Estimate id is required' }).regex(UUID_PATTERN, 'Estimate id is not valid'),
  first_name: name('First name'),
  sender_name: name('Sender name'),
});

export type TemplatesRequest = z.input<typeof templatesRequestSchema>;

export interface FollowUpTemplates {
  email_subject: string;
  email_body: string;
  sms: string;
}

/** The sentence about the outcome: net proceeds, or what the seller would bring to closing. */
function outcome(estimate: Estimate): { short: string; long: string } {
  const amount = formatMoney(Math.abs(estimate.net_to_seller));
  return estimate.net_to_seller < 0
    ? { short: `you'd bring about ${amount} to closing`, long: `you would need to bring about ${amount} to closing` }
    : { short: `your estimated net is ${amount}`, long: `your estimated net proceeds are ${amount}` };
}

/** A name cut to `max` characters, with an ellipsis when it was cut. */
const clip = (value: string, max: number): string => (value.length <= max ? value : `${value.slice(0, max - 1)}…`);

function sms(estimate: Estimate, firstName: string, senderName: string, url: string): string {
  const compose = (first: string, sender: string, withLink: boolean) =>
    `Hi ${first}, it's ${sender}. On a ${formatMoney(estimate.sale_price)} sale with a ` +
    `${formatMoney(estimate.mortgage_payoff)} payoff, ${outcome(estimate).short}.` +
    (withLink ? ` Full breakdown: ${url}` : '') +
    ' Want to talk it through?';
  const attempts = [
    compose(firstName, senderName, true),
    compose(clip(firstName, 30), clip(senderName, 40), true),
    compose(clip(firstName, 30), clip(senderName, 40), false),
  ];
  const fitting = attempts.find((text) => text.length <= MAX_SMS_LENGTH);
  return fitting ?? clip(attempts[attempts.length - 1] ?? '', MAX_SMS_LENGTH);
}

export function followUpTemplates({
  estimate,
  firstName,
  senderName,
  siteUrl,
}: {
  estimate: Estimate;
  firstName: string;
  senderName: string;
  siteUrl: string;
}): FollowUpTemplates {
  const url = estimateUrl(siteUrl, estimate.uuid);
  const net = outcome(estimate);
  const subject =
    estimate.net_to_seller < 0
      ? `${firstName}, your home sale estimate`
      : `${firstName}, your estimated net proceeds: ${formatMoney(estimate.net_to_seller)}`;
  const body = [
    `Hi ${firstName},`,
    '',
    `Thanks for running the numbers on your home sale. Based on a sale price of ${formatMoney(estimate.sale_price)} ` +
      `and a mortgage payoff of ${formatMoney(estimate.mortgage_payoff)}, ${net.long} after commission, ` +
      'transfer tax, attorney and recording fees.',
    '',
    `You can see the full breakdown here: ${url}`,
    '',
    "I'd be glad to walk you through it and talk about how to get the most for your home. Just reply to this " +
      'e-mail or give me a call.',
    '',
    'Best regards,',
    senderName,
  ].join('\n');
  return {
    email_subject: oneLine(subject),
    email_body: body,
    sms: sms(estimate, firstName, senderName, url),
  };
}
