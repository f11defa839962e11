import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../server/db.ts';
import { createBatcher } from '../../server/batcher.ts';
import { HttpError, parseOrThrow, readJson, route } from '../../server/http.ts';
import { centsToDollars } from '../../ui/money.ts';
import { computeEstimate, storedEstimateInputs, SYSTEM_DEFAULTS } from './estimate.ts';
import { estimateRequestSchema, UUID_PATTERN, type Estimate } from './estimate-request.ts';

export interface EstimateRow {
  uuid: string;
  agent_id: number;
  agent_slug: string;
  sale_price_cents: number;
  mortgage_payoff_cents: number;
  commission_percent: number;
  transfer_tax_rate_per_1000: number;
  attorney_fee_cents: number;
  recording_fee_cents: number;
  recipient_name: string | null;
  created_at: Date;
}

export const ESTIMATE_COLUMNS = `uuid, agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
  transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, recipient_name, created_at`;

type NewEstimate = z.output<typeof estimateRequestSchema>;

/**
 * One round trip for any number of estimates: finds each active agent by slug, takes their rates
 * (system defaults where unset) and stores the estimates with them. An estimate whose agent does
 * not exist (or is not active) gets null.
 */
async function insertEstimates(db: Db, requests: NewEstimate[]): Promise<(EstimateRow | null)[]> {
  const uuids = requests.map(() => randomUUID());
  const rows = await db.query<Omit<EstimateRow, 'agent_slug'>>(
    `INSERT INTO estimates (uuid, agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                            transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, recipient_name)
     SELECT r.uuid, a.id, r.sale_price_cents, r.mortgage_payoff_cents,
            coalesce(s.default_commission_percent, $6),
            coalesce(s.transfer_tax_rate_per_1000, $7),
            coalesce(s.default_attorney_fee_cents, $8),
            coalesce(s.default_recording_fee_cents, $9),
            r.recipient_name
       FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[], $5::text[])
              AS r (uuid, agent_slug, sale_price_cents, mortgage_payoff_cents, recipient_name)
       JOIN agents a ON a.slug = r.agent_slug AND a.status = 'active'
       LEFT JOIN agent_settings s ON s.agent_id = a.id
     RETURNING ${ESTIMATE_COLUMNS}`,
    [
      uuids,
      requests.map((request) => request.agent_slug),
      requests.map((request) => request.sale_price),
      requests.map((request) => request.mortgage_payoff),
      requests.map((request) => request.recipient_name),
      SYSTEM_DEFAULTS.commissionPercent,
      SYSTEM_DEFAULTS.transferTaxRatePer1000,
      SYSTEM_DEFAULTS.attorneyFeeCents,
      SYSTEM_DEFAULTS.recordingFeeCents,
    ],
  );
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  return requests.map((request, index) => {
    const row = byUuid.get(uuids[index] ?? '');
    return row ? { ...row, agent_slug: request.agent_slug } : null;
  });
}

export async function findEstimate(db: Db, uuid: string): Promise<EstimateRow | undefined> {
  const [row] = await db.query<EstimateRow>(
    `SELECT ${ESTIMATE_COLUMNS.replace(/(\w+)/g, 'e.$1')}, a.slug AS agent_slug
       FROM estimates e JOIN agents a ON a.id = e.agent_id
      WHERE e.uuid = $1`,
    [uuid],
  );
  return row;
}

export function toEstimate(row: EstimateRow): Estimate {
  const lines = computeEstimate(storedEstimateInputs(row));
  return {
    uuid: row.uuid,
    agent_id: row.agent_id,
    agent_slug: row.agent_slug,
    sale_price: centsToDollars(lines.salePriceCents),
    mortgage_payoff: centsToDollars(lines.mortgagePayoffCents),
    commission: centsToDollars(lines.commissionCents),
    commission_percent: lines.commissionPercent,
    transfer_tax: centsToDollars(lines.transferTaxCents),
    transfer_tax_rate_per_1000: row.transfer_tax_rate_per_1000,
    lawyer_fee: centsToDollars(lines.attorneyFeeCents),
    recording_fee: centsToDollars(lines.recordingFeeCents),
    net_to_seller: centsToDollars(lines.netToSellerCents),
    recipient_name: row.recipient_name,
    created_at: row.created_at.toISOString(),
  };
}

export const estimateParams = z.object({
  uuid: z.string().regex(UUID_PATTERN, 'Estimate id is not valid'),
});

export function estimateRoutes(db: Db): Hono {
  const app = new Hono();
  // Concurrent estimates share one INSERT (see docs/decisions/0005-batched-estimate-inserts.md).
  const insertEstimate = createBatcher((requests: NewEstimate[]) => insertEstimates(db, requests));
  route(app, '/estimates', {
    POST: async (c) => {
      const request = await readJson(c, estimateRequestSchema);
      const row = await insertEstimate(request);
      if (!row) throw new HttpError(404, 'Agent not found', { agent_slug: 'Agent not found' });
      return c.json({ success: true, estimate: toEstimate(row) }, 201);
    },
  });
  route(app, '/estimates/:uuid', {
    GET: async (c) => {
      const { uuid } = parseOrThrow(estimateParams, c.req.param());
      const row = await findEstimate(db, uuid.toLowerCase());
      if (!row) throw new HttpError(404, 'Estimate not found');
      return c.json({ success: true, estimate: toEstimate(row) });
    },
  });
  return app;
}
