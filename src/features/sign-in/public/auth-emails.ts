/**
 * The account e-mails (verification and password reset), as pure functions: data in,
 * { subject, html, text } out. Every interpolated value is HTML-escaped in the html part.
 */
import { escapeHtml } from '../../email/public/html.ts';
import type { EmailContent } from '../../email/public/templates.ts';

import { BRAND_NAME } from '../../../ui/brand.ts';
import {
  CHANGE_EMAIL_HOURS,
  INVITATION_HOURS,
  RESET_PASSWORD_HOURS,
  UNDO_EMAIL_CHANGE_HOURS,
  VERIFY_EMAIL_HOURS,
} from '../../auth/public/token-hours.ts';

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = '#14213d';
const MUTED = '#4a5568';
const BRAND = '#1d4ed8';

export const verifyEmailUrl = (siteUrl: string, token: string): string =>
  `${siteUrl.replace(/\/+$/, '')}/verify-email?token=${encodeURIComponent(token)}`;

export const resetPasswordUrl = (siteUrl: string, token: string): string =>
  `${siteUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * An invitation's link: the same set-password page, told to welcome a new agent rather than speak of
 * a reset (newcomer audit M6). The token's purpose, not this flag, decides what the server does.
 */
export const invitationUrl = (siteUrl: string, token: string): string =>
  `${resetPasswordUrl(siteUrl, token)}&welcome=1`;

export const confirmEmailChangeUrl = (siteUrl: string, token: string): string =>
  `${siteUrl.replace(/\/+$/, '')}/confirm-email-change?token=${encodeURIComponent(token)}`;

export const undoEmailChangeUrl = (siteUrl: string, token: string): string =>
  `${siteUrl.replace(/\/+$/, '')}/undo-email-change?token=${encodeURIComponent(token)}`;

interface ActionEmail {
  subject: string;
  greeting: string;
  intro: string;
  action: string;
  url: string;
  expiry: string;
  footer: string;
  siteUrl: string;
}

/** A branded single-action message: header, a few lines, one button, the link spelled out, a footer. */
function actionEmail({ subject, greeting, intro, action, url, expiry, footer, siteUrl }: ActionEmail): EmailContent {
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f5f7fa;color:${INK};${FONT}">`,
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:10px;overflow:hidden">',
    `<div style="background:${BRAND};color:#ffffff;padding:16px 24px;font-size:18px;font-weight:bold">` +
      `${escapeHtml(BRAND_NAME)}</div>`,
    '<div style="padding:24px">',
    `<p style="margin:0 0 12px;font-size:16px">${escapeHtml(greeting)}</p>`,
    `<p style="margin:0 0 20px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</p>`,
    `<p style="margin:0 0 20px"><a href="${escapeHtml(url)}" style="display:inline-block;background:${BRAND};` +
      `color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 20px;border-radius:6px">${escapeHtml(action)}</a></p>`,
    `<p style="margin:0 0 8px;font-size:14px;color:${MUTED}">${escapeHtml(expiry)} If the button does not work, ` +
      'copy this link into your browser:</p>',
    `<p style="margin:0 0 20px;font-size:14px;word-break:break-all"><a href="${escapeHtml(url)}" style="color:${BRAND}">` +
      `${escapeHtml(url)}</a></p>`,
    `<p style="margin:0;font-size:12px;color:${MUTED}">${escapeHtml(footer)}</p>`,
    '</div></div>',
    `<p style="max-width:560px;margin:12px auto 0;font-size:12px;color:${MUTED};text-align:center">` +
      `${escapeHtml(BRAND_NAME)} · <a href="${escapeHtml(siteUrl)}" style="color:${MUTED}">${escapeHtml(siteUrl)}</a></p>`,
    '</body></html>',
  ].join('\n');
  const text = [
    greeting,
    '',
    intro,
    '',
    `${action}: ${url}`,
    '',
    expiry,
    '',
    footer,
    '',
    `${BRAND_NAME} · ${siteUrl}`,
    '',
  ].join('\n');
  return { subject, html, text };
}

const greetingFor = (firstName: string | null | undefined): string =>
  firstName && firstName.trim() !== '' ? `Hi ${firstName.trim()},` : 'Hello,';

/** Sent at sign-up and on "resend verification": the link that activates the account. */
export function verificationEmail({
  token,
  siteUrl,
  firstName,
}: {
  token: string;
  siteUrl: string;
  firstName?: string | null;
}): EmailContent {
  const origin = siteUrl.replace(/\/+$/, '');
  return actionEmail({
    subject: `Verify your email for ${BRAND_NAME}`,
    greeting: greetingFor(firstName),
    intro:
      `Thanks for signing up for ${BRAND_NAME}. Please confirm your email address to activate your agent ` +
      'account and your personal calculator page.',
    action: 'Verify my email',
    url: verifyEmailUrl(origin, token),
    expiry: `This link works once and expires in ${VERIFY_EMAIL_HOURS} hours.`,
    footer: 'If you did not create an account, you can ignore this email; no account will be activated.',
    siteUrl: origin,
  });
}

