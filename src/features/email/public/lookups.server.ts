/** What the e-mails need from the database: an estimate with its agent, or an agent alone. */
import type { Queryable } from '../../../platform/db.ts';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';
import { toEstimate, type EstimateRow } from '../../net-sheet/public/estimate-row.server.ts';
import type { EmailAgent } from './templates.ts';

export interface AgentContact extends EmailAgent {
  id: number;
  slug: string;
  status: 'active' | 'inactive' | 'pending';
}

const AGENT_COLUMNS = `a.id, a.slug, a.first_name, a.last_name, a.email, a.phone, a.status`;

type EstimateAndAgentRow = EstimateRow & {
  has_recent_lead: boolean;
  agent_first_name: string;
  agent_last_name: string;
  agent_email: string;
  agent_phone: string | null;
  agent_status: AgentContact['status'];
};

/** An estimate with its agent and, when asked about a visitor, whether they have a recent lead for it. */
export interface EstimateAndAgent {
  estimate: Estimate;
  agent: AgentContact;
  /**
   * With `recentLead`: a lead with that e-mail (case-insensitive) recorded this estimate at most
   * `withinMinutes` ago. Always false without it.
   */
  hasRecentLead: boolean;
}

/** One round trip: the estimate (as the API answers it) and the agent it belongs to. */
export async function findEstimateAndAgent(
  q: Queryable,
  uuid: string,
  recentLead?: { email: string; withinMinutes: number },
): Promise<EstimateAndAgent | undefined> {
  const [row] = await q.query<EstimateAndAgentRow>(
    `SELECT e.uuid, e.agent_id, a.slug AS agent_slug, e.sale_price_cents, e.mortgage_payoff_cents,
            e.commission_percent, e.transfer_tax_rate_per_1000, e.attorney_fee_cents, e.recording_fee_cents,
            e.recipient_name, e.created_at, e.sheet, a.first_name AS agent_first_name, a.last_name AS agent_last_name,
            a.email AS agent_email, a.phone AS agent_phone, a.status AS agent_status,
            $2::text IS NOT NULL AND EXISTS (
              SELECT 1 FROM leads l
               WHERE l.estimate_uuid = e.uuid AND lower(l.email) = lower($2::text)
                 AND l.estimate_recorded_at > now() - $3::integer * interval '1 minute'
            ) AS has_recent_lead
       FROM estimates e JOIN agents a ON a.id = e.agent_id
      WHERE e.uuid = $1`,
    [uuid.toLowerCase(), recentLead?.email ?? null, recentLead?.withinMinutes ?? 0],
  );
  if (!row) return undefined;
  return {
    estimate: toEstimate(row),
    agent: {
      id: row.agent_id,
      slug: row.agent_slug,
      first_name: row.agent_first_name,
      last_name: row.agent_last_name,
      email: row.agent_email,
      phone: row.agent_phone,
      status: row.agent_status,
    },
    hasRecentLead: row.has_recent_lead,
  };
}

/** One round trip: an active agent by slug or by id. */
export async function findActiveAgent(
  q: Queryable,
  ref: { slug: string } | { id: number },
): Promise<AgentContact | undefined> {
  const [row] = await q.query<AgentContact>(
    `SELECT ${AGENT_COLUMNS} FROM agents a
      WHERE a.status = 'active' AND CASE WHEN $1::text IS NOT NULL THEN a.slug = $1::text ELSE a.id = $2::integer END`,
    ['slug' in ref ? ref.slug : null, 'id' in ref ? ref.id : null],
  );
  return row;
}
