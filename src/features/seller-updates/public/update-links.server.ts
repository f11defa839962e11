/**
 * The signed links of seller updates: the confirmation of the double opt-in and every link in an
 * update ("See my updated sheet", "Talk to {agent}"). A token names the subscription, the update
 * (0 for the confirmation) and the link, and carries an HMAC with a key of its own derived from the
 * session key (as the unsubscribe token's is), so a token can be neither forged nor turned into
 * another seller's, and following one is a signal that the seller, not a guess, clicked.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const UPDATE_LINK_KINDS = ['confirm', 'sheet', 'agent'] as const;
export type UpdateLinkKind = (typeof UPDATE_LINK_KINDS)[number];

export interface UpdateLink {
  subscriptionId: number;
  /**
   * The update the link is in: its period (seller_update_sends.period, the n-th update), known before
   * the update is written, so the e-mail can be rendered before the statement that stores it; 0 for
   * the confirmation e-mail.
   */
  period: number;
  link: UpdateLinkKind;
}

export interface UpdateLinkSigner {
  token(link: UpdateLink): string;
  /** What a token names, or null when it was not made with this key or is malformed. */
  read(token: string): UpdateLink | null;
}

/** The page that confirms a subscription (a button: mail scanners follow GET links on their own). */
export const CONFIRM_PAGE_PATH = '/updates/confirm';
/** Where an update's links go: records the click, then redirects. */
export const UPDATE_LINK_API_PATH = '/api/updates/go';

const PAYLOAD = /^(\d{1,10})\.(\d{1,10})\.(confirm|sheet|agent)$/;

export function updateLinkSigner(sessionKey: Uint8Array): UpdateLinkSigner {
  const key = createHmac('sha256', sessionKey).update('seller-update-link/v1').digest();
  const mac = (payload: string): Buffer => createHmac('sha256', key).update(payload).digest();
  return {
    token({ subscriptionId, period, link }) {
      const payload = Buffer.from(`${subscriptionId}.${period}.${link}`, 'utf8').toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    read(token) {
      const [payload, signature, extra] = token.trim().split('.');
      if (!payload || !signature || extra !== undefined || payload.length > 60) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const match = PAYLOAD.exec(Buffer.from(payload, 'base64url').toString('utf8'));
      if (!match) return null;
      const link = UPDATE_LINK_KINDS.find((kind) => kind === match[3]);
      if (!link) return null;
      return { subscriptionId: Number(match[1]), period: Number(match[2]), link };
    },
  };
}

/** The URLs of a subscription's links: the confirmation page, and the redirecting link of an update. */
export function updateUrls(siteUrl: string, signer: UpdateLinkSigner) {
  const origin = siteUrl.replace(/\/+$/, '');
  return {
    confirm: (subscriptionId: number) =>
      `${origin}${CONFIRM_PAGE_PATH}?token=${encodeURIComponent(signer.token({ subscriptionId, period: 0, link: 'confirm' }))}`,
    go: (subscriptionId: number, period: number, link: Exclude<UpdateLinkKind, 'confirm'>) =>
      `${origin}${UPDATE_LINK_API_PATH}/${encodeURIComponent(signer.token({ subscriptionId, period, link }))}`,
  };
}
