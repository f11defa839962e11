/**
 * Rows the seller-signal tests need, written straight to the database: an estimate, a lead, a
 * subscription in a given state, and the sends of its updates.
 */
import type { Db } from '../../src/platform/db.ts';

export async function insertEstimate(db: Db, agentId: number, salePriceCents = 780_200_00): Promise<string> {
  const [row] = await db.query<{ uuid: string }>(
    `INSERT INTO estimates (agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                            transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents)
     VALUES ($1, $2, 45000000, 5, 4, 250000, 50000) RETURNING uuid::text AS uuid`,
    [agentId, salePriceCents],
  );
  if (!row) throw new Error('insertEstimate: no row');
  return row.uuid;
}

export async function insertLead(
  db: Db,
  agentId: number,
  email: string,
  estimateUuid: string | null,
  name: { first: string; last: string } = { first: 'Dana', last: 'Lopez' },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing, estimate_uuid)
     VALUES ($1, $2, $3, $4, 'calculator', true, $5) RETURNING id`,
    [agentId, name.first, name.last, email, estimateUuid],
  );
  if (!row) throw new Error('insertLead: no row');
  return row.id;
}

export interface Subscription {
  id: number;
  leadId: number;
  agentId: number;
  email: string;
  estimateUuid: string;
}

/**
 * A lead with an estimate and its subscription, confirmed `confirmedDaysAgo` days ago, with
 * `sends` updates sent (the last one `lastSentDaysAgo` days ago) and the net last told.
 */
export async function subscribe(
  db: Db,
  agentId: number,
  {
    email = `seller.${Math.random().toString(36).slice(2)}@example.com`,
    state = 'subscribed',
    lastNetCents = 300_000_00,
    sends = 1,
    sinceClick = 1,
    nextDueInDays = 20,
    confirmedDaysAgo = 40,
    lastSentDaysAgo = 10,
    lead,
  }: {
    email?: string;
    state?: 'pending' | 'subscribed' | 'paused' | 'unsubscribed';
    lastNetCents?: number | null;
    sends?: number;
    sinceClick?: number;
    nextDueInDays?: number | null;
    confirmedDaysAgo?: number;
    lastSentDaysAgo?: number;
    /** An existing lead to subscribe (its e-mail and estimate), instead of a new one. */
    lead?: { id: number; email: string; estimateUuid: string };
  } = {},
): Promise<Subscription> {
  if (lead) email = lead.email;
  const estimateUuid = lead?.estimateUuid ?? (await insertEstimate(db, agentId));
  const leadId = lead?.id ?? (await insertLead(db, agentId, email, estimateUuid));
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO seller_updates (lead_id, agent_id, email, estimate_uuid, state, confirmed_at, next_due_at,
                                 updates_sent, updates_since_click, last_sent_at, last_price_cents, last_net_cents)
     VALUES ($1, $2, lower($3), $4, $5, now() - $6 * interval '1 day',
             now() + $7 * interval '1 day', $8, $9, CASE WHEN $8 > 0 THEN now() - $10 * interval '1 day' END,
             78020000, $11)
     RETURNING id`,
    [
      leadId,
      agentId,
      email,
      estimateUuid,
      state,
      confirmedDaysAgo,
      nextDueInDays,
      sends,
      sinceClick,
      lastSentDaysAgo,
      lastNetCents,
    ],
  );
  if (!row) throw new Error('subscribe: no row');
  for (let period = 1; period <= sends; period += 1) {
    const sheet = await insertEstimate(db, agentId, 790_000_00);
    await db.query(
      `INSERT INTO seller_update_sends (subscription_id, period, estimate_uuid, price_cents, net_cents, index_source, sent_at)
       VALUES ($1, $2, $3, 79000000, $4, 'town', now() - ($5::int + ($6::int - $2::int) * 30) * interval '1 day')`,
      [row.id, period, sheet, lastNetCents ?? 300_000_00, lastSentDaysAgo, sends],
    );
  }
  return { id: row.id, leadId, agentId, email: email.toLowerCase(), estimateUuid };
}

/** The estimate of a subscription's n-th update ("See my updated sheet"). */
export async function sendEstimate(db: Db, subscriptionId: number, period: number): Promise<string> {
  const [row] = await db.query<{ uuid: string }>(
    'SELECT estimate_uuid::text AS uuid FROM seller_update_sends WHERE subscription_id = $1 AND period = $2',
    [subscriptionId, period],
  );
  if (!row) throw new Error('sendEstimate: no send');
  return row.uuid;
}

export async function signalsOf(db: Db, subscriptionId: number): Promise<{ kind: string; send_id: number | null }[]> {
  return db.query<{ kind: string; send_id: number | null }>(
    'SELECT kind, send_id FROM seller_signals WHERE subscription_id = $1 ORDER BY id',
    [subscriptionId],
  );
}
