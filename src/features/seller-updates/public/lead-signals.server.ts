/**
 * The signals a lead carries for a seller who already receives updates (decision 0056): the same
 * address (lower-cased) with a subscribed subscription to the same agent sends a lead with a new
 * estimate. That is a re-run ('rerun'), and when the estimate's net is above the net last told in
 * an update, a higher net asked for ('higher_net'). Either makes the seller active (active.server.ts).
 *
 * Written as a piece of the lead statement (src/features/leads/lead-insert.server.ts), so the lead
 * and its signals are stored together or not at all; a re-run also re-points the subscription at
 * the new estimate in the same statement. The piece reads the statement's own
 * parameters (agent id, e-mail, estimate uuid) and adds one of its own: the estimate's net, which
 * the caller computes in JS before the statement (the net-sheet's arithmetic lives in JS only).
 */

/** The lead statement's parameters the piece reads (its numbering, by default). */
export interface LeadSignalParams {
  /** The agent's id: `$1`. */
  agentId?: string;
  /** The lead's e-mail as typed: `$4` (lower-cased here, as seller_updates.email holds it). */
  email?: string;
  /** The estimate the lead carries, or NULL: `$10`. */
  estimateUuid?: string;
}

/**
 * The CTEs to add to the lead statement's WITH (or to run alone), their one parameter (the
 * estimate's net in cents, or null when there is no estimate) numbered `$firstParam`:
 * - `name`: an `INSERT INTO seller_signals … RETURNING subscription_id, kind`. Writes nothing when
 *   the lead has no estimate, when no subscribed subscription of that address and agent exists, or
 *   when the estimate is not new: the subscription's own, one an update made ("See my updated
 *   sheet" opens it), or one an earlier lead of this address and agent already carried (the same
 *   form sent twice is one re-run);
 * - `name_repointed`: for each re-run it wrote, the subscription re-pointed at the new estimate:
 *   its estimate_uuid, and as the figures last told the estimate's price and `netCents` (the seller
 *   has just seen them), so the next update re-prices this estimate and compares with its net.
 *   The higher-net comparison above still reads the OLD last_net_cents: every CTE of a statement
 *   reads the snapshot taken before the statement's own writes. The estimate must be stored before
 *   the statement (the lead statement names a stored one): its price is read from it.
 *
 * That snapshot also means a subscription the same statement creates (an opt-in on this lead) is
 * never signalled: its seller has not been told a net yet.
 */
export function leadSignalsStatement(
  netCents: number | null,
  {
    firstParam,
    name = 'seller_signals_made',
    agentId = '$1',
    email = '$4',
    estimateUuid = '$10',
  }: LeadSignalParams & { firstParam: number; name?: string },
): { ctes: string[]; params: unknown[] } {
  const net = `$${firstParam}::bigint`;
  const estimate = `${estimateUuid}::uuid`;
  const signals = `${name} AS (
     INSERT INTO seller_signals (subscription_id, kind)
     SELECT s.id, k.kind
       FROM seller_updates s
       CROSS JOIN (VALUES ('rerun'), ('higher_net')) AS k (kind)
      WHERE ${estimate} IS NOT NULL
        AND s.agent_id = ${agentId} AND s.email = lower(${email}) AND s.state = 'subscribed'
        AND s.estimate_uuid IS DISTINCT FROM ${estimate}
        AND NOT EXISTS (SELECT 1 FROM seller_update_sends u WHERE u.subscription_id = s.id AND u.estimate_uuid = ${estimate})
        AND NOT EXISTS (SELECT 1 FROM leads l
                         WHERE l.estimate_uuid = ${estimate} AND l.agent_id = ${agentId} AND lower(l.email) = lower(${email}))
        AND (k.kind = 'rerun' OR (${net} IS NOT NULL AND s.last_net_cents IS NOT NULL AND ${net} > s.last_net_cents))
     RETURNING subscription_id, kind
   )`;
  const repointed = `${name}_repointed AS (
     UPDATE seller_updates s
        SET estimate_uuid = e.uuid, last_price_cents = e.sale_price_cents, last_net_cents = ${net}
       FROM ${name} g, estimates e
      WHERE g.subscription_id = s.id AND g.kind = 'rerun' AND e.uuid = ${estimate}
     RETURNING s.id
   )`;
  return { ctes: [signals, repointed], params: [netCents === null ? null : Math.round(netCents)] };
}
