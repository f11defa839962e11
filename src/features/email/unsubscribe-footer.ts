/**
 * The unsubscribe line deliverQueued adds to every message as it sends: apart from the templates, so
 * that the deliverer loads no template (nor the town data they name pages with).
 */
import type { EmailContent } from './public/templates.ts';
import { escapeHtml, FONT, link } from './public/html.ts';

export const UNSUBSCRIBE_FOOTER = 'Don’t want these e-mails?';

/**
 * Adds the unsubscribe line to a message made by any template here or in auth-emails.ts: in the
 * html just before `</body>` (every frame ends with it; interpolated values are escaped, so it
 * cannot come from the data), at the end of the text. deliverQueued calls it with the
 * recipient's link as it sends.
 */
export function withUnsubscribeFooter(
  { html, text }: Pick<EmailContent, 'html' | 'text'>,
  unsubscribeUrl: string,
): Pick<EmailContent, 'html' | 'text'> {
  const line =
    `<p style="max-width:560px;margin:12px auto 0;font-size:12px;color:#5a6b7b;text-align:center;${FONT}">` +
    `${escapeHtml(UNSUBSCRIBE_FOOTER)} ${link(unsubscribeUrl, 'Unsubscribe')}</p>\n`;
  const end = html.lastIndexOf('</body>');
  return {
    html: end === -1 ? `${html}\n${line}` : `${html.slice(0, end)}${line}${html.slice(end)}`,
    text: `${text.replace(/\n*$/, '')}\n\n${UNSUBSCRIBE_FOOTER} Unsubscribe: ${unsubscribeUrl}\n`,
  };
}
