/**
 * Estimates, leads and sent e-mails written straight to the database at chosen times, for the
 * overview tests (the dashboard's and the admin's), whose figures and activity depend on when.
 */
import type { Db } from '../../src/platform/db.ts';

export async function insertEstimate(
  db: Db,
  agentId: number,
  createdAt: Date,
  salePriceCents = 780_200_00,
): Promise<string> {
  const [row] = await db.query<{ uuid: string }>(
    `INSERT INTO estimates (agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                            transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, created_at)
     VALUES ($1, $2, 45000000, 6, 4, 75000, 17500, $3) RETURNING uuid::text AS uuid`,
    [agentId, salePriceCents, createdAt],
  );
  if (!row) throw new Error('no estimate');
  return row.uuid;
}

export async function insertLead(
  db: Db,
  agentId: number,
  createdAt: Date,
  name: string,
  pagePath: string | null = null,
): Promise<number> {
  const [first = '', last = ''] = name.split(' ');
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing, page_path, created_at)
     VALUES ($1, $2, $3, $4, 'calculator', true, $5, $6) RETURNING id`,
    [agentId, first, last, `${first.toLowerCase()}@example.com`, pagePath, createdAt],
  );
  if (!row) throw new Error('no lead');
  return row.id;
}

export async function insertSentEmail(
  db: Db,
  subject: string,
  sentAt: Date,
  about: { leadId?: number; estimateUuid?: string; to?: string },
) {
  await db.query(
    `INSERT INTO email_deliveries (kind, to_email, subject, html, text, status, lead_id, estimate_uuid, created_at, sent_at)
     VALUES ('new_lead', $1, $2, '<p>x</p>', 'x', 'sent', $3, $4, $5, $5)`,
    [about.to ?? 'someone@example.com', subject, about.leadId ?? null, about.estimateUuid ?? null, sentAt],
  );
}
