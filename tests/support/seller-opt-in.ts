/**
 * What the opt-in and confirmation suites share: the lead answer, the subscription and its
 * confirmation e-mail as stored, and the confirmation link read from the delivered text.
 */
import { expect } from 'vitest';
import { updateLinkSigner } from '../../src/features/seller-updates/public/update-links.server.ts';
import type { Db } from '../../src/platform/db.ts';
import { expectJson } from './api-suite.ts';
import { TEST_EMAIL_AUTH, TEST_SITE_URL, type EmailSuite } from './email-suite.ts';
import { leadResponse } from './schemas.ts';

/** The suite's signer: the app signs with TEST_EMAIL_AUTH's session key. */
export const SIGNER = updateLinkSigner(TEST_EMAIL_AUTH.sessionKey);

export interface SubscriptionRow {
  id: number;
  lead_id: number;
  agent_id: number;
  email: string;
  estimate_uuid: string | null;
  town_slug: string | null;
  county: string | null;
  state: string;
  confirmed_at: Date | null;
  /** next_due_at - now() in days, by the database's clock. */
  due_in_days: number | null;
  next_due_at: Date | null;
  ended_at: Date | null;
  ended_reason: string | null;
  last_price_cents: string | null;
  last_net_cents: string | null;
}

const COLUMNS = `id, lead_id, agent_id, email, estimate_uuid::text AS estimate_uuid, town_slug, county, state,
  confirmed_at, extract(epoch FROM next_due_at - now())::float8 / 86400 AS due_in_days, next_due_at, ended_at, ended_reason,
  last_price_cents::text AS last_price_cents, last_net_cents::text AS last_net_cents`;

export async function subscriptionsOf(db: Db, email: string): Promise<SubscriptionRow[]> {
  return db.query<SubscriptionRow>(`SELECT ${COLUMNS} FROM seller_updates WHERE email = lower($1) ORDER BY id`, [
    email,
  ]);
}

export async function confirmationsTo(
  db: Db,
  email: string,
): Promise<{ id: number; to_email: string; to_name: string | null; lead_id: number; text: string; html: string }[]> {
  return db.query(
    `SELECT id, to_email, to_name, lead_id, text, html FROM email_deliveries
      WHERE kind = 'update_confirm' AND lower(to_email) = lower($1) ORDER BY id`,
    [email],
  );
}

export async function signalsOf(db: Db, subscriptionId: number): Promise<string[]> {
  const rows = await db.query<{ kind: string }>(
    'SELECT kind FROM seller_signals WHERE subscription_id = $1 ORDER BY id',
    [subscriptionId],
  );
  return rows.map((row) => row.kind);
}

const CONFIRM_LINK = new RegExp(
  `${TEST_SITE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/updates/confirm\\?token=([A-Za-z0-9_.%-]+)`,
);

/** The token of the confirmation link in an e-mail's text, checked to name `subscriptionId`. */
export function confirmTokenIn(text: string, subscriptionId: number): string {
  const match = CONFIRM_LINK.exec(text);
  if (!match?.[1]) throw new Error(`No confirmation link in:\n${text}`);
  const token = decodeURIComponent(match[1]);
  expect(SIGNER.read(token)).toEqual({ subscriptionId, period: 0, link: 'confirm' });
  return token;
}

/** Posts a lead; answers its `updates` and the lead's id. */
export async function sendLead(suite: EmailSuite, body: unknown): Promise<{ updates: string; leadId: number }> {
  const answer = await expectJson(await suite.api.postJson('/api/leads', body), 201, leadResponse);
  return { updates: answer.updates, leadId: answer.lead.id };
}

export const confirm = (suite: EmailSuite, token: string) => suite.api.postJson('/api/updates/confirm', { token });
