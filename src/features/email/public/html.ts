/** The pieces of HTML every e-mail is made of (templates.ts, auth-emails.ts, the unsubscribe footer). */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to put in HTML element content and in quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

export const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

export const link = (href: string, label: string): string =>
  `<a href="${escapeHtml(href)}" style="color:#1d4f91">${escapeHtml(label)}</a>`;
