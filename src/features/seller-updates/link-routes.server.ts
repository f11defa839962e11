/**
 * `GET /api/updates/go/{token}`: a link of a seller's update followed. The token is signed
 * (public/update-links.server.ts) and names the subscription, the update (its period) and the link.
 * In one transaction: the click is recorded as a signal on the update's send, the cadence starts
 * again (updates_since_click 0, last_click_at now; a seller gone cold is due again, monthly from
 * their last update), and the rule of active sellers is evaluated (public/active.server.ts), queuing the
 * agent's alert. Then the seller is sent on: "See my updated sheet" to the update's estimate page
 * (that visit is the click: the page itself tracks nothing), "Talk to {agent}" to the agent's page.
 *
 * An unsubscribed seller is still sent on (the pages are public) but nothing is recorded. A token
 * that is not ours answers 400: a small page saying the link is not valid (a browser asks for HTML),
 * or the API's JSON error to any other client. Never a silent redirect home: the seller would not
 * know their click did nothing.
 */
import type { Context } from 'hono';
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup } from '../../platform/operation.ts';
import { sendInTurn, type CrmContext } from '../crm/public/crm-sync.server.ts';
import { escapeHtml } from '../email/public/html.ts';
import type { MailContext } from '../email/public/email.server.ts';
import { BRAND_NAME } from '../../ui/brand.ts';
import { markActive } from './public/active.server.ts';
import { MONTHLY_DAYS } from './public/cadence.ts';
import { type UpdateLinkSigner } from './public/update-links.server.ts';

export const INVALID_UPDATE_LINK = 'This link is not valid. It may have been copied incompletely.';

export const updateLinkParams = z.object({
  token: z.string({ error: 'The link has no token' }).min(1, 'The link has no token').max(200, 'The link is not valid'),
});

export interface UpdateLinkRoutesDeps {
  db: Db;
  signer: UpdateLinkSigner;
  mail: MailContext;
  crm: CrmContext;
  runAfterResponse: (task: Promise<unknown>) => void;
}

const clickRowSchema = z.object({
  state: z.string(),
  recorded: z.boolean(),
  estimate_uuid: z.string().nullable(),
  agent_slug: z.string(),
});

/**
 * One statement: the subscription with its send and agent; unless unsubscribed, the signal and the
 * cadence's restart. A cold seller (subscribed, next_due_at NULL) is due again MONTHLY_DAYS after
 * their last update (or confirmation), and never before now: nextDueAfterClick's SQL twin.
 */
const CLICK_SQL = `
  WITH sub AS (
    SELECT s.id, s.state, s.estimate_uuid, a.slug AS agent_slug,
           (SELECT u.id FROM seller_update_sends u WHERE u.subscription_id = s.id AND u.period = $2) AS send_id,
           (SELECT u.estimate_uuid FROM seller_update_sends u WHERE u.subscription_id = s.id AND u.period = $2) AS sheet
      FROM seller_updates s JOIN agents a ON a.id = s.agent_id
     WHERE s.id = $1
  ),
  signal AS (
    INSERT INTO seller_signals (subscription_id, kind, send_id)
    SELECT id, $3, send_id FROM sub WHERE state <> 'unsubscribed'
    RETURNING subscription_id
  ),
  cadence AS (
    UPDATE seller_updates s
       SET last_click_at = now(), updates_since_click = 0,
           next_due_at = CASE WHEN s.state = 'subscribed' AND s.next_due_at IS NULL
                              THEN greatest(coalesce(s.last_sent_at, s.confirmed_at, now()) + interval '${MONTHLY_DAYS} days', now())
                              ELSE s.next_due_at END
      FROM signal WHERE s.id = signal.subscription_id
    RETURNING s.id
  )
  SELECT sub.state, EXISTS (SELECT 1 FROM signal) AS recorded,
         coalesce(sub.sheet, sub.estimate_uuid)::text AS estimate_uuid, sub.agent_slug
    FROM sub`;

export const GONE_UPDATE_LINK = 'This update no longer exists.';

/** The page a browser gets for a link that leads nowhere: what happened, and the way home. */
function invalidLinkPage(text: string): string {
  const message = escapeHtml(text);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Link not valid · ${escapeHtml(BRAND_NAME)}</title>
<style>body{font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0;padding:48px 20px;color:#1f2937;background:#f8fafc}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:28px}
h1{font-size:1.4rem;margin:0 0 12px}p{line-height:1.5;margin:0 0 20px}
a{display:inline-block;background:#1d4ed8;color:#fff;text-decoration:none;padding:10px 18px;border-radius:8px;font-weight:600}</style>
</head><body><main><h1>This link does not work</h1><p>${message} Open it again from the e-mail, or go to the home page.</p>
<a href="/">Go to the home page</a></main></body></html>`;
}

/** A browser (it asks for HTML) gets the page; any other client the API's one error shape. */
function refuse(c: Context, status: 400 | 404, message: string): Response {
  if (/\btext\/html\b/i.test(c.req.header('accept') ?? '')) return c.html(invalidLinkPage(message), status);
  throw new HttpError(status, message, status === 400 ? { token: message } : {});
}

export const updateLinkApi = apiGroup(
  (deps: UpdateLinkRoutesDeps) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/updates/go/:token',
      access: 'public',
      summary: "Follows a link of a seller's update: records the click, then redirects to the sheet or the agent",
      tag: 'Seller updates',
      params: updateLinkParams,
      success: { status: 303, description: "A redirect to the update's estimate page or to the agent's page" },
      errors: [400, 404],
      /**
       * Round trips: the click (one statement), then, when recorded, the active rule's read and its
       * write, all in one transaction. The alert's e-mail and CRM event go after the answer.
       */
      handler: async (c, { db, signer, mail, crm, runAfterResponse }, input) => {
        const { token } = input.params();
        const link = signer.read(token);
        if (!link || link.link === 'confirm' || link.period < 1) return refuse(c, 400, INVALID_UPDATE_LINK);
        const siteUrl = mail.siteUrl(c.req.raw);
        const kind = link.link === 'sheet' ? 'click_sheet' : 'click_agent';
        const { row, outcome } = await db.transaction(async (tx) => {
          const [found] = await tx.query<unknown>(CLICK_SQL, [link.subscriptionId, link.period, kind]);
          const clicked = found === undefined ? undefined : clickRowSchema.parse(found);
          const marked =
            clicked?.recorded === true
              ? await markActive(tx, [link.subscriptionId], { siteUrl, claimCrmJobs: true })
              : undefined;
          return { row: clicked, outcome: marked };
        });
        // A signed token for a subscription since deleted (its lead was): nothing to send them to.
        if (!row) return refuse(c, 404, GONE_UPDATE_LINK);
        if (outcome) {
          if (outcome.deliveryIds.length > 0) mail.deliverSoon(outcome.deliveryIds, c.req.raw);
          if (outcome.crmJobs.length > 0) runAfterResponse(sendInTurn(db, crm, outcome.crmJobs));
        }
        const to =
          link.link === 'sheet' && row.estimate_uuid
            ? `/estimate/${encodeURIComponent(row.estimate_uuid)}`
            : `/r/${encodeURIComponent(row.agent_slug)}`;
        return c.redirect(to, 303);
      },
    }),
  ],
);
