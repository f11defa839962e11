/**
 * POST /api/updates/confirm: the double opt-in's second step (decision 0056). The page
 * /updates/confirm posts the e-mailed token when the seller presses its button; a GET never confirms
 * (mail scanners follow links on their own). One statement: the subscription becomes 'subscribed',
 * its first update due MONTHLY_DAYS later, and a 'confirm' signal is recorded.
 */
import type { Context } from 'hono';
import type { Queryable } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';
import { enforceRateLimits } from '../../platform/rate-limit.server.ts';
import { MONTHLY_DAYS } from './public/cadence.ts';
import type { UpdateLinkSigner } from './public/update-links.server.ts';
import {
  CONFIRM_API_PATH,
  CONFIRM_GONE,
  CONFIRM_SUPPRESSED,
  CONFIRM_UNSUBSCRIBED,
  confirmRequestSchema,
  confirmResultSchema,
  INVALID_CONFIRM_LINK,
  type ConfirmResult,
} from './confirm.ts';

/**
 * Confirmations from one client an hour: the tokens cannot be forged, so this only stops a script
 * hammering the database; an office behind one address still confirms.
 */
export const CONFIRMS_PER_IP = { limit: 60, windowSeconds: 60 * 60 } as const;

export interface ConfirmRoutesDeps {
  db: Queryable;
  signer: UpdateLinkSigner;
  clientIp: (c: Context) => string;
}

interface ConfirmRow {
  state: 'pending' | 'subscribed' | 'paused' | 'unsubscribed';
  suppressed: boolean;
  confirmed: boolean;
}

/** Confirms the subscription a valid confirmation token names; what it did, or the HttpError why not. */
export async function confirmSubscription(db: Queryable, subscriptionId: number): Promise<ConfirmResult> {
  // A seller whose address is on the suppression list would never receive an update: not confirmed.
  const [row] = await db.query<ConfirmRow>(
    `WITH target AS (
       SELECT s.id, s.state, EXISTS (SELECT 1 FROM email_suppressions x WHERE x.email = s.email) AS suppressed
         FROM seller_updates s WHERE s.id = $1
     ),
     confirmed AS (
       UPDATE seller_updates s
          SET state = 'subscribed', confirmed_at = now(), next_due_at = now() + $2 * interval '1 day'
         FROM target
        WHERE s.id = target.id AND s.state = 'pending' AND NOT target.suppressed
       RETURNING s.id
     ),
     signal AS (INSERT INTO seller_signals (subscription_id, kind) SELECT id, 'confirm' FROM confirmed RETURNING id)
     SELECT target.state, target.suppressed, EXISTS (SELECT 1 FROM signal) AS confirmed FROM target`,
    [subscriptionId, MONTHLY_DAYS],
  );
  if (!row) throw new HttpError(404, CONFIRM_GONE);
  if (row.confirmed) return { success: true, status: 'confirmed' };
  if (row.state === 'unsubscribed') throw new HttpError(409, CONFIRM_UNSUBSCRIBED);
  if (row.suppressed) throw new HttpError(409, CONFIRM_SUPPRESSED);
  // subscribed or paused, or pending in this statement's snapshot while another request confirmed it.
  return { success: true, status: 'already_confirmed' };
}

export const confirmApi = apiGroup(
  (deps: ConfirmRoutesDeps) => deps,
  (op) => [
    op({
      method: 'POST',
      path: CONFIRM_API_PATH,
      access: 'public',
      summary: "Confirms a seller's monthly updates (the double opt-in's link, posted by the page's button)",
      tag: 'Seller updates',
      json: confirmRequestSchema,
      success: ok('Confirmed now, or confirmed before', confirmResultSchema),
      errors: [404, 409, 429],
      handler: async (c, { db, signer, clientIp }, input) => {
        const { token } = await input.body();
        const link = signer.read(token);
        if (!link || link.link !== 'confirm' || link.period !== 0) {
          throw new HttpError(400, INVALID_CONFIRM_LINK, { token: INVALID_CONFIRM_LINK });
        }
        await enforceRateLimits(db, perIpCheck(clientIp(c), CONFIRMS_PER_IP, 'update-confirm'));
        return c.json(await confirmSubscription(db, link.subscriptionId));
      },
    }),
  ],
);