/** Sent on "forgot password": the link to choose a new password. */
export function passwordResetEmail({
  token,
  siteUrl,
  firstName,
}: {
  token: string;
  siteUrl: string;
  firstName?: string | null;
}): EmailContent {
  const origin = siteUrl.replace(/\/+$/, '');
  return actionEmail({
    subject: `Reset your ${BRAND_NAME} password`,
    greeting: greetingFor(firstName),
    intro: 'We received a request to reset the password of your agent account. Choose a new password here:',
    action: 'Reset my password',
    url: resetPasswordUrl(origin, token),
    expiry: `This link works once and expires in ${RESET_PASSWORD_HOURS} hour.`,
    footer:
      'If you did not ask to reset your password, you can ignore this email; your password stays the same. ' +
      'Resetting it signs you out everywhere.',
    siteUrl: origin,
  });
}

/**
 * Sent when an admin adds an agent: a link to the set-password page (a token of purpose invitation),
 * as following it both sets the password and proves the address, which activates the account the
 * admin made. A password reset (purpose reset_password) never activates anyone.
 */
export function invitationEmail({
  token,
  siteUrl,
  firstName,
}: {
  token: string;
  siteUrl: string;
  firstName?: string | null;
}): EmailContent {
  const origin = siteUrl.replace(/\/+$/, '');
  return actionEmail({
    subject: `Your ${BRAND_NAME} agent account`,
    greeting: greetingFor(firstName),
    intro:
      `An administrator of ${BRAND_NAME} has created an agent account for you with your own calculator page. ` +
      'Choose a password to activate it:',
    action: 'Set my password',
    url: invitationUrl(origin, token),
    expiry: `This link works once and expires in ${INVITATION_HOURS} hours.`,
    footer: 'If you did not expect this email, you can ignore it; the account stays inactive.',
    siteUrl: origin,
  });
}

/**
 * Sent to the NEW address of a profile e-mail change: the link that moves the account there. It
 * carries only the product's words and the address itself (no name or text the agent typed), as
 * anyone can type any address.
 */
export function confirmEmailChangeEmail({ token, siteUrl }: { token: string; siteUrl: string }): EmailContent {
  const origin = siteUrl.replace(/\/+$/, '');
  return actionEmail({
    subject: `Confirm your new email for ${BRAND_NAME}`,
    greeting: 'Hello,',
    intro:
      `Someone asked to use this address for an agent account of ${BRAND_NAME}. If it was you, confirm ` +
      'the change; the account keeps its old address until you do.',
    action: 'Confirm my new email',
    url: confirmEmailChangeUrl(origin, token),
    expiry: `This link works once and expires in ${CHANGE_EMAIL_HOURS} hours.`,
    footer: 'If you did not ask for this, ignore this email: nothing changes.',
    siteUrl: origin,
  });
}

/**
 * Sent instead of confirmEmailChangeEmail when the new address already has an account: the change
 * cannot happen, and the address's owner is told why they got mail (the profile screen answers the
 * same either way, so it does not tell the asker whether the address is registered).
 */
export function emailChangeTakenEmail({ siteUrl }: { siteUrl: string }): EmailContent {
  const origin = siteUrl.replace(/\/+$/, '');
  return actionEmail({
    subject: `Your address was entered on ${BRAND_NAME}`,
    greeting: 'Hello,',
    intro:
      `Someone asked to move another agent account of ${BRAND_NAME} to this address. This address ` +
      'already has an account, so nothing changed. If you forgot your password, you can reset it here:',
    action: 'Reset my password',
    url: `${origin}/forgot-password`,
    expiry: 'Your account and its password are unchanged.',
    footer: 'If you did not ask for this, you can ignore this email.',
    siteUrl: origin,
  });
}

/** Sent to the OLD address of a profile e-mail change: what is happening, and the link that undoes it. */
export function emailChangeNoticeEmail({
  token,
  siteUrl,
  newEmail,
  firstName,
}: {
  token: string;
  siteUrl: string;
  newEmail: string;
  firstName?: string | null;
}): EmailContent {
  const origin = siteUrl.replace(/\/+$/, '');
  return actionEmail({
    subject: `Your ${BRAND_NAME} email is being changed`,
    greeting: greetingFor(firstName),
    intro:
      `Someone signed in to your agent account asked to change its email to ${newEmail}. The change ` +
      'happens once that address confirms it. If this was not you, undo it: your account keeps (or gets ' +
      'back) this address and every session is signed out.',
    action: 'Undo the change',
    url: undoEmailChangeUrl(origin, token),
    expiry: `This link works once and for ${UNDO_EMAIL_CHANGE_HOURS / 24} days.`,
    footer: 'If you made this change, you need not do anything. If you did not, also reset your password.',
    siteUrl: origin,
  });
}
