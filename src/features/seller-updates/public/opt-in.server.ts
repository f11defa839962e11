/**
 * The double opt-in's first step, as part of the lead's own statement (decision 0056): the
 * subscription row (state 'pending') and its confirmation e-mail, written with the lead or not at all.
 *
 * The confirmation's link is signed with the subscription's id, so the id is known before the
 * statement: `prepareOptIn` reserves one from the table's sequence (a number never used is only a
 * gap) and renders the e-mail for it, and for the address's open subscription with this agent when
 * there is one (the statement reuses that one instead of making a second). The statement then queues
 * the e-mail rendered for the subscription it ended with, so it stays ONE statement.
 */
import type { Queryable } from '../../../platform/db.ts';
import { HttpError } from '../../../platform/http.ts';
import { countHitsStatement, rateCheck, type RateCheck } from '../../../platform/rate-limit.server.ts';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';
import { townSlugOf } from '../../lead-origin/public/lead-origin.ts';
import { PLACE_MISSING, PLACE_UNKNOWN, sellerPlace, type SellerPlace } from './seller-place.ts';
import { updateConfirmEmail, type UpdateAgent } from './update-emails.ts';
import { updateUrls, type UpdateLinkSigner } from './update-links.server.ts';

/**
 * Confirmation e-mails to one address: a visitor cannot use the box to mail an address of their
 * choosing over and over. Beyond it the lead and its subscription are still saved.
 */
export const CONFIRMATIONS_PER_RECIPIENT = { limit: 3, windowSeconds: 24 * 60 * 60 } as const;

export const updateConfirmCheck = (email: string): RateCheck =>
  rateCheck(CONFIRMATIONS_PER_RECIPIENT, `update-confirm:to:${email.toLowerCase()}`);

/** Everything the statement writes, decided and rendered before it. */
export interface OptInPlan {
  /** The id a new subscription takes (reserved from the sequence). */
  reservedId: number;
  /** Lower-cased, as the suppression list and seller_updates hold it. */
  email: string;
  estimateUuid: string;
  priceCents: number;
  netCents: number;
  place: SellerPlace;
  /** The confirmation e-mail for each subscription the statement may end with (the reserved one, the open one). */
  confirmations: readonly { subscriptionId: number; subject: string; html: string; text: string }[];
}

const cents = (dollars: number): number => Math.round(dollars * 100);

/**
 * One round trip: a subscription id reserved, the address's open subscription with this agent (the
 * one a new opt-in reuses), and the estimate's town and county; then the confirmation e-mails rendered.
 *
 * Refused (400 on `updates_place`, before the lead is written) when the place typed under the box
 * names no town, or when none was typed and nothing else tells a town or county: such a seller would
 * be skipped as having no market data at every run, and never know.
 */
export async function prepareOptIn(
  db: Queryable,
  input: {
    agent: UpdateAgent & { id: number };
    lead: { email: string; address: string | null; page_path: string | null; updates_place: string | null };
    estimate: Estimate;
    siteUrl: string;
    signer: UpdateLinkSigner;
  },
): Promise<OptInPlan> {
  const { agent, lead, estimate, siteUrl, signer } = input;
  const email = lead.email.trim().toLowerCase();
  const [row] = await db.query<{
    reserved: number;
    open_id: number | null;
    details_town: string | null;
    details_county: string | null;
  }>(
    `SELECT nextval(pg_get_serial_sequence('seller_updates', 'id'))::integer AS reserved,
            (SELECT id FROM seller_updates WHERE agent_id = $1 AND email = $2 AND state <> 'unsubscribed'
              ORDER BY id DESC LIMIT 1) AS open_id,
            e.details ->> 'town' AS details_town, e.details ->> 'county' AS details_county
       FROM (SELECT 1) AS one LEFT JOIN estimates e ON e.uuid = $3::uuid`,
    [agent.id, email, estimate.uuid],
  );
  if (!row) throw new Error('The opt-in reservation returned no row');
  const priceCents = cents(estimate.sale_price);
  const netCents = cents(estimate.net_to_seller);
  const urls = updateUrls(siteUrl, signer);
  const ids = row.open_id === null ? [row.reserved] : [row.reserved, row.open_id];
  const place = sellerPlace({
    typedPlace: lead.updates_place,
    detailsTown: row.details_town,
    detailsCounty: row.details_county,
    pageTown: townSlugOf(lead.page_path),
    address: lead.address,
  });
  if (place.from === 'unknown_place') throw new HttpError(400, PLACE_UNKNOWN, { updates_place: PLACE_UNKNOWN });
  if (place.from === 'none') throw new HttpError(400, PLACE_MISSING, { updates_place: PLACE_MISSING });
  return {
    reservedId: row.reserved,
    email,
    estimateUuid: estimate.uuid,
    priceCents,
    netCents,
    place,
    confirmations: ids.map((subscriptionId) => ({
      subscriptionId,
      ...updateConfirmEmail({ agent, priceCents, netCents, confirmUrl: urls.confirm(subscriptionId), siteUrl }),
    })),
  };
}

