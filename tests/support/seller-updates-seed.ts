/**
 * Seller updates written straight to the tables, for the screens' suites: a subscription in any
 * state, the updates sent to it, their clicks and failed e-mails (what the engine, the opt-in and
 * the signals would have written).
 */
import type { Db } from '../../src/platform/db.ts';

export interface SeedSubscription {
  leadId: number;
  agentId: number;
  email: string;
  state?: 'pending' | 'subscribed' | 'paused' | 'unsubscribed';
  createdAt?: Date;
  confirmedAt?: Date | null;
  updatesSent?: number;
  updatesSinceClick?: number;
  lastSentAt?: Date | null;
  lastNetCents?: number | null;
  lastClickAt?: Date | null;
  activeAt?: Date | null;
  nextDueAt?: Date | null;
  endedAt?: Date | null;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const daysAgo = (days: number, from = Date.now()): Date => new Date(from - days * DAY_MS);

/** A seller_updates row; its id. */
export async function addSubscription(db: Db, row: SeedSubscription): Promise<number> {
  const state = row.state ?? 'subscribed';
  const [inserted] = await db.query<{ id: number }>(
    `INSERT INTO seller_updates (lead_id, agent_id, email, state, created_at, confirmed_at, updates_sent,
                                 updates_since_click, last_sent_at, last_net_cents, last_click_at, active_at,
                                 next_due_at, ended_at, ended_reason, paused_at)
     VALUES ($1, $2, lower($3), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
             CASE WHEN $4 = 'unsubscribed' THEN 'link' END, CASE WHEN $4 = 'paused' THEN now() END)
     RETURNING id`,
    [
      row.leadId,
      row.agentId,
      row.email,
      state,
      row.createdAt ?? daysAgo(60),
      row.confirmedAt === undefined ? (state === 'pending' ? null : daysAgo(59)) : row.confirmedAt,
      row.updatesSent ?? 0,
      row.updatesSinceClick ?? 0,
      row.lastSentAt ?? null,
      row.lastNetCents ?? null,
      row.lastClickAt ?? null,
      row.activeAt ?? null,
      row.nextDueAt ?? null,
      row.endedAt ?? (state === 'unsubscribed' ? new Date() : null),
    ],
  );
  if (!inserted) throw new Error('addSubscription: no row');
  return inserted.id;
}

/** An update sent to `subscriptionId` at `sentAt` (its period the next one), with a click or not; its id. */
export async function addSend(
  db: Db,
  subscriptionId: number,
  sentAt: Date,
  options: { clicked?: boolean; failedEmail?: boolean } = {},
): Promise<number> {
  const [send] = await db.query<{ id: number }>(
    `WITH delivery AS (
       INSERT INTO email_deliveries (kind, to_email, subject, html, text, status, created_at, attempts)
       SELECT 'seller_update', u.email, 'Your home update', '<p>Update</p>', 'Update', $3, $2, 1
         FROM seller_updates u WHERE u.id = $1
       RETURNING id
     )
     INSERT INTO seller_update_sends (subscription_id, period, delivery_id, price_cents, net_cents, index_source, sent_at)
     SELECT $1, coalesce((SELECT max(period) FROM seller_update_sends WHERE subscription_id = $1), 0) + 1,
            delivery.id, 65000000, 60000000, 'town', $2
       FROM delivery
     RETURNING id`,
    [subscriptionId, sentAt, options.failedEmail ? 'failed' : 'sent'],
  );
  if (!send) throw new Error('addSend: no row');
  if (options.clicked) {
    await db.query(
      `INSERT INTO seller_signals (subscription_id, kind, send_id, at) VALUES ($1, 'click_sheet', $2, $3::timestamptz + interval '1 hour')`,
      [subscriptionId, send.id, sentAt],
    );
  }
  return send.id;
}
