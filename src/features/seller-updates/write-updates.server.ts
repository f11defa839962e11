/**
 * A batch written in ONE statement (decision 0056, "Exactly once per period"):
 * - `advanced`: each subscription to send moves to its next period, only WHERE updates_sent is
 *   still the count read, it is still subscribed and still due. A run at the same time waits for
 *   the row lock, re-reads the row, finds updates_sent moved and writes nothing for it;
 * - only for the rows `advanced` returned: the new estimates, the e-mails (email_deliveries, kind
 *   'seller_update'), and the seller_update_sends rows (UNIQUE (subscription_id, period): the second
 *   guard);
 * - `skipped`: the reasons of the rows not sent, under the same guard; a suppressed address ends
 *   the subscription, any other reason makes it due again a day later.
 * A run that dies before the statement leaves every row due; after it, everything is written.
 */
import * as z from 'zod';
import type { Queryable } from '../../platform/db.ts';
import { queueEmailsStatement } from '../email/public/email.server.ts';
import { insertSheetEstimatesStatement } from '../net-sheet/public/sheet-estimates.server.ts';
import { NEXT_DUE_SQL } from './public/cadence.ts';
import type { PreparedBatch } from './prepare-updates.server.ts';

export interface WrittenBatch {
  /** Updates written (and their e-mails queued). */
  sent: number;
  /** The queued e-mails, to deliver. */
  deliveryIds: number[];
  /** Skips recorded, by reason. */
  skipped: Record<string, number>;
}

const writtenSchema = z.object({
  deliveries: z.array(z.number()).nullable(),
  sent: z.coerce.number(),
  skipped: z.record(z.string(), z.coerce.number()).nullable(),
});