/** The CTEs of the opt-in, and the SQL expression of its outcome (an OptInStatus) for the final SELECT. */
export interface OptInStatement {
  ctes: string[];
  params: unknown[];
  /** The delivery ids it queued: `SELECT id FROM …`, to add to the lead's. */
  queuedIds: string;
  status: string;
}

/**
 * The subscription and its confirmation as CTEs of the lead's statement, parameters numbered from
 * `firstParam`. `outcome` names the lead's CTE (columns `id`), `agentId` the SQL of the agent's id.
 *
 * - The address's open subscription with this agent (pending, subscribed or paused) is reused: no
 *   second row, no second stream of updates. A pending one takes the newer estimate, as its new
 *   confirmation shows it.
 * - Else a new one for the lead (lead_id is unique: a lead whose subscription ended gets none again
 *   from a repeat of its form).
 * - The confirmation goes only to a pending subscription, never to an address on the suppression
 *   list (it would not be delivered: the answer must not say it was sent), and only within
 *   CONFIRMATIONS_PER_RECIPIENT (counted only when it would be sent).
 */
export function optInStatement(
  plan: OptInPlan,
  { firstParam, outcome, agentId }: { firstParam: number; outcome: string; agentId: string },
): OptInStatement {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  const email = p(plan.email);
  const estimate = `${p(plan.estimateUuid)}::uuid`;
  const town = `${p(plan.place.townSlug)}::text`;
  const county = `${p(plan.place.county)}::text`;
  const price = `${p(plan.priceCents)}::bigint`;
  const net = `${p(plan.netCents)}::bigint`;
  const reserved = `${p(plan.reservedId)}::integer`;
  const confirmations = `unnest(${p(plan.confirmations.map((c) => c.subscriptionId))}::integer[],
                ${p(plan.confirmations.map((c) => c.subject))}::text[], ${p(plan.confirmations.map((c) => c.html))}::text[],
                ${p(plan.confirmations.map((c) => c.text))}::text[]) AS c (subscription_id, subject, html, text)`;
  const check = updateConfirmCheck(plan.email);
  const counting = countHitsStatement([check], {
    firstParam: firstParam + params.length,
    onlyIf: 'EXISTS (SELECT 1 FROM optin_confirm)',
  });
  params.push(...counting.params);
  const limit = p(check.limit);
  const ctes = [
    `optin_open AS (
       SELECT id, state FROM seller_updates
        WHERE agent_id = ${agentId} AND email = ${email} AND state <> 'unsubscribed'
        ORDER BY id DESC LIMIT 1
     )`,
    `optin_made AS (
       INSERT INTO seller_updates (id, lead_id, agent_id, email, estimate_uuid, town_slug, county,
                                   last_price_cents, last_net_cents)
       OVERRIDING SYSTEM VALUE
       SELECT ${reserved}, ${outcome}.id, ${agentId}, ${email}, ${estimate}, ${town}, ${county}, ${price}, ${net}
         FROM ${outcome} WHERE NOT EXISTS (SELECT 1 FROM optin_open)
       ON CONFLICT (lead_id) DO NOTHING
       RETURNING id, state
     )`,
    `optin_renewed AS (
       UPDATE seller_updates s
          SET estimate_uuid = ${estimate}, town_slug = ${town}, county = ${county},
              last_price_cents = ${price}, last_net_cents = ${net}
         FROM optin_open o
        WHERE s.id = o.id AND o.state = 'pending' AND EXISTS (SELECT 1 FROM ${outcome})
       RETURNING s.id
     )`,
    `optin_confirm AS (
       SELECT c.subject, c.html, c.text
         FROM (SELECT id, state FROM optin_made UNION ALL SELECT id, state FROM optin_open) AS s
         JOIN ${confirmations} ON c.subscription_id = s.id
        WHERE s.state = 'pending' AND NOT EXISTS (SELECT 1 FROM email_suppressions WHERE email = ${email})
     )`,
    `optin_hits AS (${counting.sql})`,
    `optin_queued AS (
       INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text, lead_id, estimate_uuid)
       SELECT 'update_confirm', ${email}, NULL, c.subject, c.html, c.text, ${outcome}.id, ${estimate}
         FROM optin_confirm c CROSS JOIN ${outcome} JOIN optin_hits h ON h.hits <= ${limit}
       RETURNING id
     )`,
  ];
  return {
    ctes,
    params,
    queuedIds: 'SELECT id FROM optin_queued',
    status: `CASE WHEN EXISTS (SELECT 1 FROM optin_queued) THEN 'confirmation_sent'
                  WHEN EXISTS (SELECT 1 FROM optin_hits) THEN 'limited' ELSE 'none' END`,
  };
}
