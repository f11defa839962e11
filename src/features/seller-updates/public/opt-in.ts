/**
 * What the lead forms and the lead route share about opting in to monthly updates (decision 0056):
 * the words of the box and of the answer, and what became of the confirmation e-mail. Client-safe.
 */

/** The box's words, the same on every lead form. */
export const OPT_IN_LABEL = 'Send me a monthly update of my estimated net';
/** The input the ticked box reveals (updates_place): where the home is, for its market. */
export const PLACE_LABEL = "Your home's town or ZIP code";
/** The most characters of updates_place (a town's name is far shorter). */
export const PLACE_MAX = 100;
export const PLACE_HINT = 'On Long Island, e.g. Massapequa or 11758';

/**
 * POST /api/leads's `updates`: the confirmation e-mail was queued by this request; a per-address
 * cap stopped it (the lead is saved); or nothing was sent (no box ticked, no estimate to update,
 * an address that unsubscribed, or a subscription that is already confirmed).
 */
export const OPT_IN_STATUSES = ['confirmation_sent', 'limited', 'none'] as const;
export type OptInStatus = (typeof OPT_IN_STATUSES)[number];

/** What a form says after the lead, by status: only a confirmation that was queued is announced. */
export function optInMessage(status: OptInStatus): string | null {
  switch (status) {
    case 'confirmation_sent':
      return 'Check your inbox to confirm your monthly updates.';
    case 'limited':
      return 'We could not send the e-mail that confirms your monthly updates just now: too many went to this address today. Please try again tomorrow.';
    case 'none':
      return null;
  }
}