/** The statement and its parameters (for tests that look at it, and the run). */
export function writeBatchStatement(batch: PreparedBatch, asOf: Date): { sql: string; params: unknown[] } {
  const { sends, skips } = batch;
  // $1 the run's time; $2-$8 the plan; $9-$11 the skips; $12 every id; then the estimates' and the e-mails'.
  const estimates = insertSheetEstimatesStatement(
    sends.map((send) => send.estimate),
    { firstParam: 13, keep: 'r.uuid IN (SELECT estimate_uuid FROM advanced)' },
  );
  const emails = queueEmailsStatement(
    sends.map((send) => send.email),
    { firstParam: 13 + estimates.params.length, keep: 'm.estimate_uuid IN (SELECT estimate_uuid FROM advanced)' },
  );
  const ids = [...sends.map((send) => send.subscriptionId), ...skips.map((skip) => skip.subscriptionId)].sort(
    (a, b) => a - b,
  );
  const sql = `
WITH plan AS MATERIALIZED (
  SELECT * FROM unnest($2::int[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::uuid[])
           AS p (id, expected, price, net, previous, source, estimate_uuid)
),
-- Every row of the batch locked first, in id order: two runs at once wait for each other row by row
-- in the same order, never each holding a row the other waits for (a deadlock). A row another run
-- changed meanwhile is answered as that run left it (FOR UPDATE re-reads it once its lock is free).
locked AS MATERIALIZED (
  SELECT u.id, u.updates_sent, u.state, u.next_due_at, u.agent_id FROM seller_updates u
   WHERE u.id = ANY($12::int[])
   ORDER BY u.id
     FOR UPDATE OF u
),
-- Still to do: still the period read, still subscribed and due; the agent still active (the new
-- estimate is written only for an active agent: insertSheetEstimatesStatement).
go AS MATERIALIZED (
  SELECT p.* FROM plan p JOIN locked l ON l.id = p.id
   WHERE l.updates_sent = p.expected AND l.state = 'subscribed' AND l.next_due_at <= $1::timestamptz
     AND EXISTS (SELECT 1 FROM agents a WHERE a.id = l.agent_id AND a.status = 'active')
),
stop AS MATERIALIZED (
  SELECT k.* FROM unnest($9::int[], $10::int[], $11::text[]) AS k (id, expected, reason) JOIN locked l ON l.id = k.id
   WHERE l.updates_sent = k.expected AND l.state = 'subscribed' AND l.next_due_at <= $1::timestamptz
),
-- The rows are locked and checked above: each statement below only finds them by id.
advanced AS (
  UPDATE seller_updates u
     SET updates_sent = u.updates_sent + 1,
         updates_since_click = u.updates_since_click + 1,
         last_sent_at = $1::timestamptz,
         last_price_cents = p.price,
         last_net_cents = p.net,
         next_due_at = ${NEXT_DUE_SQL('$1::timestamptz', '(u.updates_since_click + 1)')}
    FROM go p
   WHERE u.id = p.id
  RETURNING u.id, u.updates_sent AS period, p.price, p.net, p.previous, p.source, p.estimate_uuid
),
new_estimates AS (${estimates.sql}),
deliveries AS (${emails.sql}),
-- Each update's delivery by its estimate (unique to it), looked up in one map: a join of two CTEs
-- is planned for a row or two each, as a loop over both.
delivery_ids AS MATERIALIZED (SELECT jsonb_object_agg(estimate_uuid::text, id) AS by_estimate FROM deliveries),
sends AS (
  INSERT INTO seller_update_sends (subscription_id, period, delivery_id, estimate_uuid, price_cents, net_cents,
                                   previous_net_cents, index_source, sent_at)
  SELECT a.id, a.period, (m.by_estimate ->> a.estimate_uuid::text)::int, a.estimate_uuid, a.price, a.net,
         a.previous, a.source, $1::timestamptz
    FROM advanced a CROSS JOIN delivery_ids m
   WHERE m.by_estimate ? a.estimate_uuid::text
  RETURNING subscription_id
),
skipped AS (
  UPDATE seller_updates u
     SET last_skip_reason = k.reason,
         last_skipped_at = $1::timestamptz,
         next_due_at = CASE WHEN k.reason = 'suppressed' THEN NULL ELSE $1::timestamptz + interval '1 day' END,
         state = CASE WHEN k.reason = 'suppressed' THEN 'unsubscribed' ELSE u.state END,
         ended_at = CASE WHEN k.reason = 'suppressed' THEN $1::timestamptz ELSE u.ended_at END,
         ended_reason = CASE WHEN k.reason = 'suppressed' THEN 'suppressed' ELSE u.ended_reason END
    FROM stop k
   WHERE u.id = k.id
  RETURNING k.reason
)
SELECT (SELECT json_agg(id ORDER BY id) FROM deliveries) AS deliveries,
       (SELECT count(*) FROM sends) AS sent,
       (SELECT json_object_agg(reason, n) FROM (SELECT reason, count(*) AS n FROM skipped GROUP BY reason) r) AS skipped,
       (SELECT count(*) FROM new_estimates) AS estimates`;
  return {
    sql,
    params: [
      asOf,
      sends.map((send) => send.subscriptionId),
      sends.map((send) => send.expectedSent),
      sends.map((send) => send.priceCents),
      sends.map((send) => send.netCents),
      sends.map((send) => send.previousNetCents),
      sends.map((send) => send.source),
      sends.map((send) => send.estimate.uuid),
      skips.map((skip) => skip.subscriptionId),
      skips.map((skip) => skip.expectedSent),
      skips.map((skip) => skip.reason),
      ids,
      ...estimates.params,
      ...emails.params,
    ],
  };
}

/** ONE round trip: the batch's updates and skips, each only if no other run wrote it first. */
export async function writeBatch(db: Queryable, batch: PreparedBatch, asOf: Date): Promise<WrittenBatch> {
  if (batch.sends.length === 0 && batch.skips.length === 0) return { sent: 0, deliveryIds: [], skipped: {} };
  const { sql, params } = writeBatchStatement(batch, asOf);
  const [row] = await db.query(sql, params);
  const written = writtenSchema.parse(row);
  return { sent: written.sent, deliveryIds: written.deliveries ?? [], skipped: written.skipped ?? {} };
}
