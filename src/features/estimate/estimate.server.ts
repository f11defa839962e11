import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../server/db.ts';
import { createBatcher } from '../../server/batcher.ts';
import { HttpError, jsonObject, parseOrThrow, readJson, route } from '../../server/http.ts';
import { SYSTEM_DEFAULTS } from './estimate.ts';
import { estimateRequestSchema } from './estimate-request.ts';
import { postDetailedEstimate } from '../net-sheet/net-sheet.server.ts';
import { ESTIMATE_COLUMNS, estimateParams, findEstimate, toEstimate, type EstimateRow } from './estimate-row.server.ts';

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

export function estimateRoutes(db: Db): Hono {
  const app = new Hono();
  // Concurrent estimates share one INSERT (see docs/decisions/0005-batched-estimate-inserts.md).
  const insertEstimate = createBatcher((requests: NewEstimate[]) => insertEstimates(db, requests));
  route(app, '/estimates', {
    POST: async (c) => {
      const body = await readJson(c, jsonObject);
      // With the seller's details: a detailed sheet, stored with the estimate (issue 12).
      if (body.details !== undefined) return postDetailedEstimate(c, db, body);
      const request = parseOrThrow(estimateRequestSchema, body);
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
