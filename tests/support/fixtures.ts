/**
 * Rows a test needs, written straight to the database (there is no agent sign-up API yet). Each
 * call makes a new agent with a unique slug and e-mail, so tests never share or depend on each other.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/platform/db.ts';

export interface AgentRow {
  id: number;
  slug: string;
  first_name: string;
  last_name: string;
  email: string;
}

export interface NewAgent {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string | null;
  password_hash?: string | null;
  brokerage?: string | null;
  professional_title?: string | null;
  status?: 'active' | 'inactive' | 'pending';
  license_number?: string | null;
  is_admin?: boolean;
}

let counter = 0;

export function uniqueSlug(prefix = 'agent'): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(3).toString('hex')}`;
}

export async function createAgent(db: Db, agent: NewAgent = {}): Promise<AgentRow> {
  const slug = uniqueSlug();
  const [row] = await db.query<AgentRow>(
    `INSERT INTO agents (first_name, last_name, email, phone, password_hash, slug, brokerage, professional_title,
                         status, license_number, is_admin)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING id, slug, first_name, last_name, email`,
    [
      agent.first_name ?? 'Jamie',
      agent.last_name ?? 'Rivera',
      agent.email ?? `${slug}@example.com`,
      agent.phone === undefined ? '5165550100' : agent.phone,
      agent.password_hash === undefined ? 'scrypt$c2FsdA$aGFzaGhhc2hoYXNo' : agent.password_hash,
      slug,
      agent.brokerage === undefined ? 'Bayside Homes Realty' : agent.brokerage,
      agent.professional_title === undefined ? 'Licensed Associate Broker' : agent.professional_title,
      agent.status ?? 'active',
      agent.license_number === undefined ? '10991234567' : agent.license_number,
      agent.is_admin ?? false,
    ],
  );
  if (!row) throw new Error('createAgent: no row');
  return row;
}

export interface AgentSettings {
  attorneyFeeCents: number | null;
  recordingFeeCents: number | null;
  transferTaxRatePer1000: number | null;
  commissionPercent: number | null;
}

export async function setAgentSettings(db: Db, agentId: number, settings: AgentSettings): Promise<void> {
  await db.query(
    `INSERT INTO agent_settings (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                 transfer_tax_rate_per_1000, default_commission_percent)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (agent_id) DO UPDATE SET
       default_attorney_fee_cents = EXCLUDED.default_attorney_fee_cents,
       default_recording_fee_cents = EXCLUDED.default_recording_fee_cents,
       transfer_tax_rate_per_1000 = EXCLUDED.transfer_tax_rate_per_1000,
       default_commission_percent = EXCLUDED.default_commission_percent`,
    [
      agentId,
      settings.attorneyFeeCents,
      settings.recordingFeeCents,
      settings.transferTaxRatePer1000,
      settings.commissionPercent,
    ],
  );
}

export interface LeadRow {
  id: number;
  agent_id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  address: string | null;
  message: string | null;
  source: string;
  consent_marketing: boolean;
  estimate_uuid: string | null;
  email_body: string | null;
  page_path: string | null;
}

export async function leadById(db: Db, id: number): Promise<LeadRow | undefined> {
  const [row] = await db.query<LeadRow>(
    `SELECT id, agent_id, first_name, last_name, email, phone, address, message, source, consent_marketing,
            estimate_uuid::text AS estimate_uuid, email_body, page_path
       FROM leads WHERE id = $1`,
    [id],
  );
  return row;
}

export async function countRows(db: Db, table: 'leads' | 'estimates'): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row?.n ?? 0;
}
